# Base R's statistics and everyday array functions on tensors give base
# R's answer on the same plain R data (values, dims, type, NA), or base R's
# error in its words.

# f(tensor) against f(plain R data), as.array() of the tensor compared with
# identical(), or with all.equal() where `tolerance` is given.
same_as_base <- function(f, x_r, ..., tolerance = NULL) {
  want <- f(x_r, ...)
  got <- f(op_convert_to_tensor(x_r), ...)
  expect_true(inherits(got, "pycg.tensor.Tensor"))
  got <- as.array(got)
  if (length(dim(got)) == 1L && is.null(dim(want))) got <- as.vector(got)
  if (is.null(tolerance))
    expect_identical(got, unname(strip(want)))
  else
    expect_equal(got, unname(strip(want)), tolerance = tolerance)
}

# base R's result without the attributes a tensor has no place for (the
# names and dimnames head() and tail() add, scale()'s attributes).
strip <- function(x) {
  attr(x, "scaled:center") <- attr(x, "scaled:scale") <- NULL
  if (!is.null(dim(x))) dimnames(x) <- NULL
  x
}

m_r <- matrix(c(1, 4, 2, 8, 3, 9), 3)
v_r <- c(3, 1, 2)

test_each_backend("sd() and median() are base R's, NA and all", {
  for (x_r in list(v_r, m_r, c(1, NA, 3), 5, numeric(0)))
    same_as_base(sd, x_r, tolerance = 1e-14)
  same_as_base(function(x) sd(x, na.rm = TRUE), c(1, NA, 3, 8),
               tolerance = 1e-14)
  for (x_r in list(v_r, c(v_r, 10), Inf, c(-Inf, Inf), c(1, Inf), numeric(0),
                   c(1, NA, 3), c(NaN, 1), 1:4, c(5L, 1L, 3L), integer(0),
                   c(TRUE, FALSE, TRUE), c(TRUE, FALSE), m_r))
    same_as_base(median, x_r)
  same_as_base(function(x) median(x, na.rm = TRUE), c(1, NA, 3, 10))
})

test_each_backend("scale() is base R's, with its attributes as tensors", {
  for (x_r in list(m_r, v_r, matrix(c(1, NA, 3, 4, 5, 7), 3)))
    same_as_base(scale, x_r, tolerance = 1e-14)
  same_as_base(function(x) scale(x, center = FALSE), m_r, tolerance = 1e-14)
  same_as_base(function(x) scale(x, scale = FALSE), m_r, tolerance = 1e-14)
  same_as_base(function(x) scale(x, center = c(1, 2), scale = c(2, 4)), m_r,
               tolerance = 1e-14)
  s <- scale(tensor(m_r))
  expect_equal(as.vector(attr(s, "scaled:center")),
               attr(scale(m_r), "scaled:center"))
  expect_equal(as.vector(attr(s, "scaled:scale")),
               attr(scale(m_r), "scaled:scale"))
  expect_null(attr(scale(tensor(m_r), center = FALSE), "scaled:center"))
  expect_error(scale(tensor(m_r), center = c(1, 2, 3)),
               "length of 'center' must equal the number of columns")
})

test_each_backend("cor() is base R's Pearson correlation", {
  x_r <- matrix(c(1, 4, 2, 8, 3, 9, 0, 2, 7, 1, 5, 5), 4)
  same_as_base(cor, x_r, tolerance = 1e-14)
  same_as_base(function(x) cor(x, c(2, 5, 1, 0)), x_r, tolerance = 1e-14)
  same_as_base(function(x) cor(x, c(2, 5, 1, 0)), x_r[, 1], tolerance = 1e-14)
  expect_equal(as.array(cor(c(2, 5, 1, 0), tensor(x_r))),
               cor(c(2, 5, 1, 0), x_r), tolerance = 1e-14)
  expect_warning(r <- cor(tensor(c(1, 1, 1)), c(1, 2, 3)),
                 "the standard deviation is zero")
  expect_true(is.na(as.numeric(r)))
  expect_error(cor(tensor(v_r)), "supply both 'x' and 'y' or a matrix-like 'x'")
  expect_error(cor(tensor(x_r), method = "spearman"),
               "cor\\(as.array\\(x\\), ...\\)")
  # the methods only catch tensors: base R's cor() of R data is untouched
  expect_identical(cor(x_r), stats::cor(x_r))
})

# f(tensor) against f(plain R data) where NA and NaN are told apart.
same_na_as_base <- function(f, x_r, tolerance = 1e-12) {
  want <- unname(strip(suppressWarnings(f(x_r))))
  got <- as.array(suppressWarnings(f(op_convert_to_tensor(x_r))))
  if (is.null(dim(want))) got <- as.vector(got)
  expect_identical(dim(got), dim(want))
  expect_identical(is.na(got), is.na(want))
  expect_identical(is.nan(got), is.nan(want))
  expect_equal(got, want, tolerance = tolerance)
}

test_each_backend("var(), cov(), cor() and sd() are base R's C code: its NA, use = and na.rm", {
  spread <- matrix(c(1, 4, 2, 8, 3, 9, 0, 2, 7, 1, 5, 5), 4)
  flat <- matrix(c(2, 2, 2, 1, 5, 7), 3)   # a column without spread
  special <- matrix(c(NA, 1, NaN, -0, Inf, -Inf), 2)
  for (x_r in list(5, numeric(0), c(1, NA, 3), c(3, 1, 2), c(TRUE, FALSE),
                   matrix(c(1.5, -2, 3), 1), special, spread, flat,
                   array(1:12 + 0, c(2, 3, 2)))) {
    same_na_as_base(var, x_r)
    same_na_as_base(sd, x_r)
    same_na_as_base(function(x) var(x, na.rm = TRUE), x_r)
    same_na_as_base(function(x) sd(x, na.rm = TRUE), x_r)
  }
  for (x_r in list(matrix(c(1.5, -2, 3), 1), special, spread, flat,
                   rbind(spread, c(NA, 1, 2)))) {
    same_na_as_base(cov, x_r)
    same_na_as_base(cor, x_r)
    same_na_as_base(function(x) cor(x, use = "na.or.complete"), x_r)
    same_na_as_base(function(x) cov(x, x[, 1]), x_r)
  }
  same_na_as_base(function(x) cor(x, use = "complete.obs"),
                  rbind(spread, c(NA, 1, 2)))
  expect_warning(cor(tensor(flat)), "the standard deviation is zero")
  expect_error(cor(tensor(special), use = "all.obs"),
               "cor\\(\\): missing observations in cov/cor")
  expect_error(cov(tensor(c(1, 2, 3))),
               "cov\\(\\): supply both 'x' and 'y' or a matrix-like 'x'")
  expect_error(cor(tensor(spread), use = "pairwise"),
               "cor\\(as.array\\(x\\), ...\\)")
  expect_error(var(tensor(spread), use = "nothing"), "invalid 'use' argument")
  g <- pycg_grad(function(x) sum(cov(x) * c(1, 2, 3, 4, 5, 6, 7, 8, 9)))(
    tensor(spread))
  w <- matrix(1:9 + 0, 3)
  expect_equal(as.array(g), fd_grad(function(a) sum(cov(a) * w), spread),
               tolerance = 1e-6)
})

test_each_backend("rowsum() sums rows by group as base R, integers by R's rule", {
  m <- matrix(c(1, 4, 2, 8, NA, 9), 3)
  same_na_as_base(function(x) rowsum(x, c(2, 1, 2)), m)
  same_na_as_base(function(x) rowsum(x, c(2, 1, 2), na.rm = TRUE), m)
  same_na_as_base(function(x) rowsum(x, c(2, 1, 2), reorder = FALSE), m)
  same_na_as_base(function(x) rowsum(x, c(1, 1)), c(2.5, 4))
  big <- c(2147483647L, 1L, -5L, 3L)
  for (g in list(c(1, 1, 1, 2), c(2, 1, 2, 1)))   # overflow: NA, as base R
    expect_identical(as.array(rowsum(op_convert_to_tensor(big), g)),
                     unname(rowsum(big, g)))
  expect_error(rowsum(op_convert_to_tensor(c(TRUE, FALSE)), c(1, 2)),
               "rowsum\\(\\): 'x' must be numeric")
  expect_error(rowsum(tensor(m), c(1, 2)), "incorrect length for 'group'")
  gr <- pycg_grad(function(x) sum(rowsum(x, c(2, 1, 2)) * c(1, 10)))(
    tensor(c(1, 2, 3)))
  expect_identical(as.vector(as.array(gr)), c(10, 1, 10))
})

test_each_backend("ifelse() keeps test's dims, recycles, keeps NA and base R's type", {
  tm_r <- matrix(1:6 + 0, 2)
  tm <- tensor(tm_r)
  expect_identical(as.array(ifelse(tm > 2, 1, 0)), ifelse(tm_r > 2, 1, 0))
  expect_identical(as.array(ifelse(tm > 2, tm, 0)), ifelse(tm_r > 2, tm_r, 0))
  expect_identical(as.array(ifelse(tm > 2, 0, tm)), ifelse(tm_r > 2, 0, tm_r))
  expect_identical(as.array(ifelse(tm > 2, c(10, 20), -tm)),
                   ifelse(tm_r > 2, c(10, 20), -tm_r))
  na_r <- c(1, NA, 3)
  expect_identical(as.vector(ifelse(tensor(na_r) > 2, 1, 0)),
                   ifelse(na_r > 2, 1, 0))
  expect_identical(as.vector(ifelse(tensor(na_r) > 2, 1L, 0L)),
                   ifelse(na_r > 2, 1L, 0L))
  expect_identical(as.vector(ifelse(c(TRUE, NA, FALSE), tensor(v_r), 0)),
                   ifelse(c(TRUE, NA, FALSE), v_r, 0))
  # the type: yes's where any test is TRUE, raised to no's where any FALSE
  expect_identical(as.vector(ifelse(tensor(v_r) > 0, 1L, 0)),
                   ifelse(v_r > 0, 1L, 0))
  expect_identical(as.vector(ifelse(tensor(v_r) > 9, 1L, TRUE)),
                   ifelse(v_r > 9, 1L, TRUE))
  expect_identical(as.vector(ifelse(tensor(v_r) > 1, 1L, 0.5)),
                   ifelse(v_r > 1, 1L, 0.5))
  expect_identical(ifelse(tensor(v_r) > 1, "big", "small"),
                   ifelse(v_r > 1, "big", "small"))
  # plain R values keep base R's function
  expect_identical(ifelse(c(TRUE, FALSE), 1L, 0L), c(1L, 0L))
})

test_each_backend("apply() calls FUN on tensors and combines as base R", {
  a_r <- array(1:24 + 0, c(2, 3, 4))
  same_as_base(function(x) apply(x, 1, sum), m_r)
  same_as_base(function(x) apply(x, 2, range), m_r)
  same_as_base(function(x) apply(x, c(1, 3), sum), a_r)
  same_as_base(function(x) apply(x, 3, function(s) s * 2), a_r)
  same_as_base(function(x) apply(x, 2, function(col) col[1]), m_r)
  expect_identical(apply(tensor(m_r), 1, function(r) sum(as.array(r))),
                   apply(m_r, 1, sum))   # R numbers stay R numbers
  uneven <- apply(tensor(m_r), 1, function(r) r[r > 2])
  expect_type(uneven, "list")
  expect_identical(lapply(uneven, function(t) as.vector(as.array(t))),
                   apply(m_r, 1, function(r) r[r > 2]))
  expect_error(apply(tensor(1:5 + 0), 1, sum),
               "^apply\\(\\): dim\\(X\\) must have a positive length")
  expect_error(apply(1:5 + 0, 1, sum), "dim\\(X\\) must have a positive length")
  expect_error(apply(tensor(m_r), 3, sum), "'MARGIN' does not match dim\\(X\\)")
  empty <- matrix(numeric(0), 0, 3)
  for (f in list(function(x) apply(x, 1, sum), function(x) apply(x, 2, sum),
                 function(x) apply(x, c(1, 2), abs)))
    expect_identical(conformance_value(f(tensor(empty))), unname(f(empty)))
  expect_identical(conformance_value(apply(op_convert_to_tensor(
    matrix(integer(0), 0, 2)), 1, sum)), integer(0))
})

test_each_backend("head(), tail(), diag(), aperm(), diff() and tabulate() as base R", {
  x_r <- c(5, 1, 4, 2, 3)
  for (n in c(2, -1, -2, 0, 9, -9)) {
    same_as_base(function(x) head(x, n), x_r)
    same_as_base(function(x) tail(x, n), x_r)
    same_as_base(function(x) head(x, n), m_r)
    same_as_base(function(x) tail(x, n), m_r)
  }
  same_as_base(function(x) head(x, -1), 5)
  same_as_base(diag, m_r)
  same_as_base(diag, x_r)
  same_as_base(diag, 3)
  same_as_base(diag, 2.7)
  same_as_base(function(x) diag(x, 3), 2)
  same_as_base(function(x) diag(x, 2, 4), c(1, 2, 3))
  same_as_base(diag, 1:3)
  expect_error(diag(tensor(array(1:8 + 0, c(2, 2, 2)))),
               "'x' is an array, but not one-dimensional")
  expect_error(diag(tensor(-1)), "invalid 'nrow' value")
  expect_error(aperm(tensor(3)), "^aperm\\(\\): invalid first argument, must be an array")
  expect_error(aperm(tensor(x_r)), "invalid first argument, must be an array")
  same_as_base(aperm, m_r)
  same_as_base(diff, matrix(1:4 + 0, 1))
  same_as_base(diff, matrix(1:4, 1))
  same_as_base(diff, 7)
  expect_identical(tabulate(tensor(c(1, 2, 2, 5))), tabulate(c(1, 2, 2, 5)))
  expect_identical(tabulate(tensor(c(2L, 2L)), 4), tabulate(c(2L, 2L), 4))
})
