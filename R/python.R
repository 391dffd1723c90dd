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
  # A Python already running is the one pycg gets; the development source
  # tree belongs to the other one.
  started <- reticulate::py_available(FALSE)
  if (started && !same_environment(where$python)) where$root <- NULL
  modules <- tryCatch(project_search_off(import_pycg(where$root)),
                      error = function(e) {
    if (started) stop_python_started(conditionMessage(e), where$python)
    stop_no_pycg(conditionMessage(e))
  })
  .pycg$core <- modules$core
  interop <- modules$interop
  .pycg$interop <- list(
    call_op = interop$call_op,
    call_op_index = interop$call_op_index,
    call_core = interop$call_core,
    call_method = interop$call_method,
    guard = interop$guard,
    to_r = interop$to_r,
    stage_r = interop$stage_r,
    r_function = interop$r_function,
    r_signature = interop$r_signature,
    r_subset = interop$r_subset,
    enter_tape = interop$enter_tape,
    r_operator = interop$r_operator,
    r_unary = interop$r_unary,
    r_diff = interop$r_diff,
    r_math = interop$r_math,
    r_complex = interop$r_complex,
    r_summary = interop$r_summary,
    r_parallel = interop$r_parallel,
    r_replace = interop$r_replace,
    r_as_double = interop$r_as_double,
    r_ifelse = interop$r_ifelse,
    r_concat = interop$r_concat,
    to_numpy = interop$to_numpy
  )
  .pycg$interop
}

# Imports pycg and the module the R wrappers call. reticulate puts the
# working directory first on sys.path, where a folder named `pycg` would
# shadow the module (or, in a Python without pycg, be run as it); while
# pycg is imported, the working directory is off the front of sys.path (a
# development source tree `root` at its front), and what arrives must be
# the pycg module.
import_pycg <- function(root = NULL) {
  sys <- import("sys", convert = FALSE)
  saved <- sys$path
  paths <- as.character(py_to_r(saved))
  here <- paths %in% c("", ".") |
    normalizePath(paths, mustWork = FALSE) == normalizePath(getwd())
  # only the leading entries that reticulate put there: the same folder
  # further on came from a .pth file (an editable install of pycg itself)
  here <- cumprod(here) == 1
  reticulate::py_set_attr(sys, "path",
                          as.list(c(root, paths[!here])))
  on.exit(reticulate::py_set_attr(sys, "path", saved))
  core <- import("pycg", convert = FALSE)
  file <- py_to_r(reticulate::py_get_attr(core, "__file__", silent = TRUE))
  if (is.null(file) || !reticulate::py_has_attr(core, "custom_gradient"))
    stop("ImportError: `import pycg` found ",
         file %||% reticulate::py_str(core$`__path__`),
         ", which is not the pycg module (a folder named `pycg`?)",
         call. = FALSE)
  list(core = core, interop = import("pycg.r.interop", convert = FALSE))
}

# Python is started once per R session: when it was started before pycg
# was first used (by reticulate or another package) and cannot import pycg,
# only a new R session can use another Python.
stop_python_started <- function(reason, wanted = NULL) {
  python <- tryCatch(reticulate::py_config()$python,
                     error = function(e) "(unknown)")
  stop(
    "R has already started Python ", python, ", which cannot import pycg; ",
    "restart R.\n",
    "Reason: ", sub("\n.*", "", reason), "\n",
    if (!same_environment(wanted, python))
      paste0("pycg would have used ", wanted, ", but R can run only one ",
             "Python per session.\n"),
    "Fix: restart R and make the first Python call a pycg one (before ",
    "reticulate or another package starts Python), with `PYCG_PYTHON` ",
    "naming a Python that has pycg, or run `pycg::install_pycg()` into ",
    "this Python's environment. `pycg::pycg_config()` shows what is set up.\n",
    troubleshooting, call. = FALSE
  )
}

# Whether `python` (NULL: no wish) lives in the same environment as the
# running Python, judged by the folder (a virtualenv's python is a link).
same_environment <- function(python, running = reticulate::py_exe()) {
  is.null(python) || identical(normalizePath(dirname(python)),
                               normalizePath(dirname(running)))
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
    "Sys.setenv(PYCG_PYTHON = \"~/venv/bin/python\").\n",
    troubleshooting, call. = FALSE
  )
}

# Which Python to start, what chose it, and the pycg source tree to import
# from (if any). Only what the user chose, in this order, and never the
# working directory or a folder above it (anyone who can write there would
# run code as whoever starts R below it):
#  1. RETICULATE_PYTHON, left to reticulate;
#  2. PYCG_PYTHON, used as given (with the source tree beside its .venv);
#  3. the virtual environment this package is installed into
#     (<venv>/lib/R/pycg, as the Makefile's .venv/lib/R), in development;
#  4. the environment install_pycg() recorded;
#  5. install_pycg()'s default virtualenv `r-pycg`.
# With none of these, reticulate's own search, less its Poetry and Pipenv
# projects (found from the working directory; see project_search_off()).
python_location <- function(library = system.file(package = "pycg")) {
  if (nzchar(Sys.getenv("RETICULATE_PYTHON")))
    return(chosen(NULL, "the environment variable RETICULATE_PYTHON"))
  python <- Sys.getenv("PYCG_PYTHON")
  if (nzchar(python)) {
    python <- path.expand(python)
    if (!file.exists(python))
      stop_no_pycg(paste0("`PYCG_PYTHON` is set to ", python,
                          ", which does not exist"))
    return(chosen(python, "the environment variable PYCG_PYTHON",
                  source_root(python)))
  }
  python <- library_venv_python(library)
  if (!is.null(python))
    return(chosen(python, paste0("the virtual environment this R package ",
                                 "is installed into"), source_root(python)))
  recorded <- recorded_environment()
  if (!is.null(recorded) && file.exists(recorded$python))
    return(chosen(recorded$python, paste0(
      "install_pycg(envname = \"", recorded$envname, "\"), recorded in ",
      recorded_environment_file())))
  python <- installed_python()
  if (!is.null(python))
    return(chosen(python, "install_pycg()'s virtualenv `r-pycg`"))
  chosen(NULL, paste0("reticulate's search (nothing chosen: no ",
                      "PYCG_PYTHON, no environment from install_pycg())"))
}

chosen <- function(python, by, root = NULL) {
  list(python = python, root = root, chosen_by = by)
}

# The Python of the virtual environment whose R library holds this package
# (<venv>/lib/R/pycg with <venv>/pyvenv.cfg), if that is where it is.
library_venv_python <- function(library) {
  lib <- dirname(library)
  if (!nzchar(library) || basename(lib) != "R" ||
      basename(dirname(lib)) != "lib")
    return(NULL)
  venv <- dirname(dirname(lib))
  if (file.exists(file.path(venv, "pyvenv.cfg"))) venv_python(venv)
}

# Runs `code` (reticulate's search for a Python) with its Poetry and
# Pipenv project discovery pointed at nothing, unless the user set them:
# reticulate looks for those projects from the working directory upwards.
project_search_off <- function(code) {
  nowhere <- file.path(tempdir(), "pycg-no-project")
  old <- options(
    reticulate.poetry.project = getOption("reticulate.poetry.project",
                                          nowhere),
    reticulate.pipenv.pipfile = getOption("reticulate.pipenv.pipfile",
                                          file.path(nowhere, "Pipfile")))
  on.exit(options(old))
  code
}

# The Python of the virtualenv install_pycg() makes by default, when there is
# one and RETICULATE_PYTHON does not choose. (reticulate would find it only
# if `pycg` were the first module imported; pycg imports `sys` first.)
installed_python <- function() {
  if (!nzchar(Sys.getenv("RETICULATE_PYTHON")) &&
      reticulate::virtualenv_exists(default_envname))
    reticulate::virtualenv_python(default_envname)
}

default_envname <- "r-pycg"

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

#' R arrays as NumPy arrays, for Python libraries such as Keras
#'
#' `pycg_to_numpy()` hands R data to a Python library as a NumPy array,
#' through pycg's own array conversion: R's dims and layout kept (a matrix
#' of `n` rows and `p` columns is an `(n, p)` array with the same values in
#' the same places), doubles as float64, integers as int32, logicals as
#' bool, or the `dtype` asked for. Use it where an R array goes into Python
#' code directly, such as a scikit-learn estimator's `fit(x, y)` reached with
#' `reticulate::import()`: reticulate before 1.36 (1.28 is what Debian 12
#' ships) cannot pass R arrays to NumPy 2, which [install_pycg()] installs,
#' and stops with "incompatible NumPy binary version". pycg's own functions
#' take R arrays as they are, and so do a Keras model's data methods
#' (`model$fit(x, y)`, `model$predict(x)`, which then give R arrays): pycg
#' converts them where reticulate cannot. A NumPy array that comes back (a
#' prediction) becomes a tensor with [op_convert_to_tensor()] and an R
#' array with `as.array()`.
#'
#' @param x An R vector, matrix or array of numbers or logicals (a length-1
#'   vector gives a 0-d array), or a tensor.
#' @param dtype `NULL` for the data's own type, or a NumPy dtype name such
#'   as `"float32"` (Keras models compute in float32).
#' @return A NumPy array (a Python object that reticulate passes on as it
#'   is).
#' @examplesIf pycg_available()
#' m <- matrix(1:6 + 0, 2, 3)
#' a <- pycg_to_numpy(m, dtype = "float32")
#' a$shape
#' as.array(op_convert_to_tensor(a))   # m again
#' @export
pycg_to_numpy <- function(x, dtype = NULL) {
  check_live(list(x))
  out <- suspendInterrupts(interop()$to_numpy(
    if (is_tensor(x)) x else as_py(x), as_dtype(dtype)))
  # (the array itself, never reticulate's conversion back to R)
  if (inherits(out, c("pycg.r.interop.Failure", "pycg.r.interop.Warned")))
    py_result(out)
  else if (inherits(out, "python.builtin.NoneType"))   # (carries a gradient)
    stop_leaving_tape("pycg_to_numpy", sys.nframe())
  else
    out
}
