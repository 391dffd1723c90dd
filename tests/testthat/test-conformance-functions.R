# Every method pycg defines for tensors (read from its NAMESPACE and methods
# tables) and the base functions R users apply to arrays, against base R
# on the same data (the harness is helper-conformance.R).

test_that("the suite reads pycg's methods for tensors from the package", {
  found <- conformance_methods()
  expect_true(all(c("Ops", "Math", "Summary", "[", "[<-", "diag", "pmax",
                    "rowSums", "median") %in% found))
  families <- conformance_families()
  not_base <- c("$", "compare_proxy", "py_to_r", "r_to_py")
  expect_true(all(setdiff(found, c("Ops", "Math", "Summary", "Complex",
                                   not_base)) %in% unlist(families)))
})

test_conformance("methods for tensors", function()
  family_cases(conformance_families()$methods, conformance_inputs(),
               conformance_partners()[c("dbl1", "dbl2", "dbl3", "int2",
                                        "mat2x3", "lgl1")]),
  budget = 500L)

test_conformance("everyday base R functions", function()
  family_cases(conformance_families()$everyday, conformance_inputs(),
               conformance_partners()[c("dbl1", "dbl2", "dbl3", "int2",
                                        "mat2x3", "mat2x2")]),
  budget = 500L)

test_conformance("methods and everyday functions, gradients", function()
  gradient_cases(c("sd", "var", "solve", "det", "scale", "outer", "%*%",
                   "crossprod", "tcrossprod", "kronecker", "backsolve",
                   "apply", "diff", "median", "mean", "rowSums", "colSums",
                   "rowMeans", "colMeans", "t", "aperm", "diag", "pmax",
                   "pmin", "cumsum", "cumprod", "rev", "sort", "c", "[",
                   "[<-", "norm", "chol", "ifelse")),
  kind = "grad", budget = 200L)
