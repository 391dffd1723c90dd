#' Install the Python side of pycg
#'
#' `install_pycg()` installs the pycg Python module (distribution name
#' `pycg-autodiff`; the `pycg` project on PyPI is an unrelated one) with
#' NumPy and, by default, TensorFlow into a Python environment with
#' [reticulate::py_install()]; restart R afterwards. It installs from a local
#' source tree: `source` when given, else the Python sources bundled with
#' this R package when it has them. With neither, it installs nothing and
#' prints the pip command to run. `pycg_available()` says whether the Python
#' side can be used (it starts Python if needed).
#'
#' Which Python pycg uses, in order: the one named by `RETICULATE_PYTHON`
#' or `PYCG_PYTHON`; in development, the virtual environment that this
#' package is installed into, or the `.venv` beside a `pycg/` source tree in
#' the working directory or above it; otherwise the one reticulate finds
#' (which includes the `r-pycg` environment this function creates).
#'
#' @param envname The virtual environment or conda environment to install
#'   into.
#' @param source A pycg Python source tree (the folder that holds
#'   `pyproject.toml` and `pycg/`) or a wheel file. `NULL` uses the sources
#'   bundled with this R package, if any.
#' @param tensorflow If `TRUE`, also install `tensorflow-cpu` for the
#'   tensorflow backend.
#' @param ... Passed on to [reticulate::py_install()].
#' @return `install_pycg()`: `NULL`, invisibly. `pycg_available()`: `TRUE`
#'   or `FALSE`.
#' @examples
#' \dontrun{
#' install_pycg(source = "~/src/pycg")
#' }
#' @export
install_pycg <- function(envname = "r-pycg", source = NULL,
                         tensorflow = TRUE, ...) {
  source <- source %||% bundled_python_source()
  if (is.null(source)) {
    message(install_hint(tensorflow))
    return(invisible(NULL))
  }
  reticulate::py_install(pip_requirements(source, tensorflow),
                         envname = envname, pip = TRUE, ...)
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

# The distribution name of the Python side on package indexes.
python_distribution <- "pycg-autodiff"

# The one place that says where the R package keeps the Python sources it
# bundles: inst/python/ in the source tree, python/ once installed.
bundled_python_source <- function() {
  path <- system.file("python", package = "pycg")
  if (nzchar(path) && file.exists(file.path(path, "pyproject.toml"))) path
}

# What pip installs: the source tree or wheel by path (never a bare name,
# which on PyPI is another project) and, if asked, tensorflow-cpu.
pip_requirements <- function(source, tensorflow = TRUE) {
  source <- path.expand(source)
  if (!file.exists(source))
    stop("`source` must be a pycg source tree or wheel; got ", source,
         ", which does not exist.", call. = FALSE)
  if (dir.exists(source) && !file.exists(file.path(source, "pyproject.toml")))
    stop("`source` must be a pycg source tree (a folder with ",
         "pyproject.toml) or a wheel; got ", source, ", which has no ",
         "pyproject.toml.", call. = FALSE)
  c(normalizePath(source), if (isTRUE(tensorflow)) "tensorflow-cpu")
}

install_hint <- function(tensorflow = TRUE) {
  extra <- if (isTRUE(tensorflow)) "[tensorflow-cpu]" else ""
  paste0(
    "This R package has no bundled pycg Python sources and no `source` was ",
    "given, so nothing was installed. Install the Python side from a copy ",
    "of the pycg sources with:\n",
    "  python -m pip install \"", python_distribution, extra,
    " @ file:///path/to/pycg\"\n",
    "or run install_pycg(source = \"/path/to/pycg\"). (The `pycg` project ",
    "on PyPI is unrelated; do not pip install `pycg`.)")
}
