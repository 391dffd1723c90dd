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
  expect_error(solve(matrix(c(1, 2, 2, 4), 2)),
               "Lapack routine dgesv: system is exactly singular: U\\[2,2\\] = 0")
  expect_error(solve(tensor(matrix(c(1, 2, 2, 4), 2))),
               "^solve\\(\\): Lapack routine dgesv: system is exactly singular: U\\[2,2\\] = 0$")
  expect_error(solve(tensor(matrix(0, 3, 3)), c(1, 2, 3)),
               "exactly singular: U\\[1,1\\] = 0$")
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

test_that("a vector no rule reads beside an empty matrix is 0 x 0, as base R", {
  skip_if_no_pycg()
  config_set_backend("numpy")
  empty <- matrix(numeric(0), 0, 3)
  for (f in list(function(x, y) crossprod(x, y), function(x, y) y %*% x,
                 function(x, y) tcrossprod(y, t(x))))
    for (y in list(10, c(1, 2)))
      expect_identical(as.array(f(tensor(empty), y)), f(empty, y))
  expect_error(tensor(matrix(1:4 + 0, 2)) %*% c(1, 2, 3),
               "%\\*%: non-conformable arguments")
})

test_each_backend("chol2inv() is base R's, errors and all", {
  r_r <- chol(matrix(c(4, 2, 2, 3), 2))
  expect_base_r(chol2inv, r_r)
  expect_base_r(function(x) chol2inv(x, size = 1), r_r)
  expect_base_r(chol2inv, c(2, 7, 9))     # a double vector: its first element
  expect_error(chol2inv(op_convert_to_tensor(1:3)), "chol2inv\\(\\): 'a' must be a numeric matrix")
  expect_error(chol2inv(tensor(r_r), size = 3),
               "chol2inv\\(\\): 'size' cannot exceed ncol\\(x\\) = 2")
  expect_error(chol2inv(tensor(matrix(c(1, 0, 2, 0), 2))),
               "element \\(2, 2\\) is zero, so the inverse cannot be computed")
  g <- pycg_grad(function(x) sum(chol2inv(x) * c(1, 2, 3, 4)))(tensor(r_r))
  expect_equal(as.array(g), fd_grad(function(a) sum(chol2inv(a) * 1:4), r_r),
               tolerance = 1e-6)
})

test_each_backend("backsolve() with NA or Inf in r answers as base R's BLAS does", {
  r_r <- matrix(c(NA, 0, Inf, 2), 2)
  for (x_r in list(c(0, 4), c(1, 4), c(0, 0)))
    for (f in list(backsolve, function(r, x) backsolve(r, x, transpose = TRUE),
                   function(r, x) forwardsolve(t(r), x)))
      expect_identical(as.vector(as.array(f(tensor(r_r), x_r))), f(r_r, x_r))
})

test_each_backend("det() and determinant() of a vector or a number stop, as base R", {
  for (x in list(tensor(2), tensor(c(1, 2, 3)))) {
    expect_error(det(x), "^det\\(\\): no method for a tensor of [01] axes")
    expect_error(determinant(x), "^determinant\\(\\): no method for a tensor")
  }
})

test_each_backend("norm(x, \"2\") stops where base R's svd() does", {
  expect_error(norm(tensor(matrix(numeric(0), 0, 3)), "2"),
               "^norm\\(\\): a dimension is zero")
  expect_error(norm(tensor(matrix(c(1, NA, 3, 4), 2)), "2"),
               "^norm\\(\\): infinite or missing values in 'x'")
  expect_identical(as.numeric(norm(tensor(matrix(numeric(0), 0, 3)))),
                   norm(matrix(numeric(0), 0, 3)))
})

test_each_backend("op_norm() takes keras.ops.norm's orders: base R's norms as oracle", {
  m_r <- matrix(c(3, 1, -4, 2, 0.5, 6), 2)
  d <- svd(m_r)$d
  want <- list(`2` = max(d), `-2` = min(d), nuc = sum(d),
               `1` = norm(m_r, "O"), `-1` = min(colSums(abs(m_r))),
               `Inf` = norm(m_r, "I"), `-Inf` = min(rowSums(abs(m_r))),
               fro = norm(m_r, "F"))
  for (ord in names(want)) {
    o <- switch(ord, nuc = , fro = ord, as.numeric(ord))
    expect_equal(as.numeric(op_norm(tensor(m_r), ord = o)), want[[ord]],
                 tolerance = 1e-12, label = ord)
  }
  v_r <- c(3, -1, 2)
  expect_equal(as.numeric(op_norm(tensor(v_r), ord = 3)), sum(abs(v_r)^3)^(1 / 3),
               tolerance = 1e-12)
  expect_equal(as.numeric(op_norm(tensor(v_r), ord = -Inf)), min(abs(v_r)))
})
