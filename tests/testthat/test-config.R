# pycg_config(): the situation report.

test_that("pycg_config() without a Python says so and names the next step", {
  res <- run_r(c("suppressMessages(library(pycg))",
                 "info <- pycg_config()",
                 "cat('pycg:', info$pycg_version, 'problems:',",
                 "    length(info$problems), '\\n')"),
               env = "RETICULATE_PYTHON=/nonexistent/bin/python")
  expect_identical(res$status, 0L)
  expect_match(res$output, "pycg module:      not available", fixed = TRUE)
  expect_match(res$output, "/nonexistent/bin/python")
  expect_match(res$output, "install_pycg()", fixed = TRUE)
  expect_match(res$output, "pycg: NA problems: 2")
})

test_that("pycg_config() reports the Python, pycg and the backend in use", {
  skip_if_no_pycg()
  out <- capture.output(info <- pycg_config())
  expect_identical(info$python, reticulate::py_config()$python)
  expect_identical(info$pycg_version,
                   as.character(utils::packageVersion("pycg")))
  expect_true(info$versions_match)
  pycg <- reticulate::import("pycg")
  expect_identical(info$pycg_path, dirname(pycg$`__file__`))
  expect_identical(info$backend, config_backend())
  expect_identical(info$numpy, reticulate::import("numpy")$`__version__`)
  expect_identical(info$problems, character())
  expect_true(any(grepl(paste0("^Python: +", info$python, " \\("), out)))
  expect_true(any(grepl("All set", out)))
})

test_that("a version mismatch says to install the matching pycg", {
  info <- list(r_package = "0.2.0", pycg_version = "0.1.0",
               versions_match = FALSE, python = "/env/bin/python",
               tensorflow = "2.21.0", bundled_sources = "/lib/pycg/python",
               error = NULL)
  problems <- pycg:::config_problems(info)
  expect_length(problems, 1L)
  expect_match(problems, "The Python pycg is 0.1.0 but this R package is 0.2.0",
               fixed = TRUE)
  expect_match(problems, "install_pycg()` (it installs pycg 0.2.0", fixed = TRUE)
  expect_match(problems, "envname = \"/env\"", fixed = TRUE)
})

test_that("a Python without TensorFlow is told the numpy backend only works", {
  info <- list(r_package = "0.1.0", pycg_version = "0.1.0",
               versions_match = TRUE, python = "/env/bin/python",
               tensorflow = NA_character_, bundled_sources = NA_character_,
               error = NULL)
  expect_match(pycg:::config_problems(info),
               "only the numpy backend works", fixed = TRUE)
})

test_that("config_set_backend names the four backends when given no name", {
  skip_if_no_pycg()
  expect_error(config_set_backend(3), paste0(
    "config_set_backend: `name` must be \"tensorflow\", \"numpy\", ",
    "\"jax\" or \"torch\", not "), fixed = TRUE)
  expect_error(config_set_backend(c("jax", "numpy")), "\"jax\"", fixed = TRUE)
})

test_that("the torch backend is selectable from R and computes there", {
  skip_if_no_pycg()
  skip_if_not(reticulate::py_module_available("torch"), "no PyTorch")
  old <- config_backend()
  on.exit(config_set_backend(old))
  config_set_backend("torch")
  expect_identical(config_backend(), "torch")
  x <- op_convert_to_tensor(c(0.5, 2))
  expect_identical(class(reticulate::py_get_attr(x, "_value"))[1],
                   "torch.Tensor")
  expect_equal(as.numeric(op_exp(x) * 2), exp(c(0.5, 2)) * 2)
  slope <- pycg_grad(function(x) op_sum(op_sin(x) * x))(x)
  expect_equal(as.numeric(slope), sin(c(0.5, 2)) + c(0.5, 2) * cos(c(0.5, 2)))
})
