# Base R's semantics where R values meet tensors (pycg/r/base/semantics.py and
# ?tensor-methods): each expectation is base R's answer on the same R data.
# (The conformance suite, test-conformance-*.R, covers the whole grid.)

tt <- function(x) {
  op_convert_to_tensor(x, dtype = switch(typeof(x), double = "float64",
                                         integer = "int32", logical = "bool"))
}

# as.array() of a tensor, a 1-d one as the R vector it stands for
value <- function(x) {
  v <- as.array(x)
  if (length(dim(v)) == 1L) as.vector(v) else v
}

S <- matrix(c(4, 2, 2, 3), 2)
m <- matrix(1:6 + 0, 2)

test_each_backend("an R vector recycles down the columns, as in base R", {
  expect_identical(value(tt(S) - rowMeans(tt(S))), S - rowMeans(S))
  expect_identical(value(tt(S) * c(1, 10)), S * c(1, 10))
  expect_identical(value(tt(m) + c(10, 20, 30)), m + c(10, 20, 30))
  expect_identical(value(c(10, 20, 30) + tt(m)), c(10, 20, 30) + m)
  expect_identical(value(tt(m) / rowSums(tt(m))), m / rowSums(m))
  n1 <- matrix(1:4 + 0, 4, 1)
  expect_identical(value(tt(n1) + c(1, 2)), n1 + c(1, 2))
  expect_warning(p <- tt(1:3 + 0) * tt(c(2, 3)), "^longer object length")
  expect_identical(value(p), suppressWarnings((1:3 + 0) * c(2, 3)))
})

test_each_backend("R's warnings and errors of recycling", {
  expect_warning(tt(m) + c(1, 2, 3, 4),
                 "^longer object length is not a multiple of shorter")
  expect_warning(tt(c(1, 2, 3)) > c(1, 2), "^longer object length")
  expect_error(tt(matrix(1:4 + 0, 1)) - tt(matrix(1:4 + 0, 4)),
               "^`-`: non-conformable arrays: dims c\\(1, 4\\) and c\\(4, 1\\).*op_add")
  expect_error(suppressWarnings(tt(matrix(1:4 + 0, 2)) + 1:6 + 0),
               "`\\+`: dims \\[product 4\\] do not match the length of object \\[6\\]")
  expect_identical(value(tt(matrix(numeric(0), 0, 3)) + c(1, 2)),
                   matrix(numeric(0), 0, 3) + c(1, 2))
})

test_each_backend("gradients flow to both sides; a recycled one sums its positions", {
  f_r <- function(a, v) sum((a * v)^2)
  a <- m
  v <- c(0.5, -1.5)
  g <- pycg_grad(function(a, v) op_sum((a * v)^2), argnums = 1:2)(tt(a), tt(v))
  expect_equal(value(g[[1]]), fd_grad(function(z) f_r(z, v), a), tolerance = 1e-6)
  expect_equal(value(g[[2]]), fd_grad(function(z) f_r(a, z), v), tolerance = 1e-6)
})

test_each_backend("round() is R's, and NA with na.rm as R", {
  expect_identical(as.vector(round(tt(c(2.675, 5.015)), 2)),
                   round(c(2.675, 5.015), 2))
  x <- c(0.15, 0.25, 0.35, 0.45, -0.15, 2.5, -0.5)
  expect_identical(as.vector(round(tt(x), 1)), round(x, 1))
  expect_identical(as.vector(round(tt(x))), round(x))
  expect_identical(as.vector(signif(tt(c(123456, 0.0012345)), 2)),
                   signif(c(123456, 0.0012345), 2))
  expect_identical(as.vector(pmax(tt(c(1, NA, 3)), 2, na.rm = TRUE)),
                   pmax(c(1, NA, 3), 2, na.rm = TRUE))
  expect_identical(as.vector(pmin(tt(c(1, NA, 3)), 2)), pmin(c(1, NA, 3), 2))
  expect_warning(out <- max(tt(c(NA_real_, NA_real_)), na.rm = TRUE),
                 "^no non-missing arguments to max; returning -Inf$")
  expect_identical(as.vector(out), -Inf)
})

test_each_backend("a two-column integer tensor indexes as the R matrix", {
  x <- matrix(1:9 + 0, 3)
  i <- cbind(c(3L, 2L, 1L), c(1L, 1L, 1L))
  expect_identical(as.vector(tt(x)[tt(i)]), x[i])
  expect_identical(as.vector(tt(x)[tt(x > 4)]), x[x > 4])
})

test_each_backend("integer overflow: NA with R's warning, or double where R gives double", {
  big <- c(2147483647L, 1L)
  expect_identical(as.vector(sum(tt(big), na.rm = TRUE)), sum(big))
  expect_identical(as.vector(prod(tt(c(46341L, 46341L)))), prod(c(46341L, 46341L)))
  expect_warning(cs <- cumsum(tt(big)), "^integer overflow in 'cumsum'")
  expect_identical(as.vector(cs), suppressWarnings(cumsum(big)))
  d <- c(-2147483647L, 2147483647L)
  expect_warning(dd <- diff(tt(d)), "^NAs produced by integer overflow$")
  expect_identical(as.vector(dd), suppressWarnings(diff(d)))
  expect_warning(s <- tt(big) + 1L, "^NAs produced by integer overflow$")
  expect_identical(as.vector(s), suppressWarnings(big + 1L))
})

test_each_backend("logical tensors take R's types", {
  x <- tt(c(TRUE, FALSE))
  x[1] <- 9L
  y <- c(TRUE, FALSE)
  y[1] <- 9L
  expect_identical(as.vector(x), y)
  expect_identical(as.vector(TRUE + tt(TRUE)), TRUE + TRUE)
  expect_identical(as.vector(-tt(TRUE)), -TRUE)
  expect_identical(as.vector(sign(tt(TRUE))), sign(TRUE))
  expect_identical(as.vector(round(tt(TRUE), 1)), round(TRUE, 1))
  b <- c(TRUE, TRUE, FALSE)
  expect_identical(as.vector(crossprod(tt(b))), as.vector(crossprod(b)))
  for (f in list(max, min, range, abs))
    expect_identical(as.vector(f(tt(b))), f(b))
})

test_each_backend("NA stays NA, NaN stays NaN", {
  expect_true(identical(as.array(tt(c(1, NA))), array(c(1, NA))))
  v <- c(1, NA, NaN)
  expect_identical(as.vector(is.nan(tt(v))), is.nan(v))
  expect_identical(as.vector(is.na(tt(v))), is.na(v))
  expect_identical(as.vector(sum(tt(c(1, NA)) > 0)), sum(c(1, NA) > 0))
  expect_identical(as.vector(tt(v) * 2), v * 2)
  expect_identical(as.vector(exp(tt(c(NA, 0)))), exp(c(NA, 0)))
})

test_each_backend("result types of integers are R's", {
  i <- c(-3L, 2L, 5L)
  for (f in list(trunc, round, sign, cumprod, prod, floor, sqrt))
    expect_identical(suppressWarnings(as.vector(f(tt(i)))),
                     suppressWarnings(f(i)))
  im <- matrix(1:6, 2)
  expect_identical(as.vector(colSums(tt(im))), as.vector(colSums(im)))
  expect_identical(as.vector(rowSums(tt(im))), as.vector(rowSums(im)))
  expect_identical(as.vector(tt(i) / 2L), i / 2L)
  expect_identical(as.vector(tt(i)^2L), i^2L)
})

test_each_backend("%/%, %% and ^ are R's at their edges", {
  expect_identical(as.vector(tt(c(5L, 3L)) %/% FALSE), c(5L, 3L) %/% FALSE)
  expect_identical(as.vector(tt(c(5L, 3L)) %% FALSE), c(5L, 3L) %% FALSE)
  expect_identical(as.vector((-1.5)^tt(Inf)), (-1.5)^Inf)
  x <- c(5.5, -5.5, 7, -7)
  expect_identical(as.vector(tt(x) %% 0.1), x %% 0.1)
  expect_identical(as.vector(tt(x) %/% 0.1), x %/% 0.1)
  expect_identical(as.vector(tt(c(0, -0)) ^ -1), c(0, -0) ^ -1)
  expect_identical(as.vector(round(tt(-0.15), 1)), round(-0.15, 1))
})

test_each_backend("x[i] <- value takes the higher type and recycles as R", {
  iv <- tt(1:4)
  iv[2:3] <- 0.5
  r <- 1:4
  r[2:3] <- 0.5
  expect_identical(as.vector(iv), r)
  v <- tt(c(1, 2, 3, 4))
  expect_warning(v[1:3] <- c(10, 20), "^number of items to replace")
  r <- c(1, 2, 3, 4)
  suppressWarnings(r[1:3] <- c(10, 20))
  expect_identical(as.vector(v), r)
  mm <- tt(m)
  expect_error(mm[, 2] <- c(1, 2, 3), "number of items to replace is not a multiple")
  z <- tt(m)
  z[z > 3] <- NA
  r <- m
  r[r > 3] <- NA
  expect_identical(value(z), r)
})

test_that("R's operators keep R's recycling inside pycg_function (traced)", {
  skip_if_no_pycg()
  config_set_backend("tensorflow")
  f <- pycg_function(function(x) sum((x - rowMeans(x))^2 * c(1, 10)))
  expect_equal(as.numeric(f(tt(m))), sum((m - rowMeans(m))^2 * c(1, 10)))
  na_rm <- pycg_function(function(x) c(sum(x, na.rm = TRUE), max(x, na.rm = TRUE)))
  expect_equal(as.vector(na_rm(tt(c(1, NA, 3)))), c(4, 3))
})

test_each_backend("ifelse()'s values: test's shape, R's type, NA (the routine ifelse() uses)", {
  ifelse_t <- pycg:::r_ifelse
  a <- matrix(c(1, 5, 3, NA), 2)
  expect_identical(value(ifelse_t(tt(a) > 2, 1, 0)), ifelse(a > 2, 1, 0))
  expect_identical(value(ifelse_t(tt(a) > 2, tt(a), 0)), ifelse(a > 2, a, 0))
  expect_identical(value(ifelse_t(tt(a) > 2, 1L, 0L)), ifelse(a > 2, 1L, 0L))
  expect_identical(value(ifelse_t(tt(a) > 2, TRUE, c(FALSE, TRUE))),
                   ifelse(a > 2, TRUE, c(FALSE, TRUE)))
  g <- pycg_grad(function(x) op_sum(ifelse_t(x > 2, x * x, -x)))(tt(c(1, 3, 5)))
  expect_identical(as.vector(g), c(-1, 6, 10))   # d/dx of -x, x^2, x^2
})

test_each_backend("R data that is not numbers, and tensor indices", {
  expect_error(tt(1) + "a", "^`\\+`: a tensor meets numbers, logicals and other tensors, not an R character")
  expect_identical(as.vector(tt(c(10, 20, 30))[[tt(2L)]]), 20)
})
