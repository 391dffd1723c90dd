# Finding Python and starting it on first use. Nothing here runs at load time.

# The Python function objects the wrappers call; starts Python the first time.
interop <- function() {
  if (is.null(.pycg$interop)) start_python() else .pycg$interop
}

start_python <- function() {
  where <- python_location()
  if (!is.null(where$python) && !reticulate::py_available(FALSE)) {
    # Named through RETICULATE_PYTHON for the start only: reticulate 1.28
    # looks for Poetry and Pipenv projects before use_python()'s choice.
    old <- Sys.getenv("RETICULATE_PYTHON", unset = NA)
    Sys.setenv(RETICULATE_PYTHON = where$python)
    on.exit(if (is.na(old)) Sys.unsetenv("RETICULATE_PYTHON") else
      Sys.setenv(RETICULATE_PYTHON = old))
  }
  modules <- tryCatch({
    if (is.null(where$root)) {
      list(core = import("pycg", convert = FALSE),
           interop = import("pycg.r.interop", convert = FALSE))
    } else {
      list(core = reticulate::import_from_path("pycg", where$root,
                                               convert = FALSE),
           interop = reticulate::import_from_path("pycg.r.interop", where$root,
                                                  convert = FALSE))
    }
  }, error = function(e) stop_no_pycg(conditionMessage(e)))
  .pycg$core <- modules$core
  interop <- modules$interop
  .pycg$interop <- list(
    call_op = interop$call_op,
    call_op_index = interop$call_op_index,
    call_core = interop$call_core,
    call_method = interop$call_method,
    guard = interop$guard,
    to_r = interop$to_r,
    r_function = interop$r_function,
    r_signature = interop$r_signature,
    r_subset = interop$r_subset,
    r_cumulative = interop$r_cumulative
  )
  .pycg$interop
}

stop_no_pycg <- function(reason) {
  python <- tryCatch(reticulate::py_config()$python, error = function(e) NULL)
  stop(
    "pycg needs a Python with the `pycg` module",
    if (!is.null(python)) paste0(" (tried ", python, ")"), ".\n",
    "Reason: ", sub("\n.*", "", reason), "\n",
    "Fix: run `pycg::install_pycg()` (it installs the Python distribution ",
    "`", python_distribution, "`, not the unrelated `pycg` on PyPI) and ",
    "restart R, or set the environment variable `PYCG_PYTHON` to a Python ",
    "that can `import pycg` before the first pycg call, e.g. ",
    "Sys.setenv(PYCG_PYTHON = \"~/venv/bin/python\").",
    call. = FALSE
  )
}

# Which Python to start, and the source tree to import pycg from (if any):
# RETICULATE_PYTHON is left to reticulate; PYCG_PYTHON is used as given;
# otherwise a development virtual environment is looked for: the one this
# package is installed into (<venv>/lib/R/pycg), or <dir>/.venv beside a
# pycg/ source tree in the working directory or above it.
python_location <- function(starts = c(system.file(package = "pycg"),
                                       getwd())) {
  if (nzchar(Sys.getenv("RETICULATE_PYTHON")))
    return(list(python = NULL, root = NULL))
  python <- Sys.getenv("PYCG_PYTHON")
  if (nzchar(python)) {
    python <- path.expand(python)
    if (!file.exists(python))
      stop_no_pycg(paste0("`PYCG_PYTHON` is set to ", python,
                          ", which does not exist"))
    return(list(python = python, root = source_root(python)))
  }
  for (dir in unlist(lapply(starts[nzchar(starts)], ancestors))) {
    venv <- if (file.exists(file.path(dir, "pyvenv.cfg"))) dir else
      if (file.exists(file.path(dir, "pycg", "__init__.py")))
        file.path(dir, ".venv")
    python <- venv_python(venv)
    if (!is.null(python))
      return(list(python = python, root = source_root(python)))
  }
  list(python = NULL, root = NULL)
}

ancestors <- function(dir) {
  dir <- normalizePath(dir, mustWork = FALSE)
  out <- dir
  while (!identical(parent <- dirname(dir), dir)) {
    out <- c(out, parent)
    dir <- parent
  }
  out
}

venv_python <- function(venv) {
  if (is.null(venv)) return(NULL)
  for (exe in c("bin/python", "Scripts/python.exe")) {
    python <- file.path(venv, exe)
    if (file.exists(python)) return(python)
  }
  NULL
}

# The pycg source tree next to a virtual environment's Python, if any.
source_root <- function(python) {
  root <- normalizePath(dirname(dirname(dirname(python))), mustWork = FALSE)
  if (file.exists(file.path(root, "pycg", "__init__.py"))) root
}
