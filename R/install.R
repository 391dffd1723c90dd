#' Install the Python side of pycg
#'
#' `install_pycg()` installs the `pycg` Python module (with NumPy and, by
#' default, TensorFlow) into a Python environment with
#' [reticulate::py_install()]; restart R afterwards. `pycg_available()` says
#' whether the Python side can be used (it starts Python if needed).
#'
#' Which Python pycg uses, in order: the one named by `RETICULATE_PYTHON`
#' or `PYCG_PYTHON`; in development, the virtual environment that this
#' package is installed into, or the `.venv` beside a `pycg/` source tree in
#' the working directory or above it; otherwise the one reticulate finds
#' (which includes the `r-pycg` environment this function creates).
#'
#' @param envname The virtual environment or conda environment to install
#'   into.
#' @param package The pip requirement for pycg: a name, a path to a source
#'   tree or a wheel.
#' @param tensorflow If `TRUE`, also install `tensorflow-cpu` for the
#'   tensorflow backend.
#' @param ... Passed on to [reticulate::py_install()].
#' @return `install_pycg()`: `NULL`, invisibly. `pycg_available()`: `TRUE`
#'   or `FALSE`.
#' @examples
#' \dontrun{
#' install_pycg()
#' }
#' @export
install_pycg <- function(envname = "r-pycg", package = "pycg",
                         tensorflow = TRUE, ...) {
  packages <- c(package, "numpy", if (isTRUE(tensorflow)) "tensorflow-cpu")
  reticulate::py_install(packages, envname = envname, pip = TRUE, ...)
  message("Installed pycg into `", envname, "`; restart R to use it.")
  invisible(NULL)
}

#' @rdname install_pycg
#' @export
pycg_available <- function() {
  isTRUE(tryCatch({
    interop()
    TRUE
  }, error = function(e) FALSE))
}
