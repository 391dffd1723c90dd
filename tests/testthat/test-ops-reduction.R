# The reduction wrappers (R/ops-reduction.R) against R's, over 1-based axes.

m <- matrix(c(1, 5, 3, 2, 4, 6, 0.5, -1, 7), 3, 3)

test_each_backend("reductions follow R over 1-based axes", {
  x <- tensor(m)
  expect_equal(as.numeric(op_sum(x)), sum(m))
  expect_equal(as.numeric(op_mean(x, axis = 1)), colMeans(m))
  expect_equal(as.numeric(op_prod(x, axis = 2)), apply(m, 1, prod))
  expect_equal(as.numeric(op_max(x, axis = 1)), apply(m, 2, max))
  expect_equal(as.numeric(op_min(x, axis = 2)), apply(m, 1, min))
  expect_equal(as.numeric(op_var(x, axis = 1)),
               apply(m, 2, function(c) mean((c - mean(c))^2)))
  expect_equal(as.numeric(op_std(x)), sqrt(mean((m - mean(m))^2)))
  expect_equal(dim(op_sum(x, axis = 1, keepdims = TRUE)), c(1L, 3L))
  expect_equal(as.numeric(op_cumsum(x, axis = 1)),
               as.numeric(apply(m, 2, cumsum)))
  expect_equal(as.numeric(op_logsumexp(x, axis = 2)),
               log(rowSums(exp(m))), tolerance = 1e-12)
})

test_each_backend("argmax and argmin return 1-based positions", {
  x <- tensor(m)
  expect_identical(as.integer(op_argmax(x, axis = 1)),
                   apply(m, 2, which.max))
  expect_identical(as.integer(op_argmin(x, axis = 2)),
                   apply(m, 1, which.min))
  expect_identical(as.integer(op_argmax(tensor(c(3, 9, 1)))), 2L)
})
