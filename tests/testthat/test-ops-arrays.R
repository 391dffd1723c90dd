# The array wrappers (R/ops-arrays.R, and kron of R/ops-decompositions.R)
# against diag(), lower.tri() and kronecker().

m <- matrix(c(3, 1, 2, 5, 4, 6, 0.5, 7), 2)

v <- c(2.5, -1, 4, 0.25, 3)

test_each_backend("array ops match diag(), lower.tri() and kronecker()", {
  s <- matrix(c(4, 1, 2, 3, 5, 6, 7, 8, 9), 3)
  expect_equal(as.numeric(op_diag(tensor(s))), diag(s))
  expect_equal(op_convert_to_numpy(op_diag(tensor(c(1, 2)))), diag(c(1, 2)))
  expect_equal(as.numeric(op_trace(tensor(s))), sum(diag(s)))
  expect_equal(op_convert_to_numpy(op_tril(tensor(s))), s * lower.tri(s, TRUE))
  expect_equal(op_convert_to_numpy(op_kron(tensor(s[1:2, 1:2]), tensor(s))),
               kronecker(s[1:2, 1:2], s))
  expect_equal(op_convert_to_numpy(op_moveaxis(tensor(m), 1, 2)), t(m))
  expect_equal(as.numeric(op_roll(tensor(v), 1)), c(v[5], v[1:4]))
})
