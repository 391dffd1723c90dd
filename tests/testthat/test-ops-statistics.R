# The statistics wrappers (R/ops-statistics.R) against R's with na.rm.

v <- c(2.5, -1, 4, 0.25, 3)

test_each_backend("reductions match R's with na.rm and cumprod()", {
  w <- c(1, NaN, 3, 4)
  expect_equal(as.numeric(op_nanmean(tensor(w))), mean(w, na.rm = TRUE))
  expect_equal(as.numeric(op_nansum(tensor(w))), sum(w, na.rm = TRUE))
  expect_identical(as.integer(op_nanargmax(tensor(w))), 4L)
  expect_equal(as.numeric(op_cumprod(tensor(v))), cumprod(v))
  expect_equal(as.numeric(op_diff(tensor(v))), diff(v))
  expect_equal(as.numeric(op_ptp(tensor(v))), diff(range(v)))
})
