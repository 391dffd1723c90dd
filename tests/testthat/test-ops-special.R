# The special-function wrappers (R/ops-special.R) give pycg.ops' answers
# (base R's functions on tensors: test-special.R).

test_each_backend("the op_ wrappers give pycg.ops' answers", {
  x <- tensor(c(0.5, 1, 4))
  expect_equal(as.numeric(op_lgamma(x)), lgamma(c(0.5, 1, 4)))
  expect_equal(as.numeric(op_digamma(x)), digamma(c(0.5, 1, 4)))
  expect_equal(as.numeric(op_polygamma(2, x)), psigamma(c(0.5, 1, 4), 2))
  expect_equal(as.numeric(op_gamma(x)), gamma(c(0.5, 1, 4)))
  expect_equal(as.numeric(op_beta(x, 2)), beta(c(0.5, 1, 4), 2))
  expect_equal(as.numeric(op_lbeta(2, x)), lbeta(2, c(0.5, 1, 4)))
  expect_equal(as.numeric(op_choose(x + 5, 2)), choose(c(5.5, 6, 9), 2))
  expect_equal(as.numeric(op_lchoose(x + 5, 2)), lchoose(c(5.5, 6, 9), 2))
  # pycg.ops' answers where base R's differ: gamma(0) is Inf (SciPy's)
  expect_equal(as.numeric(op_gamma(tensor(c(0, -0)))), c(Inf, -Inf))
  expect_error(op_polygamma(-1, x), "op_polygamma")
})
