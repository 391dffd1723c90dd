# Base R's matrix functions on tensors give base R's answer on the same
# plain R data (values, dims and type), or base R's error in its words.

# f(tensor) against f(plain R data): a tensor of identical dims and type,
# equal values. (kronecker()'s S4 generic is the methods package's, which
# code evaluated in a package namespace, as these tests are, does not reach
# by that name: they call methods::kronecker.)
expect_base_r <- function(f, ..., tolerance = 1e-12, label = NULL) {
  args <- list(...)
  label <- label %||% paste(deparse(f), collapse = " ")
  want <- do.call(f, args)
  got <- do.call(f, lapply(args, function(a) if (is.numeric(a) ||
                                                 is.logical(a)) tensor_of(a)
                           else a))
  expect_true(inherits(got, "pycg.tensor.Tensor"),
              label = paste(label, "is a tensor"))
  got <- as.array(got)
  if (length(dim(got)) == 1L && is.null(dim(want))) got <- as.vector(got)
  expect_identical(dim(got), dim(want), label = paste("dims of", label))
  expect_identical(typeof(got), typeof(want), label = paste("type of", label))
  expect_equal(as.vector(got), as.vector(want), tolerance = tolerance,
               label = paste("values of", label))
}

# R data as a tensor of its own type (doubles stay float64).
tensor_of <- function(a) op_convert_to_tensor(a)

shapes <- list(NULL, 1, 2, 3, c(1, 2), c(2, 1), c(2, 3), c(3, 2), c(1, 3),
               c(3, 1), c(2, 2, 2))
make <- function(s, start = 1) {
  if (is.null(s)) return(start + 4)
  if (length(s) == 1L) return(seq_len(s) + start - 1)
  array(seq_len(prod(s)) + start - 1, s)
}

# The shapes are decided in Python before any kernel runs (the same on
# every backend), so the whole grid runs on one backend.
test_that("%*%, crossprod() and tcrossprod() read vectors as base R does", {
  skip_if_no_pycg()
  old <- config_backend()
  on.exit(config_set_backend(old))
  config_set_backend("numpy")
  ops <- list(`%*%` = function(x, y) x %*% y, crossprod = crossprod,
              tcrossprod = tcrossprod)
  for (name in names(ops)) for (a in shapes) for (b in shapes) {
    f <- ops[[name]]
    x_r <- make(a)
    y_r <- make(b, 2)
    label <- sprintf("%s(%s, %s)", name, deparse(a), deparse(b))
    want <- tryCatch(f(x_r, y_r), error = function(e) NULL)
    if (is.null(want)) {
      expect_error(f(tensor(x_r), tensor(y_r)), "non-conformable arguments",
                   label = label)
      next
    }
    expect_identical(as.array(f(tensor(x_r), y_r)), want, label = label)
    if (length(a) < 2L)   # (an R value first: the other methods)
      expect_identical(as.array(f(x_r, tensor(y_r))), want, label = label)
  }
  for (s in shapes) {
    expect_identical(as.array(crossprod(tensor(make(s)))), crossprod(make(s)))
    expect_identical(as.array(tcrossprod(tensor(make(s)))), tcrossprod(make(s)))
  }
})

test_each_backend("products of integers and logicals are double, as in base R", {
  expect_base_r(crossprod, c(TRUE, TRUE, FALSE))
  expect_base_r(function(x, y) x %*% y, 1:3, 1:3)
  expect_base_r(tcrossprod, matrix(1:6, 2))
  expect_base_r(function(x) x %*% t(x), 1:3)
  expect_base_r(outer, 1:2, 1:3)
  expect_base_r(function(x, y) outer(x, y, "+"), 1:2, 1:3)
  expect_base_r(methods::kronecker, diag(2L), matrix(1:4, 2))
})

test_each_backend("t() of a vector is a row and of a scalar 1 x 1; of an array it stops", {
  for (x_r in list(3, c(1, 2, 3), matrix(1:6 + 0, 2), c(TRUE, FALSE)))
    expect_base_r(t, x_r)
  expect_error(t(tensor(array(1:8 + 0, c(2, 2, 2)))),
               "^t\\(\\): argument is not a matrix")
  expect_error(t(array(1:8, c(2, 2, 2))), "argument is not a matrix")
})

test_each_backend("outer(), %o% and kronecker() give base R's dims and values", {
  v_r <- c(1, 2, 3)
  m_r <- matrix(1:4 + 0, 2)
  expect_base_r(function(x) x %o% c(1, 2), m_r)
  expect_base_r(function(x) outer(x, c(1, 2)), matrix(1:4 + 0, 4, 1))
  expect_base_r(function(x, y) outer(x, y), v_r, m_r)
  expect_base_r(function(x) outer(x, 2), 5)
  expect_base_r(function(x, y) outer(x, y, function(a, b) a - 2 * b), v_r,
                c(10, 20))
  expect_base_r(methods::kronecker, m_r, v_r)
  expect_base_r(methods::kronecker, 2, m_r)
  expect_base_r(function(x) methods::kronecker(x, m_r, "+"), diag(2))
})

test_each_backend("solve() is base R's: inverse, vector and matrix right sides, errors", {
  a_r <- matrix(c(2, 1, 1, 3), 2)
  expect_base_r(solve, a_r)
  expect_base_r(solve, a_r, c(1, 2))
  expect_base_r(solve, a_r, matrix(1:6 + 0, 2))
  expect_base_r(solve, 2)
  expect_base_r(solve, 2, 4)
  expect_base_r(solve, matrix(1:4, 2))
  expect_error(solve(tensor(matrix(1:6 + 0, 2))),
               "^solve\\(\\): 'a' \\(2 x 3\\) must be square")
  expect_error(solve(tensor(matrix(c(1, 2, 2, 4), 2))),
               "^solve\\(\\): system is computationally singular")
  expect_error(solve(tensor(matrix(c(1, 2, 2, 4 + 1e-15), 2))),
               "computationally singular: reciprocal condition number")
  expect_error(solve(tensor(a_r), c(1, 2, 3)),
               "^solve\\(\\): 'b' \\(3 x 1\\) must be compatible with 'a' \\(2 x 2\\)")
})

test_each_backend("chol(), det() and determinant() are base R's", {
  s_r <- matrix(c(4, 2, 2, 3), 2)
  expect_base_r(chol, s_r)
  expect_base_r(chol, 4)
  # base R reads the upper triangle only
  expect_base_r(chol, matrix(c(4, 100, 2, 3), 2))
  expect_error(chol(tensor(matrix(c(1, 2, 2, 1), 2))),
               "^chol\\(\\): the leading minor of order 2 is not positive")
  expect_error(chol(tensor(s_r), pivot = TRUE), "chol\\(as.array\\(x\\), pivot = TRUE\\)")
  for (a_r in list(s_r, matrix(c(0, 1, 1, 0), 2), matrix(c(1, 2, 2, 4), 2),
                   matrix(c(2, 1, 0, 1, 3, 1, 0, 1, 4), 3), matrix(2)))
    expect_base_r(det, a_r, tolerance = 1e-12)
  for (a_r in list(s_r, matrix(c(0, 1, 1, 0), 2), matrix(c(1, 2, 2, 4), 2))) {
    for (logarithm in c(TRUE, FALSE)) {
      want <- determinant(a_r, logarithm = logarithm)
      got <- determinant(tensor(a_r), logarithm = logarithm)
      expect_s3_class(got, "det")
      expect_equal(as.numeric(got$modulus), as.numeric(want$modulus))
      expect_identical(attr(got$modulus, "logarithm"), logarithm)
      expect_identical(got$sign, want$sign)
    }
  }
  expect_error(det(tensor(matrix(1:6 + 0, 2))),
               "^det\\(\\): 'x' must be a square matrix")
  # a plain number has no determinant in base R either
  expect_error(det(2), "no applicable method for 'determinant'")
})

test_each_backend("backsolve(), forwardsolve() and norm() are base R's", {
  u_r <- matrix(c(1, 0, 2, 3), 2)
  expect_base_r(backsolve, u_r, c(8, 4))
  expect_base_r(backsolve, u_r, matrix(1:4 + 0, 2))
  expect_base_r(function(r, x) backsolve(r, x, transpose = TRUE), u_r, c(8, 4))
  expect_base_r(function(r, x) backsolve(r, x, k = 1), u_r, c(8, 4, 1))
  expect_base_r(forwardsolve, t(u_r), c(8, 4))
  expect_base_r(backsolve, matrix(c(1, 5, 2, 3), 2), c(8, 4))  # lower ignored
  expect_error(backsolve(tensor(matrix(c(1, 0, 2, 0), 2)), c(8, 4)),
               "singular matrix in 'backsolve'. First zero in diagonal \\[2\\]")
  m_r <- matrix(c(1, -2, 3, 4, -5, 6), 2)
  for (type in c("O", "o", "1", "I", "F", "E", "M", "2"))
    expect_base_r(function(x) norm(x, type), m_r, label = type)
  expect_base_r(norm, m_r)
  expect_error(norm(tensor(c(1, 2))), "^norm\\(\\): 'A' must be a numeric matrix")
  expect_error(norm(tensor(m_r), "x"), "must be one of 'M','1','O','I','F' or 'E'")
  # plain matrices keep base R's functions
  expect_identical(norm(m_r), base::norm(m_r))
  expect_identical(solve(matrix(2)), base::solve(matrix(2)))
  expect_identical(det(m_r[, 1:2]), base::det(m_r[, 1:2]))
})
