# The decomposition wrappers (R/ops-decompositions.R) against svd(), eigen()
# and qr().

test_each_backend("decompositions match svd(), eigen() and qr()", {
  s <- matrix(c(4, 1, 2, 1, 3, 0.5, 2, 0.5, 5), 3)
  expect_equal(as.numeric(op_svd(tensor(s))[[2]]), svd(s)$d)
  expect_equal(sort(as.numeric(op_eigh(tensor(s))[[1]])),
               sort(eigen(s, symmetric = TRUE)$values))
  parts <- op_qr(tensor(s))
  expect_equal(op_convert_to_numpy(parts[[1]] %*% parts[[2]]), s)
  expect_equal(as.numeric(op_logdet(tensor(s))), log(det(s)))
  expect_equal(op_convert_to_numpy(op_pinv(tensor(s))), solve(s))
})
