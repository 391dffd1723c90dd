test_that("pycg_function compiles an R function with an R custom gradient", {
  skip_if_no_pycg()
  old <- config_backend()
  on.exit(config_set_backend(old))
  config_set_backend("tensorflow")
  log1pexp <- op_custom_gradient(function(x) {
    e <- op_exp(x)
    tuple(op_log(1 + e), function(upstream) upstream * (1 - 1 / (1 + e)))
  })
  slope <- pycg_function(pycg_grad(function(x) op_sum(log1pexp(x))))
  x <- c(-1, 0, 30)
  expect_equal(as.numeric(slope(op_convert_to_tensor(x))), 1 / (1 + exp(-x)),
               tolerance = 1e-6)
  expect_equal(as.numeric(slope(op_convert_to_tensor(c(2, 3, 4)))),
               1 / (1 + exp(-c(2, 3, 4))), tolerance = 1e-6)
  expect_equal(attr(slope, "trace_count")(), 1L)
})

test_that("pycg_function refuses R control flow on a traced tensor", {
  skip_if_no_pycg()
  old <- config_backend()
  on.exit(config_set_backend(old))
  config_set_backend("tensorflow")
  branchy <- pycg_function(function(x) if (as.numeric(x) > 0) x else -x)
  expect_error(branchy(op_convert_to_tensor(1)), "symbolic")
})
