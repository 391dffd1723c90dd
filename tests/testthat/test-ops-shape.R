# The shape wrappers (R/ops-shape.R) with 1-based axes and NumPy's row-major
# order.

m <- matrix(c(1, 5, 3, 2, 4, 6, 0.5, -1, 7), 3, 3)

test_each_backend("shape ops use 1-based axes", {
  x <- tensor(m[1:2, ])
  mm <- m[1:2, ]
  expect_equal(as.array(op_transpose(x)), t(mm))
  expect_equal(as.array(op_concatenate(list(x, x), axis = 2)), cbind(mm, mm))
  expect_equal(as.array(op_concatenate(list(x, x))), rbind(mm, mm))
  expect_equal(dim(op_stack(list(x, x))), c(2L, 2L, 3L))
  expect_equal(dim(op_stack(list(x, x), axis = 3)), c(2L, 3L, 2L))
  expect_equal(dim(op_expand_dims(x, 1)), c(1L, 2L, 3L))
  expect_equal(dim(op_squeeze(op_expand_dims(x, 3), axis = 3)), c(2L, 3L))
  expect_equal(as.array(op_flip(x, axis = 2)), mm[, 3:1])
  expect_equal(as.array(op_swapaxes(x, 1, 2)), t(mm))
  expect_equal(dim(op_broadcast_to(tensor(c(1, 2, 3)), c(4, 3))), c(4L, 3L))
  expect_equal(as.array(op_tile(tensor(c(1, 2)), 2)), array(c(1, 2, 1, 2)))
  expect_equal(as.numeric(op_repeat(tensor(c(1, 2)), 2)), c(1, 1, 2, 2))
  expect_equal(as.array(op_pad(x, rbind(c(1, 0), c(0, 1)))),
               rbind(0, cbind(mm, 0)))
  parts <- op_split(tensor(1:6 + 0), 3)
  expect_length(parts, 3L)
  expect_equal(as.numeric(parts[[2]]), c(3, 4))
})

test_each_backend("reshape and ravel read row-major, like NumPy", {
  x <- tensor(matrix(1:6 + 0, 2, 3))
  expect_equal(as.numeric(op_ravel(x)), as.numeric(t(matrix(1:6, 2, 3))))
  expect_equal(as.array(op_reshape(x, c(3, 2))),
               t(matrix(as.numeric(t(matrix(1:6, 2, 3))), 2, 3)))
})
