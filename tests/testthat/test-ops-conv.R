# The convolution and pooling wrappers (R/ops-conv.R, and moments of
# R/ops-normalization.R) with 1-based axes and R layouts.

test_each_backend("moments and conv use 1-based axes and R layouts", {
  x <- matrix(c(1, 2, 3, 5), 2)
  m <- op_moments(tensor(x), 2)
  expect_equal(as.numeric(m[[1]]), rowMeans(x))
  expect_equal(as.numeric(m[[2]]), c(1, 2.25))
  xi <- tensor(array(1:6, c(1, 6, 1)))
  expect_equal(as.numeric(op_conv(xi, tensor(array(c(1, -1), c(2, 1, 1))))),
               rep(-1, 5))
  expect_equal(as.numeric(op_average_pool(xi, 2)), c(1.5, 3.5, 5.5))
})
