# Shared test helpers: backends, skips, and oracles computed in R.

# The backends test_each_backend() runs on: numpy and tensorflow, or those
# PYCG_R_TEST_BACKENDS names (comma-separated; "torch" runs the R tests on
# the torch backend).
backends <- local({
  only <- strsplit(Sys.getenv("PYCG_R_TEST_BACKENDS"), ",")[[1L]]
  if (length(only)) only else c("numpy", "tensorflow")
})

skip_if_no_pycg <- function() {
  if (!pycg_available())
    skip("Python with the pycg module is not available")
}

# test_that() once per backend, with that backend active.
test_each_backend <- function(desc, code) {
  code <- substitute(code)
  for (backend in backends) {
    eval(bquote(test_that(.(paste0(desc, " [", backend, "]")), {
      skip_if_no_pycg()
      config_set_backend(.(backend))
      .(code)
    })), envir = parent.frame())
  }
}

tensor <- function(x, dtype = "float64") op_convert_to_tensor(x, dtype = dtype)

# Whether a pycg tape records in Python now (none may be left recording
# after an error): asked of pycg.core.recorder itself, which the R package
# has no door to (pycg/r/entries.py).
py_recording <- function() {
  reticulate::import("pycg.core.recorder")$is_recording()
}

# Central finite differences of an R function f: R array -> R number.
fd_grad <- function(f, x, h = 1e-6) {
  g <- x
  for (i in seq_along(x)) {
    up <- x
    down <- x
    up[i] <- up[i] + h
    down[i] <- down[i] - h
    g[i] <- (f(up) - f(down)) / (2 * h)
  }
  g
}

# Run R code in a fresh R process; returns its output and status.
run_r <- function(code, env = character()) {
  script <- tempfile(fileext = ".R")
  writeLines(code, script)
  on.exit(unlink(script))
  rscript <- file.path(R.home("bin"), "Rscript")
  lib <- paste(.libPaths(), collapse = .Platform$path.sep)
  out <- suppressWarnings(system2(
    rscript, script, stdout = TRUE, stderr = TRUE,
    env = c(paste0("R_LIBS=", lib), "RETICULATE_PYTHON=", env)))
  list(output = paste(out, collapse = "\n"),
       status = attr(out, "status") %||% 0L)
}
