# The update and segment wrappers (R/ops-updates.R, and unravel_index of
# R/ops-constructors.R) with 1-based positions.

m <- matrix(c(3, 1, 2, 5, 4, 6, 0.5, 7), 2)

test_each_backend("scatter and segments take 1-based positions", {
  expect_equal(as.numeric(op_scatter(matrix(c(1, 3), ncol = 1), c(5, 7), 4)),
               c(5, 0, 7, 0))
  expect_equal(as.numeric(op_segment_sum(c(1, 2, 3), c(1, 1, 2))), c(3, 3))
  expect_equal(op_convert_to_numpy(op_slice_update(tensor(m), c(2, 3),
                                                   tensor(matrix(9, 1, 2)))),
               replace(m, cbind(c(2, 2), c(3, 4)), 9))
  pos <- op_unravel_index(c(2L, 6L), c(2, 3))
  expect_identical(lapply(pos, as.integer), list(c(1L, 2L), c(2L, 3L)))
})
