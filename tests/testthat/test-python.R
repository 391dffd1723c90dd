test_that("loading the package does not start Python", {
  res <- run_r(c(
    "library(pycg)",
    "cat('started:', reticulate::py_available(FALSE), '\\n')"))
  expect_match(res$output, "started: FALSE")
})

test_that("the first use starts Python and finds pycg", {
  skip_if_no_pycg()
  res <- run_r(c(
    "suppressMessages(library(pycg))",
    "x <- op_add(1, 2)",
    "cat('started:', reticulate::py_available(FALSE), as.numeric(x), '\\n')"),
    env = paste0("PYCG_PYTHON=", reticulate::py_exe()))
  expect_match(res$output, "started: TRUE 3")
})

test_that("a missing PYCG_PYTHON says how to fix it", {
  res <- run_r(c("suppressMessages(library(pycg))", "op_exp(1)"),
               env = "PYCG_PYTHON=/nonexistent/bin/python")
  expect_false(identical(res$status, 0L))
  expect_match(res$output, "`PYCG_PYTHON` is set to /nonexistent/bin/python")
  expect_match(res$output, "install_pycg()", fixed = TRUE)
})

test_that("a Python without pycg says how to fix it", {
  python <- "/usr/bin/python3"
  skip_if(!file.exists(python), "no system python3")
  skip_if(system2(python, c("-c", shQuote("import pycg")),
                  stdout = FALSE, stderr = FALSE) == 0L,
          "the system python3 has pycg")
  cwd <- tempfile()
  dir.create(cwd)
  res <- run_r(c(paste0("setwd('", cwd, "')"),
                 "suppressMessages(library(pycg))", "op_exp(1)"),
               env = paste0("PYCG_PYTHON=", python))
  expect_false(identical(res$status, 0L))
  expect_match(res$output, "pycg needs a Python with the `pycg` module")
  # reticulate may stop earlier, at numpy, on a bare system Python
  expect_match(res$output, "No module named '(pycg|numpy)'")
  expect_match(res$output, "PYCG_PYTHON")
})

test_that("a development .venv beside a pycg source tree is found", {
  root <- tempfile()
  dir.create(file.path(root, "pycg"), recursive = TRUE)
  dir.create(file.path(root, ".venv", "bin"), recursive = TRUE)
  dir.create(file.path(root, "sub", "dir"), recursive = TRUE)
  file.create(file.path(root, "pycg", "__init__.py"))
  file.create(file.path(root, ".venv", "bin", "python"))
  withr_env <- Sys.getenv(c("RETICULATE_PYTHON", "PYCG_PYTHON"), unset = NA)
  Sys.unsetenv(c("RETICULATE_PYTHON", "PYCG_PYTHON"))
  on.exit(for (n in names(withr_env)) if (!is.na(withr_env[[n]]))
    do.call(Sys.setenv, as.list(withr_env[n])))
  where <- pycg:::python_location(file.path(root, "sub", "dir"))
  expect_identical(where$python, file.path(normalizePath(root), ".venv",
                                           "bin", "python"))
  expect_identical(where$root, normalizePath(root))
  expect_null(pycg:::python_location(tempdir())$python)
})

test_that("install_pycg() takes an environment and a source tree", {
  expect_named(formals(install_pycg),
               c("envname", "source", "tensorflow", "..."))
})

test_that("install_pycg() installs a source tree by path, never `pycg`", {
  src <- tempfile()
  dir.create(src)
  file.create(file.path(src, "pyproject.toml"))
  reqs <- pycg:::pip_requirements(src, tensorflow = TRUE)
  expect_identical(reqs, c(normalizePath(src), "tensorflow-cpu"))
  expect_identical(pycg:::pip_requirements(src, tensorflow = FALSE),
                   normalizePath(src))
})

test_that("install_pycg() refuses a source that is not a pycg tree", {
  expect_error(pycg:::pip_requirements(file.path(tempdir(), "nope")),
               "`source` must be a pycg source tree or wheel; got .*nope, ")
  expect_error(pycg:::pip_requirements(tempdir()), "has no pyproject.toml")
})

test_that("without sources, install_pycg() prints the pip command", {
  hint <- pycg:::install_hint()
  expect_match(hint, "python -m pip install \"pycg-autodiff[tensorflow-cpu]",
               fixed = TRUE)
  expect_match(hint, "do not pip install `pycg`", fixed = TRUE)
  if (is.null(pycg:::bundled_python_source()))
    expect_message(install_pycg(), "pycg-autodiff", fixed = TRUE)
})

test_that("pycg_available() says whether Python and pycg can be used", {
  res <- run_r(c("suppressMessages(library(pycg))", "cat(pycg_available())"),
               env = "PYCG_PYTHON=/nonexistent/bin/python")
  expect_match(res$output, "FALSE")
  skip_if_no_pycg()
  expect_true(pycg_available())
})

test_that("a pycg/ folder in the working directory does not shadow pycg", {
  skip_if_no_pycg()
  cwd <- tempfile()
  dir.create(file.path(cwd, "pycg"), recursive = TRUE)
  writeLines("raise ImportError('the shadow was imported')",
             file.path(cwd, "pycg", "__init__.py"))
  res <- run_r(c(paste0("setwd('", cwd, "')"),
                 "suppressMessages(library(pycg))",
                 "cat('sum:', as.numeric(op_add(1, 2)), '\\n')",
                 "pycg <- reticulate::import('pycg')",
                 "cat('file:', pycg$`__file__`, '\\n')",
                 "cat('path0: [', reticulate::import('sys')$path[[1]], ']')"),
               env = paste0("RETICULATE_PYTHON=", reticulate::py_exe()))
  expect_match(res$output, "sum: 3")
  file <- regmatches(res$output, regexpr("file: [^ \n]+", res$output))
  expect_length(file, 1L)
  expect_false(startsWith(sub("file: ", "", file), normalizePath(cwd)))
  expect_match(res$output, "path0: [  ]", fixed = TRUE)  # sys.path restored
})

test_that("a pycg/ folder without pycg installed is named, not imported", {
  python <- "/usr/bin/python3"
  skip_if(!file.exists(python), "no system python3")
  skip_if(system2(python, c("-c", shQuote("import numpy, pycg")),
                  stdout = FALSE, stderr = FALSE) == 0L,
          "the system python3 has pycg")
  cwd <- tempfile()
  dir.create(file.path(cwd, "pycg"), recursive = TRUE)
  res <- run_r(c(paste0("setwd('", cwd, "')"),
                 "suppressMessages(library(pycg))", "op_exp(1)"),
               env = c(paste0("RETICULATE_PYTHON=", python), "PYTHONPATH="))
  expect_match(res$output, "`import pycg` found .*which is not the pycg module")
})

test_that("Python started before pycg without pycg: restart R", {
  skip_if_no_pycg()
  python <- "/usr/bin/python3"
  skip_if(!file.exists(python), "no system python3")
  skip_if(system2(python, c("-c", shQuote("import pycg")),
                  stdout = FALSE, stderr = FALSE) == 0L,
          "the system python3 has pycg")
  cwd <- tempfile()
  dir.create(cwd)
  res <- run_r(c(paste0("setwd('", cwd, "')"),
                 "suppressMessages(library(pycg))",
                 "Sys.unsetenv('RETICULATE_PYTHON')",
                 paste0("reticulate::use_python('", python, "', TRUE)"),
                 "invisible(reticulate::py_config())",
                 "op_exp(1)"),
               env = paste0("PYCG_PYTHON=", reticulate::py_exe()))
  expect_false(identical(res$status, 0L))
  expect_match(res$output,
               paste0("R has already started Python ", python,
                      ", which cannot import pycg; restart R."),
               fixed = TRUE)
  expect_match(res$output, paste("pycg would have used",
                                 reticulate::py_exe()), fixed = TRUE)
})

test_that("install_pycg()'s r-pycg virtualenv is found without settings", {
  home <- tempfile()
  venv <- file.path(home, "r-pycg")
  dir.create(file.path(venv, "bin"), recursive = TRUE)
  file.create(file.path(venv, "pyvenv.cfg"))
  file.create(file.path(venv, "bin", c("python", "activate")))
  old <- Sys.getenv(c("WORKON_HOME", "RETICULATE_PYTHON"), unset = NA)
  on.exit(for (n in names(old)) if (is.na(old[[n]])) Sys.unsetenv(n) else
    do.call(Sys.setenv, as.list(old[n])))
  Sys.setenv(WORKON_HOME = home)
  Sys.unsetenv("RETICULATE_PYTHON")
  expect_identical(normalizePath(pycg:::installed_python()),
                   normalizePath(file.path(venv, "bin", "python")))
  Sys.setenv(RETICULATE_PYTHON = "/some/python")
  expect_null(pycg:::installed_python())
})

test_that("install_pycg() runs pip without R's LD_LIBRARY_PATH", {
  src <- tempfile()
  dir.create(src)
  file.create(file.path(src, "pyproject.toml"))
  res <- run_r(c(
    "Sys.setenv(LD_LIBRARY_PATH = '/usr/lib/R/lib')",
    "utils::assignInNamespace('virtualenv_exists', function(...) TRUE,",
    "                         'reticulate')",
    "utils::assignInNamespace('py_install', function(packages, ...)",
    "  cat('pip sees [', Sys.getenv('LD_LIBRARY_PATH'), ']\\n'), 'reticulate')",
    paste0("suppressMessages(pycg::install_pycg(source = '", src, "'))"),
    "cat('afterwards [', Sys.getenv('LD_LIBRARY_PATH'), ']\\n')"))
  expect_match(res$output, "pip sees [  ]", fixed = TRUE)
  expect_match(res$output, "afterwards [ /usr/lib/R/lib ]", fixed = TRUE)
})

test_that("R's LD_LIBRARY_PATH is what breaks ssl in a Python started from R", {
  python <- Sys.which("python3")
  skip_if(!nzchar(python), "no python3 on PATH")
  ssl <- function() system2(python, c("-c", shQuote("import ssl")),
                            stdout = FALSE, stderr = FALSE)
  skip_if(ssl() == 0L, "this python3 imports ssl under R's LD_LIBRARY_PATH")
  expect_identical(pycg:::with_clean_library_path(ssl()), 0L)
})
