#' Install the Python side of pycg
#'
#' `install_pycg()` installs the pycg Python module (distribution name
#' `pycg-autodiff`; the `pycg` project on PyPI is an unrelated one) with
#' NumPy and, by default, TensorFlow into a Python environment with
#' [reticulate::py_install()], creating a virtual environment if `envname`
#' names none; restart R afterwards. The R package carries the Python
#' sources of its own version, and those are what it installs, so the two
#' halves always match; `source` installs another source tree or wheel
#' instead. (A package built without them installs nothing and prints the
#' pip command to run.) NumPy and TensorFlow come from the package index.
#' `pycg_available()` says whether the Python side can be used (it starts
#' Python if needed); [pycg_config()] says what is set up and what is not.
#'
#' `install_pycg()` records the environment it installed into (its name
#' and its Python) in a file under `tools::R_user_dir("pycg", "config")`,
#' so later R sessions use it without settings; [pycg_config()] shows it.
#'
#' Which Python pycg uses, in order: the one named by `RETICULATE_PYTHON`
#' or `PYCG_PYTHON`; in development, the virtual environment that this
#' package is installed into (the package in `<venv>/lib/R`, as `make test`
#' installs it); the environment `install_pycg()` recorded; the virtualenv
#' `r-pycg` that `install_pycg()` creates by default; otherwise the one
#' reticulate's search finds, less its Poetry and Pipenv projects. Nothing
#' is taken from the working directory or the folders above it: a `.venv`
#' or a `pycg/` folder there is never used (set `PYCG_PYTHON` to use one).
#'
#' @param envname The virtual environment or conda environment to install
#'   into: a name, or a path.
#' @param source A pycg Python source tree (the folder that holds
#'   `pyproject.toml` and `pycg/`) or a wheel file. `NULL` uses the sources
#'   bundled with this R package, if any.
#' @param tensorflow If `TRUE`, also install `tensorflow-cpu` for the
#'   tensorflow backend.
#' @param jax If `TRUE`, also install `jax` (CPU) for the jax backend and
#'   [pycg_to_jax()] (the Python distribution's `jax` extra).
#' @param ... Passed on to [reticulate::py_install()].
#' @return `install_pycg()`: `NULL`, invisibly. `pycg_available()`: `TRUE`
#'   or `FALSE`.
#' @examples
#' \dontrun{
#' install_pycg()                              # the bundled sources
#' install_pycg(source = "~/src/pycg")          # another source tree
#' install_pycg(jax = TRUE)                    # with JAX too
#' }
#' @export
install_pycg <- function(envname = "r-pycg", source = NULL,
                         tensorflow = TRUE, jax = FALSE, ...) {
  source <- source %||% bundled_python_source()
  if (is.null(source)) {
    message(install_hint(tensorflow, jax))
    return(invisible(NULL))
  }
  requirements <- pip_requirements(source, tensorflow, jax)
  with_clean_library_path({
    if (!"method" %in% names(list(...)) && !python_env_exists(envname))
      reticulate::virtualenv_create(envname)
    reticulate::py_install(requirements, envname = envname, pip = TRUE, ...)
  })
  python <- environment_python(envname)
  if (!is.null(python)) record_environment(envname, python)
  message("Installed pycg into `", envname, "`", if (is.null(python))
    paste0("; set PYCG_PYTHON to its Python and restart R to use it.") else
    paste0(" (", python, "); restart R to use it. Later R sessions use it ",
           "too (recorded in ", recorded_environment_file(), ")."))
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
# which on PyPI is another project) and, if asked, tensorflow-cpu and jax
# (as the `jax` extra of pyproject.toml names it).
pip_requirements <- function(source, tensorflow = TRUE, jax = FALSE) {
  source <- path.expand(source)
  if (grepl("['\"]", source))
    stop("`source` must be a path without quotes; got ", source, ". ",
         "reticulate drops quotes from the path before pip sees it, so pip ",
         "would look for another path. Copy or link the sources to a path ",
         "without quotes (e.g. file.symlink(\"", source, "\", ",
         "file.path(tempdir(), \"pycg\"))) and pass that.", call. = FALSE)
  if (!file.exists(source))
    stop("`source` must be a pycg source tree or wheel; got ", source,
         ", which does not exist.", call. = FALSE)
  if (dir.exists(source) && !file.exists(file.path(source, "pyproject.toml")))
    stop("`source` must be a pycg source tree (a folder with ",
         "pyproject.toml) or a wheel; got ", source, ", which has no ",
         "pyproject.toml.", call. = FALSE)
  c(normalizePath(source), if (isTRUE(tensorflow)) "tensorflow-cpu",
    if (isTRUE(jax)) "jax")
}

# The Python of environment `envname` (a virtualenv or a conda
# environment, by name or path), or NULL: the environment's own bin/python,
# an absolute path with the link itself kept (a virtualenv's python links to
# the interpreter it was made from, which does not see its packages).
environment_python <- function(envname) {
  python <- tryCatch(
    if (reticulate::virtualenv_exists(envname))
      reticulate::virtualenv_python(envname) else
      reticulate::conda_python(envname),
    error = function(e) NULL)
  if (length(python) == 1L && file.exists(python))
    file.path(normalizePath(dirname(python)), basename(python))
}

# Where install_pycg() records the environment it installed into, so that
# the next R session finds it (tools::R_user_dir(), as CRAN's policy asks).
recorded_environment_file <- function() {
  file.path(tools::R_user_dir("pycg", "config"), "environment.dcf")
}

record_environment <- function(envname, python) {
  file <- recorded_environment_file()
  dir.create(dirname(file), recursive = TRUE, showWarnings = FALSE)
  # (unfolded: write.dcf folds a long path onto a second line, which
  # read.dcf then returns with the line break in it)
  write_atomically(file, function(to) {
    write.dcf(data.frame(envname = envname, python = python), to,
              width = .Machine$integer.max)
  })
}

# Runs `write(to)` on a new file beside `file`, then renames it over `file`:
# an error, a warning (R's connections only warn when a write fails) or an
# interrupt while writing leaves `file` as it was, and no temporary file.
write_atomically <- function(file, write) {
  to <- tempfile(paste0(".", basename(file), "."), tmpdir = dirname(file),
                 fileext = ".tmp")
  on.exit(unlink(to))
  who <- calling_function()
  failed <- function(reason) {
    stop(who, ": cannot write ", file, " (", reason, "); the file there is ",
         "left as it was", call. = FALSE)
  }
  withCallingHandlers(write(to), warning = function(w)
    failed(conditionMessage(w)))
  renamed <- tryCatch(file.rename(to, file), warning = function(w)
    failed(conditionMessage(w)))
  if (!isTRUE(renamed)) failed("the rename failed")
  invisible(file)
}

# The recorded environment, list(envname, python), or NULL when none is.
recorded_environment <- function() {
  file <- recorded_environment_file()
  if (!file.exists(file)) return(NULL)
  fields <- tryCatch(read.dcf(file, fields = c("envname", "python")),
                     error = function(e) NULL)
  if (is.null(fields) || nrow(fields) != 1L || anyNA(fields)) return(NULL)
  list(envname = fields[[1L, "envname"]], python = fields[[1L, "python"]])
}

# A new environment is a virtualenv (reticulate would otherwise offer to
# install Miniconda first).
python_env_exists <- function(envname) {
  reticulate::virtualenv_exists(envname) ||
    envname %in% tryCatch(reticulate::conda_list()$name,
                          error = function(e) character())
}

# Runs `code` with LD_LIBRARY_PATH unset: R puts its own library folders
# there, and a Python started with them (pyenv's, or a system one) can load
# the system's libpython instead of its own, which breaks its `ssl` module
# and so pip.
with_clean_library_path <- function(code) {
  old <- Sys.getenv("LD_LIBRARY_PATH", unset = NA)
  Sys.unsetenv("LD_LIBRARY_PATH")
  on.exit(if (!is.na(old)) Sys.setenv(LD_LIBRARY_PATH = old))
  code
}

install_hint <- function(tensorflow = TRUE, jax = FALSE) {
  extras <- c(if (isTRUE(tensorflow)) "tensorflow-cpu", if (isTRUE(jax)) "jax")
  extra <- if (length(extras)) paste0("[", paste(extras, collapse = ","), "]")
    else ""
  paste0(
    "This R package has no bundled pycg Python sources and no `source` was ",
    "given, so nothing was installed. Install the Python side from a copy ",
    "of the pycg sources with:\n",
    "  python -m pip install \"", python_distribution, extra,
    " @ file:///path/to/pycg\"\n",
    "or run install_pycg(source = \"/path/to/pycg\"). (The `pycg` project ",
    "on PyPI is unrelated; do not pip install `pycg`.)\n", troubleshooting)
}
