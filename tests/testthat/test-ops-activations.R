# The activation wrappers (R/ops-activations.R) against R's own arithmetic.

test_each_backend("activations and losses match R", {
  v <- c(-2.5, -0.5, 0.5, 3)
  expect_equal(as.numeric(op_leaky_relu(tensor(v), 0.1)),
               ifelse(v > 0, v, 0.1 * v), tolerance = 1e-12)
  expect_equal(as.numeric(op_relu6(tensor(v * 3))), pmin(pmax(v * 3, 0), 6))
  expect_equal(as.numeric(op_softsign(tensor(v))), v / (1 + abs(v)),
               tolerance = 1e-12)
  p <- c(0.2, 0.9)
  expect_equal(as.numeric(op_binary_crossentropy(tensor(c(0, 1)), tensor(p))),
               -log(c(0.8, 0.9)), tolerance = 1e-12)
})
