# The creation wrappers (R/ops-creation.R): shapes and fills as R makes them.

m <- matrix(c(1, 5, 3, 2, 4, 6, 0.5, -1, 7), 3, 3)

test_each_backend("creation ops make tensors of the given shape", {
  expect_equal(as.array(op_zeros(c(2, 3))), matrix(0, 2, 3))
  expect_equal(as.array(op_ones(c(2, 2), dtype = "float64")), matrix(1, 2, 2))
  expect_equal(as.array(op_full(c(2, 2), 7)), matrix(7, 2, 2))
  expect_equal(as.array(op_eye(3)), diag(3))
  expect_equal(as.array(op_eye(2, 3, k = 1)), rbind(c(0, 1, 0), c(0, 0, 1)))
  expect_equal(as.numeric(op_arange(0, 1, 0.25)), c(0, 0.25, 0.5, 0.75))
  expect_equal(as.numeric(op_linspace(0, 1, num = 5)), seq(0, 1, by = 0.25))
  expect_equal(as.numeric(op_linspace(0, 1, num = 4, endpoint = FALSE)),
               c(0, 0.25, 0.5, 0.75))
  x <- tensor(m)
  expect_equal(as.array(op_zeros_like(x)), m * 0)
  expect_equal(as.array(op_ones_like(x)), m * 0 + 1)
  expect_equal(as.array(op_full_like(x, 2)), m * 0 + 2)
})
