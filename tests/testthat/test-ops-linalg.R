# The linear algebra wrappers (R/ops-linalg.R) against R's.

a <- c(0.5, 2, 1.5)
b <- c(1.25, 0.75, 1.5)

m <- matrix(c(1, 5, 3, 2, 4, 6, 0.5, -1, 7), 3, 3)

test_each_backend("linear algebra matches R", {
  s <- crossprod(m) + diag(3)
  x <- tensor(s)
  expect_equal(as.array(op_matmul(x, tensor(m))), s %*% m)
  expect_equal(as.numeric(op_dot(tensor(a), tensor(b))), sum(a * b))
  expect_equal(as.array(op_outer(tensor(a), tensor(b))), outer(a, b))
  expect_equal(as.numeric(op_det(x)), det(s))
  expect_equal(as.array(op_inv(x)), solve(s), tolerance = 1e-10)
  expect_equal(as.array(op_solve(x, tensor(cbind(a)))),
               unname(solve(s, cbind(a))), tolerance = 1e-10)
  expect_equal(as.array(op_cholesky(x)), t(chol(s)), tolerance = 1e-10)
  sl <- op_slogdet(x)
  expect_equal(as.numeric(sl[[1]]), 1)
  expect_equal(as.numeric(sl[[2]]), log(det(s)))
  expect_equal(as.numeric(op_norm(tensor(a))), sqrt(sum(a^2)))
  expect_equal(as.array(op_einsum("ij,jk->ik", x, tensor(m))), s %*% m)
  expect_equal(as.array(op_tensordot(x, tensor(m), axes = 1)), s %*% m)
  expect_equal(as.numeric(op_tensordot(x, tensor(m),
                                       axes = list(c(1, 2), c(1, 2)))),
               sum(s * m))
})
