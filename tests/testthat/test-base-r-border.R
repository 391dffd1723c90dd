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

test_each_backend("marginSums() and prop.table() of a tensor are base R's, as tensors", {
  m_r <- matrix(c(1, 2, 3, 4, 5, 6.5), 2L)
  a_r <- array(c(1:23, NA) + 0, 2:4)
  for (v in list(m_r, a_r, matrix(1:6, 2L))) {
    for (margin in list(NULL, 1, 2, c(2, 1))) {
      for (f in c("marginSums", "margin.table", "prop.table", "proportions")) {
        want <- do.call(f, list(v, margin))
        got <- eval(call(f, quote(x), margin),
                    list2env(list(x = tensor(v, NULL)), parent = globalenv()))
        label <- paste0(f, "(", paste(dim(v), collapse = "x"), ", ",
                        deparse(margin), ")")
        expect_true(is_tensor(got), label = label)
        got <- as.array(got)
        # a tensor of one axis is an R vector: base R's 1-d array
        if (length(dim(want)) < 2L) want <- as.vector(want)
        if (length(dim(got)) < 2L) got <- as.vector(got)
        expect_identical(dim(got), dim(want), label = label)
        expect_equal(got, want, label = label)
      }
    }
  }
  expect_error(as_user(marginSums(x, "a"), x = tensor(m_r)),
               "^marginSums\\(\\): a tensor has no dimnames")
  expect_error(as_user(prop.table(x, 1), x = tensor(c(1, 2))),
               "^proportions\\(\\): a margin of a vector")
  expect_error(prop.table(c(1, 2), 1), "'dims' cannot be of length 0")
  f_r <- function(v) sum(prop.table(matrix(v, 2L), 1)^2)
  g <- pycg_grad(function(v) {
    dim(v) <- c(2L, 3L)
    sum(as_user(prop.table(x, 1), x = v)^2)
  })(tensor(as.vector(m_r)))
  expect_equal(as.vector(as.array(g)), fd_grad(f_r, as.vector(m_r)),
               tolerance = 1e-6)
})

test_each_backend("products of a tensor and a list stop in base R's words", {
  m <- tensor(matrix(1:4 + 0, 2L))
  m_r <- matrix(1:4 + 0, 2L)
  words <- "requires numeric/complex matrix/vector arguments"
  expect_error(m_r %*% list(1, 2), words)
  expect_error(crossprod(m_r, list(1, 2)), words)
  expect_error(outer(1:2, list(1, 2)), words)
  expect_error(m %*% list(1, 2), paste0("^%\\*%: ", words,
                                        " \\(`y` is a list of length 2\\)"))
  expect_error(list(1, 2) %*% m, "^%\\*%: .*`x` is a list")
  expect_error(crossprod(m, list(1, 2)), paste0("^crossprod\\(\\): ", words))
  expect_error(tcrossprod(m, list(1, 2)), paste0("^tcrossprod\\(\\): ", words))
  expect_error(crossprod(list(1, 2), m), "^crossprod\\(\\): .*`x` is a list")
  expect_error(outer(m, list(1, 2)), paste0("^outer\\(\\): ", words))
  expect_error(outer(list(1, 2), m), "^outer\\(\\): .*`X` is a list")
  expect_error(m %o% list(1, 2), paste0("^outer\\(\\): ", words))
  expect_error(methods::kronecker(m, list(1, 2)), paste0("^kronecker\\(\\): ", words))
  expect_error(m %*% c("a", "b"), "`y` is a character of length 2")
  expect_error(m %*% data.frame(a = 1:2), "`y` is a data.frame")
  expect_error(m %*% factor(1:2), "`y` is a factor")
  # what base R takes still works
  expect_equal(as.vector(as.array(m %*% c(1, 2))), as.vector(m_r %*% c(1, 2)))
  expect_equal(as.array(crossprod(m, c(TRUE, FALSE))),
               crossprod(m_r, c(TRUE, FALSE)))
})

test_each_backend("chol() and solve() in a compiled function stop in base R's words", {
  not_pd <- matrix(c(1, 2, 2, 1), 2L)
  singular <- matrix(c(1, 2, 2, 4), 2L)
  expect_error(chol(not_pd), "the leading minor of order 2 is not positive definite")
  compiled <- function(f) {   # (numpy has no graphs: it warns, runs eagerly)
    g <- suppressWarnings(pycg_function(f))
    function(...) suppressWarnings(g(...))
  }
  f_chol <- compiled(function(a) chol(a))
  f_inv <- compiled(function(a) solve(a))
  f_solve <- compiled(function(a) solve(a, c(1, 2)))
  expect_error(f_chol(tensor(not_pd)),
               "^chol\\(\\): the leading minor of order 2 is not positive definite$")
  expect_error(f_inv(tensor(singular)),
               "^solve\\(\\): Lapack routine dgesv: system is exactly singular: U\\[2,2\\] = 0$")
  expect_error(f_solve(tensor(singular)), "exactly singular: U\\[2,2\\] = 0$")
  expect_error(f_inv(tensor(matrix(c(1, 2, 2, 4 + 1e-15), 2L))),
               "^solve\\(\\): system is computationally singular: reciprocal condition number = ")
  # a matrix base R takes: base R's values, and gradients as finite differences
  s_r <- matrix(c(4, 2, 2, 3), 2L)
  expect_equal(as.array(f_chol(tensor(s_r))), chol(s_r))
  expect_equal(as.vector(as.array(f_solve(tensor(s_r)))), solve(s_r, c(1, 2)))
  g <- compiled(pycg_grad(function(a) sum(solve(a, c(1, 2)) * chol(a))))
  f_r <- function(v) sum(solve(matrix(v, 2L), c(1, 2)) * chol(matrix(v, 2L)))
  expect_equal(as.vector(as.array(g(tensor(s_r)))), fd_grad(f_r, as.vector(s_r)),
               tolerance = 1e-6)
})

test_each_backend("log(x, base = tensor) is base R's, with the base's gradient", {
  x <- c(2, 8, 0.5)
  for (b in c(3, 10, 0.5)) {
    want <- log(x, base = b)
    got <- as_user(log(x, base = b), x = x, b = tensor(b))
    expect_true(is_tensor(got))
    expect_equal(as.vector(as.array(got)), want, tolerance = 1e-14)
    expect_equal(as.vector(as.array(as_user(log(x, b), x = tensor(x),
                                            b = tensor(b)))), want,
                 tolerance = 1e-14)
    f_r <- function(b) sum(log(x, base = b))
    for (g in list(
      pycg_grad(function(b) sum(as_user(log(x, base = b), x = x, b = b))),
      pycg_grad(function(b) sum(log(tensor(x), base = b)))))
      expect_equal(as.numeric(g(b)), fd_grad(f_r, b), tolerance = 1e-6)
  }
  g <- pycg_grad(function(x) sum(log(x, base = tensor(3))))(x)
  expect_equal(as.vector(as.array(g)), fd_grad(function(v) sum(log(v, 3)), x),
               tolerance = 1e-6)
  # a base of several values recycles, as in base R
  x4 <- c(x, 5)
  expect_equal(as.vector(as.array(as_user(log(x4, base = b), x4 = x4,
                                          b = tensor(c(2, 3))))),
               log(x4, base = c(2, 3)), tolerance = 1e-14)
  expect_identical(as_user(log(x, 2), x = x), log(x, 2))
  expect_identical(as_user(log(x), x = x), log(x))
})
