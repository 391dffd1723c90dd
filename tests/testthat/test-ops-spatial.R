# The spatial wrappers (R/ops-spatial.R).

test_each_backend("unfold and fold are each other's transpose", {
  x <- tensor(array(1:16, c(1, 1, 4, 4)))
  cols <- op_unfold(x, 2, stride = 2)
  expect_equal(op_shape(cols), c(1L, 4L, 4L))
  expect_equal(op_convert_to_numpy(op_fold(cols, 4, 2, stride = 2)),
               op_convert_to_numpy(x))
  expect_equal(as.numeric(op_adaptive_max_pool(x, c(1, 1),
                                               data_format = "channels_first")),
               16)
})
