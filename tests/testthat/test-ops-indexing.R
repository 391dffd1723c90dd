# The indexing wrappers (take, where, slice, getitem: R/ops-indexing.R's page)
# with R's 1-based positions.

m <- matrix(c(1, 5, 3, 2, 4, 6, 0.5, -1, 7), 3, 3)

test_each_backend("take and take_along_axis use 1-based indices", {
  x <- tensor(m)
  expect_equal(as.array(op_take(x, c(3, 1), axis = 2)), m[, c(3, 1)])
  expect_equal(as.numeric(op_take(tensor(c(10, 20, 30)), 3)), 30)
  idx <- op_argmax(x, axis = 1, keepdims = TRUE)
  expect_equal(as.numeric(op_take_along_axis(x, idx, axis = 1)),
               apply(m, 2, max))
  expect_equal(as.array(op_take(x, tensor(c(2L, 3L), "int32"), axis = 1)),
               m[c(2, 3), ])
})

test_each_backend("where picks values by a condition", {
  x <- tensor(c(-1, 2, -3, 4))
  expect_equal(as.numeric(op_where(x > 0, x, 0)), c(0, 2, 0, 4))
  # (the condition alone: the 1-based positions, as op_nonzero and which())
  expect_equal(as.numeric(op_where(x > 0)[[1]]), which(as.numeric(x) > 0))
  expect_error(op_where(x > 0, x), "pass both x1 and x2, or neither",
               class = "pycg_python_error")
})

test_each_backend("slice and getitem use 1-based positions", {
  x <- tensor(m)
  expect_equal(as.array(op_slice(x, c(2, 1), c(2, 2))), m[2:3, 1:2])
  expect_equal(as.numeric(op_getitem(x, c(3, 2))), m[3, 2])
  expect_equal(as.numeric(op_getitem(x, 2)), m[2, ])
})
