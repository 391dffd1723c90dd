#' What pycg is set up with, and what to fix
#'
#' `pycg_config()` reports, in the manner of `tensorflow::tf_config()`, which
#' Python pycg uses (and what chose it), which pycg module that Python
#' imports (version and location), the backend with the TensorFlow and NumPy
#' versions, and whether the Python pycg has this R package's version. When
#' something is wrong it says what, and the next step. It starts Python if
#' pycg has not started it yet, and never stops with an error.
#'
#' @return A list, invisibly: `r_package` (this package's version),
#'   `python` (the interpreter, or `NA` when none started), `python_version`,
#'   `chosen_by` (what chose that Python), `pycg_version` and `pycg_path`
#'   (the Python module; `NA` when it cannot be imported), `backend`,
#'   `tensorflow` and `numpy` (versions, `NA` when not installed),
#'   `bundled_sources` (the Python sources [install_pycg()] installs, or
#'   `NA`), `recorded` (the environment [install_pycg()] recorded, or
#'   `NA`), `versions_match` and `problems` (a character vector: what is
#'   wrong and the next step; empty when all is well).
#' @examples
#' pycg_config()
#' @export
pycg_config <- function() {
  info <- config_info()
  print_config(info)
  invisible(info)
}

config_info <- function() {
  error <- tryCatch({
    interop()
    NULL
  }, error = conditionMessage)
  python <- if (reticulate::py_available(FALSE))
    tryCatch(reticulate::py_config(), error = function(e) NULL)
  ok <- is.null(error)
  info <- list(
    r_package = as.character(utils::packageVersion("pycg")),
    python = python$python %||% NA_character_,
    python_version = if (is.null(python)) NA_character_ else
      sub(" .*", "", python$version_string),
    chosen_by = python_chooser(),
    pycg_version = if (ok) py_to_r(.pycg$core$`__version__`) else
      NA_character_,
    pycg_path = if (ok) dirname(py_to_r(.pycg$core$`__file__`)) else
      NA_character_,
    backend = if (ok) config_backend() else NA_character_,
    tensorflow = if (ok) python_package_version(c("tensorflow",
                                                  "tensorflow-cpu")) else
      NA_character_,
    numpy = if (ok) python_package_version("numpy") else NA_character_,
    bundled_sources = bundled_python_source() %||% NA_character_,
    recorded = recorded_line(),
    error = error
  )
  info$versions_match <- identical(info$pycg_version, info$r_package)
  info$problems <- config_problems(info)
  info$error <- NULL
  info
}

# What picks the Python (python_location() says).
python_chooser <- function() {
  tryCatch(python_location()$chosen_by, error = function(e)
    "the environment variable PYCG_PYTHON")
}

# The environment install_pycg() recorded, as one line for the report.
recorded_line <- function() {
  recorded <- recorded_environment()
  if (is.null(recorded)) return(NA_character_)
  paste0("`", recorded$envname, "` (", recorded$python,
         if (!file.exists(recorded$python)) ", which no longer exists", ")")
}

# The installed version of the first of `distributions` found, without
# importing it (importing TensorFlow takes seconds).
python_package_version <- function(distributions) {
  metadata <- import("importlib.metadata")
  for (name in distributions) {
    version <- tryCatch(metadata$version(name), error = function(e) NULL)
    if (!is.null(version)) return(version)
  }
  NA_character_
}

# Where the known install problems and their fixes are written up; every
# message that names a fix ends with it
troubleshooting <- paste0(
  "More: the troubleshooting guide (docs/troubleshooting.md in the pycg ",
  "sources; \"Troubleshooting\" in the Guides menu of the pycg site).")

# What is wrong with `info`, each with the next step.
config_problems <- function(info) {
  install <- if (is.na(info$bundled_sources))
    "install the Python side (install_pycg() prints the pip command)" else
    paste0("run `pycg::install_pycg()` (it installs pycg ", info$r_package,
           " from the sources bundled with this R package, with NumPy and ",
           "TensorFlow, into the virtualenv `r-pycg`)")
  problems <- character()
  if (grepl("no longer exists", info$recorded %||% "", fixed = TRUE))
    problems <- paste0("install_pycg() recorded the environment ",
                       info$recorded, ". Next: run install_pycg() again, ",
                       "or delete ", recorded_environment_file(), ".")
  if (!is.null(info$error)) {
    first <- sub("\n.*", "", info$error)
    if (grepl("already started Python", first, fixed = TRUE))
      return(c(problems, first,
               paste0("Next: restart R; then ", install, " or set ",
                      "PYCG_PYTHON before the first pycg call.")))
    return(c(problems, paste0("pycg cannot be used: ",
                    sub(".*\nReason: ([^\n]*).*", "\\1", info$error)),
             paste0("Next: ", install, ", then restart R; or set ",
                    "PYCG_PYTHON to a Python that has pycg.")))
  }
  if (!info$versions_match)
    problems <- c(problems, paste0(
      "The Python pycg is ", info$pycg_version, " but this R package is ",
      info$r_package, ". Next: ", install, " into this Python's ",
      "environment (envname = \"", dirname(dirname(info$python)), "\"), ",
      "then restart R."))
  if (is.na(info$tensorflow))
    problems <- c(problems, paste0(
      "TensorFlow is not installed in this Python, so only the numpy ",
      "backend works. Next: install_pycg(tensorflow = TRUE) into it, or ",
      "pip install tensorflow-cpu."))
  problems
}

print_config <- function(info) {
  field <- function(name, value) cat(sprintf("%-18s%s\n", name, value))
  missing <- if (is.na(info$pycg_version)) "-" else "not installed"
  na <- function(x, alt = missing) if (is.na(x)) alt else x
  field("pycg R package:", paste0(info$r_package, " at ",
                                  system.file(package = "pycg")))
  field("Python:", if (is.na(info$python)) "not started" else
    paste0(info$python, " (", info$python_version, ")"))
  field("  chosen by:", info$chosen_by)
  field("pycg module:", if (is.na(info$pycg_version)) "not available" else
    paste0(info$pycg_version, " at ", info$pycg_path))
  field("backend:", na(info$backend, "-"))
  field("TensorFlow:", na(info$tensorflow))
  field("NumPy:", na(info$numpy))
  field("bundled sources:", na(info$bundled_sources, "none"))
  field("install_pycg():", if (is.na(info$recorded)) "no environment recorded"
        else paste("recorded", info$recorded))
  if (length(info$problems)) {
    cat("\nWhat is wrong, and the next step:\n")
    for (problem in info$problems)
      cat(strwrap(problem, width = 76, prefix = "  ", initial = "* "),
          sep = "\n")
    cat(strwrap(troubleshooting, width = 78), sep = "\n")
  } else {
    cat("\nAll set: the Python pycg matches this R package.\n")
  }
}
