# reticulate puts R's working directory first on Python's module path: a
# tensorflow.py (numpy.py, jax.py, keras.py, ...) planted there must never
# run, and pycg must keep its real backend (the planted tensorflow.py ran
# at the first op, which then fell back to numpy in silence).

test_that("modules planted in the working directory never run from R", {
  skip_if_no_pycg()
  cwd <- normalizePath(tempfile("planted"), mustWork = FALSE)
  ran <- file.path(cwd, "ran")
  dir.create(ran, recursive = TRUE)
  on.exit(unlink(cwd, recursive = TRUE))
  planted <- c("tensorflow", "jax", "jaxlib", "keras", "numpy", "ml_dtypes",
               "scipy", "absl", "google", "h5py", "opt_einsum", "wrapt",
               "ctypes", "json", "collections", "typing_extensions")
  for (name in planted)
    writeLines(c("import os",
                 sprintf("open(os.path.join('%s', '%s'), 'w').close()", ran,
                         name),
                 sprintf("raise ImportError('a planted %s.py ran')", name)),
               file.path(cwd, paste0(name, ".py")))
  has_jax <- reticulate::py_module_available("jax")
  res <- run_r(c(
    paste0("setwd('", cwd, "')"),
    "suppressMessages(library(pycg))",
    "x <- op_exp(op_convert_to_tensor(c(0, 1), dtype = 'float32'))",
    "cat('backend:', config_backend(), '\\n')",
    "cat('values:', as.numeric(x), '\\n')",
    if (has_jax) c(
      "config_set_backend('jax')",
      "one <- op_convert_to_tensor(1, dtype = 'float32')",
      "cat('jax:', as.numeric(op_add(one, one)), '\\n')",
      "config_set_backend('tensorflow')")),
    env = paste0("PYCG_PYTHON=", reticulate::py_exe()))
  expect_identical(list.files(ran), character(0), info = res$output)
  expect_match(res$output, "backend: tensorflow")
  expect_match(res$output, sprintf("values: 1 %s", format(exp(1), digits = 7)))
  if (has_jax) expect_match(res$output, "jax: 2")
})

test_that("a planted module R imported before pycg is refused by name", {
  skip_if_no_pycg()
  cwd <- normalizePath(tempfile("planted"), mustWork = FALSE)
  dir.create(cwd)
  on.exit(unlink(cwd, recursive = TRUE))
  writeLines("VALUE = 1", file.path(cwd, "tensorflow.py"))
  res <- run_r(c(
    paste0("setwd('", cwd, "')"),
    "suppressMessages(library(pycg))",
    "Sys.setenv(RETICULATE_PYTHON = Sys.getenv('PYCG_PYTHON'))",
    "invisible(reticulate::import('tensorflow'))",
    "res <- tryCatch(op_add(1, 2), error = function(e) conditionMessage(e))",
    "cat('got:', res, '\\n')"),
    env = paste0("PYCG_PYTHON=", reticulate::py_exe()))
  expect_match(res$output, paste0(
    "the module 'tensorflow' was imported from the working directory \\(",
    cwd, "/tensorflow\\.py\\), not from where it is installed; pycg never ",
    "uses modules from the working directory"), info = res$output)
})
