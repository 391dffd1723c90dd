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

test_that("pycg_function takes 1-based class labels held in a tensor", {
  skip_if_no_pycg()
  old <- config_backend()
  on.exit(config_set_backend(old))
  config_set_backend("tensorflow")
  logits <- matrix(c(1, 0, -1, 2, 0.5, 0), 2, 3)
  labels <- c(3L, 1L)
  # mean of -log(softmax(logits)[i, labels[i]]), in base R
  p <- exp(logits) / rowSums(exp(logits))
  expected <- mean(-log(p[cbind(1:2, labels)]))
  y <- op_convert_to_tensor(labels)
  loss <- pycg_function(function(z) op_mean(
    op_sparse_categorical_crossentropy(y, z, from_logits = TRUE)))
  expect_equal(as.numeric(loss(op_convert_to_tensor(logits))), expected,
               tolerance = 1e-12)
  # a label below 1 is still refused where its value is known
  expect_error(op_sparse_categorical_crossentropy(
    op_convert_to_tensor(c(0L, 1L)), logits, from_logits = TRUE),
    "holds 0: positions are 1-based")
})

test_that("pycg_function keeps an R number's weak type and traces per value", {
  skip_if_no_pycg()
  old <- config_backend()
  on.exit(config_set_backend(old))
  config_set_backend("tensorflow")
  scale <- pycg_function(function(x, s) x * s)
  x <- op_convert_to_tensor(c(1.5, 3), dtype = "float16")
  got <- scale(x, 0.5)
  expect_equal(op_dtype(got), "float16")   # (a float32 tensor gave float32)
  expect_equal(as.numeric(got), c(0.75, 1.5))
  expect_equal(as.numeric(scale(x, 2)), c(3, 6))
  expect_equal(attr(scale, "trace_count")(), 2L)
  expect_warning(for (s in c(3, 4)) scale(x, s), regexp = NA)
  expect_warning(scale(x, 5), paste0(
    "pycg_function\\(R function\\(x, s\\)\\) has traced for 5 values of an ",
    "R number argument; an R number is a constant of the trace .* pass a ",
    "value that changes as a tensor \\(op_convert_to_tensor\\(value\\)\\)"))
  expect_equal(attr(scale, "trace_count")(), 5L)
})
