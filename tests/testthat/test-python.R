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

# Runs `code` with the Python settings a user without any has: no
# RETICULATE_PYTHON or PYCG_PYTHON, config and virtualenv homes of its own.
without_python_settings <- function(code) {
  names <- c("RETICULATE_PYTHON", "PYCG_PYTHON", "R_USER_CONFIG_DIR",
             "WORKON_HOME")
  old <- Sys.getenv(names, unset = NA)
  on.exit(for (n in names) if (is.na(old[[n]])) Sys.unsetenv(n) else
    do.call(Sys.setenv, as.list(old[n])))
  Sys.unsetenv(c("RETICULATE_PYTHON", "PYCG_PYTHON"))
  Sys.setenv(R_USER_CONFIG_DIR = tempfile(), WORKON_HOME = tempfile())
  code
}

fake_venv <- function(venv) {
  dir.create(file.path(venv, "bin"), recursive = TRUE)
  file.create(file.path(venv, "pyvenv.cfg"))
  file.create(file.path(venv, "bin", "python"))
  normalizePath(file.path(venv, "bin", "python"))
}

test_that("the virtual environment this package is installed into is used", {
  root <- tempfile()
  dir.create(file.path(root, "pycg"), recursive = TRUE)
  file.create(file.path(root, "pycg", "__init__.py"))
  python <- fake_venv(file.path(root, ".venv"))
  library <- file.path(root, ".venv", "lib", "R", "pycg")
  without_python_settings({
    where <- pycg:::python_location(library)
    expect_identical(normalizePath(where$python), python)
    expect_identical(where$root, normalizePath(root))
    expect_match(where$chosen_by, "installed into")
    # the same tree, the package installed elsewhere: not used
    other <- pycg:::python_location(file.path(tempfile(), "lib", "pycg"))
    expect_null(other$python)
  })
})

test_that("a .venv and pycg/ planted above the working directory are not used", {
  evil <- normalizePath(tempfile("evil"), mustWork = FALSE)
  cwd <- file.path(evil, "a", "b")
  dir.create(cwd, recursive = TRUE)
  dir.create(file.path(evil, "pycg"))
  dir.create(file.path(evil, ".venv", "bin"), recursive = TRUE)
  dir.create(file.path(evil, "bin"))
  mark <- function(what) paste0("open('", file.path(evil, what),
                                "', 'w').write('x')")
  writeLines(mark("IMPORTED"), file.path(evil, "pycg", "__init__.py"))
  file.create(file.path(evil, ".venv", "pyvenv.cfg"))
  file.create(file.path(evil, ".here"))  # here::here() stops here
  writeLines(c("[tool.poetry]", "name = 'evil'"),
             file.path(evil, "pyproject.toml"))
  file.create(file.path(evil, "Pipfile"))
  # the planted Python, and Poetry and Pipenv that would name its folder
  for (exe in c(file.path(".venv", "bin", "python"), "bin/poetry",
                "bin/pipenv")) {
    writeLines(c("#!/bin/sh", paste0("touch ", evil, "/RAN"),
                 paste0("echo ", evil, "/.venv")), file.path(evil, exe))
    Sys.chmod(file.path(evil, exe), "755")
  }
  # the package from a library that is no virtual environment's
  lib <- tempfile("lib")
  dir.create(lib)
  # (a copy: a link would resolve to the library it points into, which
  # under make test is .venv/lib/R, a virtual environment's)
  file.copy(system.file(package = "pycg"), lib, recursive = TRUE)
  res <- run_r(c(
    "Sys.unsetenv(c('RETICULATE_PYTHON', 'PYCG_PYTHON'))",
    paste0("Sys.setenv(PATH = paste0('", evil, "/bin:', Sys.getenv('PATH')),",
           " R_USER_CONFIG_DIR = tempfile(), WORKON_HOME = tempfile())"),
    paste0("setwd('", cwd, "')"),
    "suppressMessages(library(pycg))",
    "cat('location: [', pycg:::python_location()$python, ']\\n')",
    "invisible(try(op_add(1, 2), silent = TRUE))",
    "if (reticulate::py_available(FALSE))",
    "  cat('python:', reticulate::py_config()$python, '\\n')"),
    env = paste0("R_LIBS=", paste(c(lib, setdiff(.libPaths(), dirname(
      system.file(package = "pycg")))), collapse = .Platform$path.sep)))
  expect_match(res$output, "location: [ ]", fixed = TRUE)
  expect_false(grepl(evil, res$output, fixed = TRUE), info = res$output)
  expect_false(file.exists(file.path(evil, "RAN")))
  expect_false(file.exists(file.path(evil, "IMPORTED")))
})

test_that("the environment install_pycg() recorded is used after a restart", {
  python <- fake_venv(tempfile("myenv"))
  elsewhere <- file.path(tempfile(), "lib", "pycg")
  without_python_settings({
    pycg:::record_environment("/some/myenv", python)
    where <- pycg:::python_location(elsewhere)
    expect_identical(where$python, python)
    expect_match(where$chosen_by, "install_pycg(envname = \"/some/myenv\")",
                 fixed = TRUE)
    expect_match(pycg:::recorded_line(), paste0("`/some/myenv` (", python,
                                                ")"), fixed = TRUE)
    unlink(python)
    expect_null(pycg:::python_location(elsewhere)$python)
    expect_match(pycg:::recorded_line(), "which no longer exists")
    info <- list(recorded = pycg:::recorded_line(), r_package = "0.1.0",
                 pycg_version = "0.1.0", versions_match = TRUE,
                 tensorflow = "2", bundled_sources = NA_character_)
    expect_match(pycg:::config_problems(info),
                 "recorded the environment `/some/myenv`.*install_pycg",
                 all = FALSE)
  })
})

test_that("install_pycg() records the environment it installed into", {
  src <- tempfile()
  dir.create(src)
  file.create(file.path(src, "pyproject.toml"))
  # (a long path, as R CMD check's temporary folders give: write.dcf
  # folded it onto a second line, which came back with the line break)
  python <- fake_venv(file.path(tempfile("env"), strrep("long-folder", 8)))
  config <- tempfile()
  res <- run_r(c(
    "utils::assignInNamespace('virtualenv_exists', function(...) TRUE,",
    "                         'reticulate')",
    paste0("utils::assignInNamespace('virtualenv_python', function(...) '",
           python, "', 'reticulate')"),
    "utils::assignInNamespace('py_install', function(...) NULL, 'reticulate')",
    paste0("pycg::install_pycg(envname = '/some/env', source = '", src, "')"),
    "cat(readLines(pycg:::recorded_environment_file()), sep = '\\n')",
    "cat('\\nread back: [', pycg:::recorded_environment()$python, ']\\n')"),
    env = paste0("R_USER_CONFIG_DIR=", config))
  expect_match(res$output, paste0("envname: /some/env\npython: ", python),
               fixed = TRUE)
  expect_match(res$output, paste0("read back: [ ", python, " ]"), fixed = TRUE)
  expect_match(res$output, "Later R sessions use it too (recorded in",
               fixed = TRUE)
})

test_that("install_pycg() takes an environment and a source tree", {
  expect_named(formals(install_pycg),
               c("envname", "source", "tensorflow", "jax", "..."))
})

test_that("install_pycg() installs a source tree by path, never `pycg`", {
  src <- tempfile()
  dir.create(src)
  file.create(file.path(src, "pyproject.toml"))
  reqs <- pycg:::pip_requirements(src, tensorflow = TRUE)
  expect_identical(reqs, c(normalizePath(src), "tensorflow-cpu"))
  expect_identical(pycg:::pip_requirements(src, tensorflow = FALSE),
                   normalizePath(src))
  expect_identical(pycg:::pip_requirements(src, jax = TRUE),
                   c(normalizePath(src), "tensorflow-cpu", "jax"))
})

test_that("install_pycg() refuses a source path with quotes", {
  src <- file.path(tempfile(), "it's")
  dir.create(src, recursive = TRUE)
  file.create(file.path(src, "pyproject.toml"))
  expect_error(install_pycg(source = src, envname = tempfile()),
               "`source` must be a path without quotes; got .*it's\\. .*pip")
  expect_error(pycg:::pip_requirements(sub("'", "\"", src)),
               "without quotes")
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
  expect_match(pycg:::install_hint(jax = TRUE),
               "\"pycg-autodiff[tensorflow-cpu,jax] @ file://", fixed = TRUE)
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

test_that("a pycg/ folder is not imported by a Python without pycg", {
  python <- "/usr/bin/python3"
  skip_if(!file.exists(python), "no system python3")
  skip_if(system2(python, c("-c", shQuote("import pycg")),
                  stdout = FALSE, stderr = FALSE) == 0L,
          "the system python3 has pycg")
  cwd <- normalizePath(tempfile(), mustWork = FALSE)
  dir.create(file.path(cwd, "pycg"), recursive = TRUE)
  writeLines(paste0("open('", cwd, "/IMPORTED', 'w').write('x')"),
             file.path(cwd, "pycg", "__init__.py"))
  res <- run_r(c(paste0("setwd('", cwd, "')"),
                 "suppressMessages(library(pycg))", "op_exp(1)"),
               env = c(paste0("RETICULATE_PYTHON=", python), "PYTHONPATH="))
  expect_false(file.exists(file.path(cwd, "IMPORTED")))
  expect_match(res$output, "pycg needs a Python with the `pycg` module")
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
    "cat('afterwards [', Sys.getenv('LD_LIBRARY_PATH'), ']\\n')"),
    env = paste0("R_USER_CONFIG_DIR=", tempfile()))
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

test_that("a name the R package may not call in Python is an R error naming it", {
  skip_if_no_pycg()
  # (pycg.core.recorder.is_recording exists: the table, not the path, says)
  expect_error(pycg:::core_call("core.recorder.is_recording"),
               paste("the R package called 'core.recorder.is_recording',",
                     "which is not among the Python functions it may call",
                     "(pycg/r/entries.py)"), fixed = TRUE)
  expect_false(py_recording())
  expect_identical(pycg:::core_call("config.backend"), config_backend())
})
