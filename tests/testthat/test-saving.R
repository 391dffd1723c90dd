# pycg_save_variables() / pycg_load_variables() from R: every dtype and any
# name round-trips, a failed save leaves the old file as it was, only
# regular files are read or replaced; install_pycg()'s record is written
# whole or not at all.

dtypes <- c("bfloat16", "float16", "float32", "float64", "complex64",
            "complex128", "bool", "int8", "int16", "int32", "int64", "uint8",
            "uint16", "uint32", "uint64")

# Edge values of each dtype, made by NumPy (R has no bfloat16 or uint64).
edge_variable <- function(dtype, name = "v") {
  np <- reticulate::import("numpy", convert = FALSE)
  values <- switch(
    substr(dtype, 1, 3),
    boo = np$array(c(TRUE, FALSE, TRUE)),
    int = , uin = {
      info <- np$iinfo(dtype)
      np$array(list(info$min, 0L, info$max), dtype = dtype)
    },
    com = np$array(c(-0, Inf, NaN))$astype(dtype)$`__add__`(1i),
    np$array(c(-0, Inf, -Inf, NaN, 1.5, -2.25))$astype(
      if (dtype == "bfloat16") reticulate::import("ml_dtypes")$bfloat16 else
        dtype))
  pycg_variable(values, name = name,
                trainable = !dtype %in% dtypes[7:15])
}

raw_bytes <- function(v) {
  hex <- v$numpy()$tobytes()$hex()
  if (inherits(hex, "python.builtin.object")) reticulate::py_to_r(hex) else hex
}

test_each_backend("every dtype round-trips bit for bit", {
  path <- tempfile(fileext = ".npz")
  on.exit(unlink(path))
  for (dtype in dtypes) {
    saved <- edge_variable(dtype)
    pycg_save_variables(path, list(saved))
    loaded <- edge_variable(dtype)
    loaded$assign(op_zeros_like(loaded))
    pycg_load_variables(path, list(loaded))
    expect_identical(raw_bytes(loaded), raw_bytes(saved), info = dtype)
  }
})

test_that("every dtype JAX has without its 64-bit mode round-trips [jax]", {
  skip_if_no_pycg()
  skip_if_not(reticulate::py_module_available("jax"), "JAX is not installed")
  previous <- config_backend()
  config_set_backend("jax")
  on.exit(config_set_backend(previous))
  path <- tempfile(fileext = ".npz")
  on.exit(unlink(path), add = TRUE)
  for (dtype in setdiff(dtypes, c("float64", "complex128", "int64",
                                  "uint64"))) {
    saved <- edge_variable(dtype)
    pycg_save_variables(path, list(saved))
    loaded <- edge_variable(dtype)
    loaded$assign(op_zeros_like(loaded))
    pycg_load_variables(path, list(loaded))
    expect_identical(raw_bytes(loaded), raw_bytes(saved), info = dtype)
  }
})

test_each_backend("variables named like np.savez's arguments round-trip", {
  path <- tempfile(fileext = ".npz")
  on.exit(unlink(path))
  names <- c("file", "allow_pickle", "args", "kwds")
  saved <- setNames(lapply(seq_along(names), function(i) pycg_variable(as.numeric(i))),
                    names)
  pycg_save_variables(path, saved)
  loaded <- setNames(lapply(names, function(n) pycg_variable(0)), names)
  pycg_load_variables(path, loaded)
  expect_identical(vapply(loaded, as.numeric, 0), setNames(1:4 + 0, names))
})

test_that("a save that fails leaves the old checkpoint as it was", {
  skip_if_no_pycg()
  dir <- tempfile()
  dir.create(dir)
  on.exit(unlink(dir, recursive = TRUE))
  path <- file.path(dir, "w.npz")
  pycg_save_variables(path, list(w = pycg_variable(c(1, 2))))
  old <- readBin(path, "raw", 1e4)
  # every member's bytes fail after 100 (np.lib.format.write_array)
  reticulate::py_run_string(paste(
    "import numpy as np",
    "_real = np.lib.format.write_array",
    "class _Failing:",
    "    def __init__(self, f): self.f = f",
    "    def write(self, data): raise OSError(28, 'No space left on device')",
    "np.lib.format.write_array = lambda fp, a, *r, **k: _real(_Failing(fp),",
    "                                                       a, *r, **k)",
    sep = "\n"))
  on.exit(reticulate::py_run_string(
    "np.lib.format.write_array = _real"), add = TRUE)
  expect_error(pycg_save_variables(path, list(w = pycg_variable(c(3, 4)))),
               paste0("^pycg_save_variables: cannot write .*w\\.npz. \\(No ",
                      "space left on device\\); the file there is left as it ",
                      "was$"))
  expect_identical(readBin(path, "raw", 1e4), old)
  expect_identical(list.files(dir, all.files = TRUE, no.. = TRUE), "w.npz")
  w <- pycg_variable(c(0, 0))
  pycg_load_variables(path, list(w = w))
  expect_identical(as.numeric(w), c(1, 2))
})

test_that("only regular files are read or replaced", {
  skip_if_no_pycg()
  skip_on_os("windows")
  dir <- tempfile()
  dir.create(dir)
  on.exit(unlink(dir, recursive = TRUE))
  fifo <- file.path(dir, "fifo.npz")
  reticulate::import("os")$mkfifo(fifo)
  # (an alarm ends a blocking open(), were the FIFO opened)
  reticulate::py_run_string(paste(
    "import signal",
    "def _blocked(*_): raise TimeoutError('blocked on a FIFO')",
    "signal.signal(signal.SIGALRM, _blocked)", sep = "\n"))
  signal <- reticulate::import("signal")
  w <- pycg_variable(1, name = "w")
  for (case in list(c("load", fifo, "a FIFO \\(named pipe\\)"),
                    c("save", fifo, "a FIFO \\(named pipe\\)"),
                    c("load", dir, "a directory"),
                    c("save", dir, "a directory"))) {
    signal$alarm(10L)
    err <- tryCatch(
      if (case[1] == "load") pycg_load_variables(case[2], list(w)) else
        pycg_save_variables(case[2], list(w)),
      error = identity)
    signal$alarm(0L)
    verb <- if (case[1] == "load") "reads" else "writes"
    expect_match(conditionMessage(err), paste0(
      "^pycg_", case[1], "_variables: \"", case[2], "\" is ", case[3],
      ", not a regular file; pycg_", case[1], "_variables ", verb,
      " regular files only$"), info = case[2])
  }
  expect_identical(sort(list.files(dir, all.files = TRUE, no.. = TRUE)),
                   "fifo.npz")
})

test_that("`path` must be one file name", {
  skip_if_no_pycg()
  w <- pycg_variable(1, name = "w")
  for (path in list(NA_character_, 3, c("a.npz", "b.npz"), "", NULL)) {
    expect_error(pycg_save_variables(path, list(w)), paste0(
      "^pycg_save_variables: `path` must be one file name \\(a character ",
      "string\\), not "), info = deparse(path))
    expect_error(pycg_load_variables(path, list(w)),
                 "^pycg_load_variables: `path` must be one file name")
  }
})

# An interrupt condition, as R signals one on Ctrl-C.
signal_interrupt <- function() {
  signalCondition(structure(class = c("interrupt", "condition"),
                            list(message = "", call = NULL)))
}

test_that("install_pycg()'s record is replaced whole or not at all", {
  dir <- tempfile()
  dir.create(dir)
  on.exit(unlink(dir, recursive = TRUE))
  file <- file.path(dir, "environment.dcf")
  writeLines("envname: old", file)
  for (fail in list(function(to) {
    writeLines("envname: half", to)
    stop("disk full")
  }, function(to) {
    writeLines("envname: half", to)
    warning("problem writing to connection")
  })) {
    expect_error(pycg:::write_atomically(file, fail))
    expect_identical(readLines(file), "envname: old")
    expect_identical(list.files(dir, all.files = TRUE, no.. = TRUE),
                     "environment.dcf")
  }
  expect_error(pycg:::write_atomically(file, function(to) {
    writeLines("x", to)
    warning("problem writing to connection")
  }), paste0("cannot write .*environment\\.dcf \\(problem writing to ",
             "connection\\); the file there is left as it was"))
  # an interrupt (as Ctrl-C gives) while writing
  interrupted <- tryCatch(pycg:::write_atomically(file, function(to) {
    writeLines("envname: half", to)
    signal_interrupt()
  }), interrupt = function(i) "interrupted")
  expect_identical(interrupted, "interrupted")
  expect_identical(readLines(file), "envname: old")
  expect_identical(list.files(dir, all.files = TRUE, no.. = TRUE),
                   "environment.dcf")
  pycg:::write_atomically(file, function(to) writeLines("envname: new", to))
  expect_identical(readLines(file), "envname: new")
  expect_identical(list.files(dir, all.files = TRUE, no.. = TRUE),
                   "environment.dcf")
})

test_that("install_pycg()'s record is rewritten whole, nothing left beside", {
  config <- tempfile()
  old <- Sys.getenv("R_USER_CONFIG_DIR", unset = NA)
  Sys.setenv(R_USER_CONFIG_DIR = config)
  on.exit({
    if (is.na(old)) Sys.unsetenv("R_USER_CONFIG_DIR") else
      Sys.setenv(R_USER_CONFIG_DIR = old)
    unlink(config, recursive = TRUE)
  })
  for (env in c("/some/env", "/other/env")) {
    pycg:::record_environment(env, file.path(env, "bin", "python"))
    file <- pycg:::recorded_environment_file()
    expect_identical(pycg:::recorded_environment()$envname, env)
    expect_identical(list.files(dirname(file), all.files = TRUE,
                                no.. = TRUE), "environment.dcf")
  }
})

test_that("a refused load names every missing variable, in one message", {
  skip_if_no_pycg()
  path <- tempfile(fileext = ".npz")
  pycg_save_variables(path, list(a = pycg_variable(1)))
  vars <- list(a = pycg_variable(0), b = pycg_variable(0),
               c = pycg_variable(0))
  expect_no_warning(err <- tryCatch(pycg_load_variables(path, vars),
                                    error = identity))
  expect_match(conditionMessage(err), paste0(
    "^pycg_load_variables: the names in .* do not match the variables: ",
    "missing from the file: c\\(\"b\", \"c\"\\); in the file but not ",
    "among the variables: none$"))
  expect_identical(as.numeric(vars$a), 0)
})
