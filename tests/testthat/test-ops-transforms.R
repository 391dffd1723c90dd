# The function transforms (R/ops-transforms.R, vectorize's face kept by hand)
# taking R functions.

v <- c(2.5, -1, 4, 0.25, 3)

test_each_backend("op_jvp and op_vectorize take R functions", {
  out <- op_jvp(function(a) op_sin(a) * 2, list(tensor(0.5)), list(tensor(3)))
  expect_equal(as.numeric(out[[2]]), cos(0.5) * 2 * 3)
  f <- op_vectorize(function(a, b) a * b + 1)
  expect_equal(as.numeric(f(tensor(v), tensor(2))), v * 2 + 1)
})
