# The nn wrappers (R/ops-nn.R) against R's arithmetic, with 1-based axes.

m <- matrix(c(1, 5, 3, 2, 4, 6, 0.5, -1, 7), 3, 3)

test_each_backend("activations with axes match R", {
  x <- tensor(m)
  sm <- exp(m) / rowSums(exp(m))
  expect_equal(as.array(op_softmax(x)), sm, tolerance = 1e-12)
  expect_equal(as.array(op_log_softmax(x, axis = 1)),
               log(t(t(exp(m)) / colSums(exp(m)))), tolerance = 1e-12)
  expect_equal(as.numeric(op_gelu(tensor(c(0, 1)), approximate = FALSE)),
               c(0, stats::pnorm(1)), tolerance = 1e-7)
})
