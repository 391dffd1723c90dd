# The R package's ops as a whole: an op_<name> for every pycg.ops name, one
# version, Python's errors as R conditions. Each op's own tests are in
# test-ops-<page>.R beside R/ops-<page>.R.

test_that("there is an op_<name> for every name in pycg.ops.__all__", {
  skip_if_no_pycg()
  py_names <- pycg:::op_names()
  exported <- sub("^op_", "", grep("^op_", getNamespaceExports("pycg"),
                                   value = TRUE))
  expect_setequal(setdiff(exported, c("custom_gradient", "custom_jvp")),
                  py_names)
})

test_that("the R and Python packages have the same version", {
  skip_if_no_pycg()
  py_version <- reticulate::import("pycg")$`__version__`
  expect_identical(py_version, as.character(utils::packageVersion("pycg")))
})

test_each_backend("a Python error reaches R with the Python message only", {
  err <- expect_error(op_add(tensor(c(1, 2)), tensor(c(1, 2, 3))),
                      class = "pycg_python_error")
  expect_false(grepl("Traceback", conditionMessage(err)))
  expect_lt(length(strsplit(conditionMessage(err), "\n")[[1]]), 4L)
  old <- options(pycg.traceback = TRUE)
  on.exit(options(old))
  err <- expect_error(op_add(tensor(c(1, 2)), tensor(c(1, 2, 3))))
  expect_match(conditionMessage(err), "Python traceback")
})
