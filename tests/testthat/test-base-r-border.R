# Where R values meet tensors at the R border: each call gives base R's
# answer on the same plain R data, or base R's error in its words, and
# gradients agree with central finite differences of base R.

# expr evaluated as a user writes it at the prompt (library(pycg) attached:
# pycg's drop(), c() ... on the search path), with `values` bound.
as_user <- function(expr, ...) {
  eval(substitute(expr), list2env(list(...), parent = globalenv()))
}

test_each_backend("drop() of a tensor removes its extents of length 1, as base R", {
  x_r <- matrix(c(1.5, -2, 3, 0.25, -5, 6), 3L)
  b <- c(2, -1)
  want <- drop(x_r %*% b)
  got <- as_user(drop(x %*% b), x = tensor(x_r), b = b)
  expect_true(is_tensor(got))
  expect_null(dim(got))
  expect_identical(length(got), 3L)
  expect_equal(as.vector(as.array(got)), want)
  for (a_r in list(array(1:6 + 0, c(2L, 1L, 3L)), matrix(2.5, 1L, 1L),
                   matrix(1:3 + 0, 1L), c(1, 2), 4)) {
    want <- drop(a_r)
    got <- as_user(drop(a), a = tensor(a_r))
    expect_identical(dim(got), dim(want))
    expect_equal(as.vector(as.array(got)), as.vector(want))
  }
  expect_identical(as_user(drop(m), m = matrix(1:3, 1L)), 1:3)
  f_r <- function(v) sum(drop(matrix(v, 3L) %*% b)^2)
  g <- pycg_grad(function(v) {
    dim(v) <- c(3L, 2L)
    sum(as_user(drop(m %*% b), m = v, b = b)^2)
  })(tensor(as.vector(x_r)))
  expect_equal(as.vector(as.array(g)), as.vector(fd_grad(f_r, as.vector(x_r))),
               tolerance = 1e-6)
})
