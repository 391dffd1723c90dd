# The sorting wrappers (R/ops-sorting.R) against sort(), order() and
# quantile(), with R's 1-based positions.

m <- matrix(c(3, 1, 2, 5, 4, 6, 0.5, 7), 2)

v <- c(2.5, -1, 4, 0.25, 3)

test_each_backend("sorting ops match sort(), order() and quantile()", {
  expect_equal(as.numeric(op_sort(tensor(v))), sort(v))
  expect_identical(as.integer(op_argsort(tensor(v))), order(v))
  expect_identical(as.integer(op_argsort(tensor(m), axis = 1)),
                   as.integer(apply(m, 2, order)))
  expect_equal(as.numeric(op_median(tensor(v))), median(v))
  expect_equal(as.numeric(op_quantile(tensor(v), c(0.1, 0.6))),
               unname(quantile(v, c(0.1, 0.6), type = 7)))
  top <- op_top_k(tensor(v), 2L)
  expect_equal(as.numeric(top[[1]]), sort(v, decreasing = TRUE)[1:2])
  expect_identical(as.integer(top[[2]]), order(v, decreasing = TRUE)[1:2])
  expect_identical(as.integer(op_searchsorted(sort(v), c(0, 3),
                                              side = "right")),
                   findInterval(c(0, 3), sort(v)) + 1L)
})
