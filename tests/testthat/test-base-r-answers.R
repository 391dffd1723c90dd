# R idioms on tensors: base R's answer on the same plain R data, or an
# error naming the function and the way out; never a third answer.

v_r <- c(10, 20, 30)
m_r <- matrix(c(1, -2, 3, 4, -5, 6), 2, 3)
na_r <- c(1, NA, 3)

test_each_backend("[[ takes one element by R's 1-based position", {
  v <- tensor(v_r)
  m <- tensor(m_r)
  expect_identical(as.numeric(v[[2]]), v_r[[2]])
  expect_s3_class(v[[2]], "pycg.tensor.Tensor")  # recorded on tapes
  expect_identical(as.numeric(m[[4]]), m_r[[4]])
  expect_identical(as.numeric(m[[2, 3]]), m_r[[2, 3]])
  expect_error(v[[0]], "`\\[\\[`: takes one element by 1-based positions")
  expect_error(v[[-1]], "got -1")
  expect_error(v[[1.5]], "got 1.5")
  expect_error(v[[c(1, 2)]], "takes one element")
  expect_error(v[[4]], "subscript out of bounds: 4 for an extent of 3")
})

test_each_backend("op_take() positions are 1-based; 0, negative and past the end are errors", {
  v <- tensor(v_r)
  m <- tensor(m_r)
  expect_identical(as.numeric(op_take(v, c(3, 1))), v_r[c(3, 1)])
  expect_identical(as.vector(op_take(m, 2, axis = 2)), m_r[, 2])
  expect_error(op_take(v, 0), "op_take: `indices` holds 0: positions are 1-based")
  expect_error(op_take(v, -1), "op_take: `indices` holds -1: .*use x\\[-i\\]")
  expect_error(op_take(v, 4), "op_take: `indices` holds 4, past the last position \\(3\\)")
  expect_error(op_take(m, 4, axis = 2), "past the last position \\(3\\)")
  expect_error(op_take(v, 1.5), "op_take: `indices` must be whole numbers")
  expect_error(op_take(v, NA_real_), "must be whole numbers")
  expect_error(op_take(v, op_convert_to_tensor(c(0L, 1L))),
               "^op_take: `indices` holds 0: positions are 1-based")
})

test_each_backend("op_take_along_axis() refuses 0 and positions past the end", {
  m <- tensor(m_r)
  idx <- matrix(c(2L, 1L, 1L, 2L, 2L, 1L), 2)
  want <- matrix(m_r[cbind(as.vector(idx), rep(1:3, each = 2))], 2)
  expect_identical(as.array(op_take_along_axis(m, idx, axis = 1)), want)
  expect_error(op_take_along_axis(m, idx - 1L, axis = 1),
               "op_take_along_axis: `indices` holds 0")
  expect_error(op_take_along_axis(m, idx + 1L, axis = 1),
               "holds 3, past the last position \\(2\\)")
})

test_each_backend("other 1-based arguments refuse 0", {
  v <- tensor(v_r)
  expect_error(op_slice(v, 0, 2), "op_slice: `start_indices` holds 0")
  expect_error(op_one_hot(c(0, 1), 3), "op_one_hot: `x` holds 0")
  expect_identical(as.array(op_one_hot(c(1, 3), 3)), diag(3)[c(1, 3), ])
  expect_error(op_segment_sum(v, c(0, 1, 1)), "`segment_ids` holds 0")
})

test_each_backend("axes: out of range, fractional, duplicated or 0 are errors", {
  m <- tensor(m_r)
  expect_identical(dim(op_expand_dims(m, axis = 3)), c(2L, 3L, 1L))
  expect_error(op_expand_dims(m, axis = 4),
               "op_expand_dims: axis 4 is out of range")
  for (bad in list(1.5, "a", NA, TRUE))
    expect_error(op_sum(m, axis = bad),
                 "op_sum: `axis` must be whole numbers \\(1-based axes\\) or NULL")
  expect_error(op_sum(m, axis = c(1, 1)), "op_sum: `axis` names axis 1 twice")
  expect_error(op_sum(m, axis = c(2, -1)), "op_sum: axis -1 appears twice")
  expect_error(op_sum(m, axis = 0),
               "op_sum: `axis` is 1-based in R \\(negative counts from the end\\); got 0")
  expect_error(random_normal(2.5), "random_normal: `shape` must be whole numbers")
  expect_error(pycg_grad(function(x) sum(x), argnums = 1.5),
               "`argnums` must be 1-based argument positions")
})

test_each_backend("NA survives comparisons into R: as.logical, if, all, any, is.na, [", {
  x <- tensor(na_r)
  expect_identical(as.logical(x > 0), na_r > 0)
  expect_identical(as.logical(x == 1), na_r == 1)
  expect_identical(as.logical(!(x > 2)), !(na_r > 2))
  expect_identical(as.logical(x > 2 & x > 0), na_r > 2 & na_r > 0)
  expect_identical(as.logical(x > 0 | x > 2), na_r > 0 | na_r > 2)
  expect_identical(as.logical(x > 2 | x > 0), na_r > 2 | na_r > 0)
  expect_identical(all(x > 0), all(na_r > 0))
  expect_identical(all(x > 0, na.rm = TRUE), all(na_r > 0, na.rm = TRUE))
  expect_identical(any(x > 2), any(na_r > 2))
  expect_identical(any(x > 0), any(na_r > 0))
  expect_identical(any(x > 5, na.rm = TRUE), any(na_r > 5, na.rm = TRUE))
  expect_identical(all(x < 2), all(na_r < 2))
  expect_identical(as.logical(is.na(x > 0)), is.na(na_r > 0))
  expect_error(if (sum(x) > 0) "yes", "missing value where TRUE/FALSE needed")
  expect_identical(sum(x) > 0, sum(na_r) > 0)
  expect_equal(as.numeric(x[x > 0]), na_r[na_r > 0])
  expect_equal(as.numeric(x[c(1, NA)]), na_r[c(1, NA)])
  expect_identical(ifelse(x > 2, 1, 0), ifelse(na_r > 2, 1, 0))
  expect_equal(as.numeric(sum(x > 0)), sum(na_r > 0))
  expect_equal(as.numeric(sum(x > 0, na.rm = TRUE)), sum(na_r > 0, na.rm = TRUE))
  expect_equal(as.numeric((x > 0) + 1), (na_r > 0) + 1)
  expect_equal(as.numeric(mean(x > 0, na.rm = TRUE)), mean(na_r > 0, na.rm = TRUE))
  expect_output(print(x > 0), "TRUE +NA +TRUE")
})

test_each_backend("matrix indexing, list index, all.equal follow base R", {
  m <- tensor(m_r)
  at <- cbind(c(1, 2, 2), c(2, 3, 1))
  expect_identical(as.numeric(m[at]), m_r[at])
  zero <- cbind(c(0, 1, NA), c(1, 1, 2))   # base R: 0 drops a row, NA is NA
  expect_identical(as.vector(m[zero]), m_r[zero])
  expect_error(m[cbind(-1, 1)], "negative values are not allowed")
  expect_error(m[list(1:2, 1:2)], "a list is not an index")
  expect_identical(all.equal(tensor(c(1, 2)), tensor(c(9, 8))),
                   all.equal(c(1, 2), c(9, 8)))
  expect_true(all.equal(tensor(c(1, 2)), c(1, 2)))
  expect_failure(expect_equal(tensor(c(1, 2)), tensor(c(9, 8))))
  expect_success(expect_equal(tensor(c(1, 2)), tensor(c(1, 2))))
  expect_identical(as.character(tensor(v_r)), as.character(v_r))
})

test_each_backend("mean(trim =), median(), outer() and %o% give base R's values", {
  x_r <- c(5, 1, 100, 3, 2, 8, 4)
  x <- tensor(x_r)
  for (trim in c(0, 0.1, 0.25, 0.5))
    expect_equal(as.numeric(mean(x, trim = trim)), mean(x_r, trim = trim))
  expect_equal(as.numeric(median(x)), median(x_r))
  expect_equal(as.numeric(median(tensor(m_r))), median(m_r))
  expect_true(is.na(as.numeric(median(tensor(na_r)))))
  expect_equal(as.numeric(median(tensor(na_r), na.rm = TRUE)),
               median(na_r, na.rm = TRUE))
  v <- tensor(v_r)
  expect_identical(outer(v, v), outer(v_r, v_r))
  expect_identical(v %o% v, v_r %o% v_r)
})

test_each_backend("dim<- reshapes in R's column-major order", {
  m <- tensor(m_r)
  m2 <- m
  dim(m2) <- c(3, 2)
  want <- m_r
  dim(want) <- c(3, 2)
  expect_identical(as.array(m2), want)
  dim(m2) <- NULL
  expect_identical(as.vector(m2), as.vector(m_r))
  expect_error(dim(m2) <- c(4, 2), "`dim<-`: dims \\[product 8\\] do not match")
  one <- tensor(5)   # base R: dim(x) <- 1 makes a 1-d array, dim() 1
  expect_error(dim(one) <- 1, "`dim<-`: a tensor of one axis is an R vector")
  expect_error(dim(m2) <- 6, "not a 1-d array as base R makes of dim\\(x\\) <- 6")
  v <- pycg_variable(m_r)
  expect_error(dim(v) <- c(3, 2), "a pycg_variable\\(\\) keeps its shape")
  expect_error(v[1] <- 0, "a pycg_variable\\(\\) is changed by v\\$assign\\(\\)")
})

test_each_backend("functions with no tensor answer name the way out", {
  v <- tensor(v_r)
  expect_error(quantile(v), "quantile\\(\\) of a tensor: use op_quantile")
  expect_error(cbind(v, v), "cbind\\(\\) of tensors: use op_stack")
  expect_error(rbind(v, v), "rbind\\(\\) of tensors: use op_stack")
})

test_each_backend("Math group sinpi/cospi/tanpi and the Complex group", {
  x_r <- c(-1.5, -1, 0, 0.25, 0.5, 1, 2.5, 3, 1e6 + 0.5, 0.3)
  x <- tensor(x_r)
  expect_identical(as.numeric(sinpi(x)) == 0, sinpi(x_r) == 0)
  expect_equal(as.numeric(sinpi(x)), sinpi(x_r), tolerance = 1e-12)
  expect_identical(as.numeric(cospi(x)) == 0, cospi(x_r) == 0)
  expect_equal(as.numeric(cospi(x)), cospi(x_r), tolerance = 1e-12)
  t_r <- c(-0.2, 0, 0.25, 1.1, 0.5, -2.5, 3)
  expect_warning(t <- tanpi(tensor(t_r)), "^NaNs produced$")  # as R warns
  expect_equal(as.numeric(t), suppressWarnings(tanpi(t_r)), tolerance = 1e-12)
  with(gradient_tape() %as% tape, {
    tape$watch(x)
    y <- sum(sinpi(x))
  })
  expect_equal(as.numeric(tape$gradient(y, x)), pi * cospi(x_r),
               tolerance = 1e-12)
  z_r <- complex(real = c(1, -2), imaginary = c(3, 0.5))
  z <- op_convert_to_tensor(z_r)
  for (f in list(Re, Im, Mod, Arg))
    expect_equal(as.vector(f(z)), f(z_r))
  expect_equal(as.vector(Conj(z)), Conj(z_r))
})

test_each_backend("int32 overflow is NA with R's warning; sum() of integers as R", {
  big <- op_convert_to_tensor(.Machine$integer.max)
  expect_warning(r <- as.integer(big + 1L), "NAs produced by integer overflow")
  expect_identical(r, suppressWarnings(.Machine$integer.max + 1L))
  expect_identical(as.integer(op_convert_to_tensor(5L) * 2L), 10L)
  i_r <- c(.Machine$integer.max, 1L)
  expect_identical(as.vector(sum(op_convert_to_tensor(i_r))), sum(i_r))
  expect_identical(as.vector(sum(op_convert_to_tensor(1:4))), sum(1:4))
  a_r <- c(5L, -5L, 7L)
  z_r <- c(0L, 3L, -2L)
  a <- op_convert_to_tensor(a_r)
  z <- op_convert_to_tensor(z_r)
  expect_identical(as.vector(a %/% z), a_r %/% z_r)
  expect_identical(as.vector(a %% z), a_r %% z_r)
  expect_identical(as.vector(a %/% 0L), a_r %/% 0L)
  expect_equal(as.vector(a^z), a_r^z_r)
  expect_equal(as.vector(a^20L), a_r^20L)
  # NumPy warns of the division by zero (R does not); the values agree
  expect_identical(suppressWarnings(as.vector(a / z)), a_r / z_r)
})

test_each_backend("sort() drops NA as base R does (na.last = NA), or places it", {
  x_r <- c(3, NA, 1, 2, NA)
  x <- tensor(x_r)
  expect_identical(as.vector(sort(x)), sort(x_r))
  expect_identical(as.vector(sort(x, decreasing = TRUE)),
                   sort(x_r, decreasing = TRUE))
  expect_equal(as.vector(sort(x, na.last = TRUE)), sort(x_r, na.last = TRUE))
  expect_equal(as.vector(sort(x, na.last = FALSE)), sort(x_r, na.last = FALSE))
})

test_each_backend("c() of tensors concatenates in R's order; x == NA is NA", {
  m_r <- matrix(c(1, 2, 3, 4), 2)
  expect_identical(as.vector(c(tensor(m_r), tensor(c(9, 8)), 7)),
                   c(m_r, c(9, 8), 7))
  x <- tensor(c(1, 2))
  expect_identical(as.logical(x == NA), c(1, 2) == NA)
  expect_identical(tensor(1) == NA, 1 == NA)
})

test_each_backend("x[NULL] selects nothing and x[i] past the end is NA, as in base R", {
  v_r <- c(10, 20, 30)
  v <- tensor(v_r)
  expect_identical(as.vector(v[NULL]), v_r[NULL])
  expect_equal(as.vector(v[c(1, 5)]), v_r[c(1, 5)])
  expect_equal(as.vector(tensor(m_r)[7]), m_r[7])
  expect_error(tensor(m_r)[3, 1], "subscript out of bounds")
})

# The subsetting cases of keras3's test-op_subset.R, with base R as the
# oracle: pycg's `[` is base R's (keras3 differs for negative indices, which
# count from the end there, and reads a logical mask in row-major order).
test_each_backend("[ matches base R on keras3's subsetting cases", {
  xr <- array(1:20, c(4, 5))
  xt <- op_convert_to_tensor(xr)
  same <- function(expr) {
    expr <- substitute(expr)
    want <- eval(expr, list(x = xr), parent.frame())
    got <- eval(expr, list(x = xt), parent.frame())
    expect_identical(as.array(got), as.array(want), label = deparse(expr))
  }
  i <- cbind(3:1, 1)
  j <- cbind(1:3, c(3, 3, 4))
  ix <- array(1:2)
  same(x[1:2, c(TRUE, TRUE, TRUE, TRUE, FALSE)])
  same(x[c(1:2, 4), c(TRUE, FALSE, TRUE, TRUE, FALSE)])
  same(x[i])
  same(x[j])
  same(x[c(1, 3, 4), c(2, 4, 5)])
  same(x[c(TRUE, FALSE, TRUE, TRUE), c(1, 3, 4)])
  same(x[c(1, 3, 4), ])
  same(x[, 1:3])
  same(x[((1:3)), (1:2)])
  same(x[ix, ix])
  same(x[-1, ])
  same(x[-(1:2), -5])
  same(x[x > 10])
  same(x[2, , drop = FALSE])
  same(x[7])
  same(x[c(-1, -20)])
})

test_each_backend("a comparison's NA survives [, [[, t(), rev(), aperm() and dim<-", {
  m_r <- matrix(c(1, NA, 3, 4, NA, 6), 2)
  cmp_r <- m_r > 2
  cmp <- tensor(m_r) > 2
  expect_identical(as.logical(cmp[2]), cmp_r[2])
  expect_identical(as.logical(cmp[, 3]), cmp_r[, 3])
  expect_identical(as.array(cmp[1, , drop = FALSE]), cmp_r[1, , drop = FALSE])
  expect_identical(cmp[[2]], cmp_r[[2]])
  expect_identical(cmp[[1, 2]], cmp_r[[1, 2]])
  expect_identical(as.array(t(cmp)), t(cmp_r))
  expect_identical(as.logical(rev(cmp)), rev(cmp_r))
  expect_identical(as.array(aperm(cmp)), aperm(cmp_r))
  d_r <- cmp_r
  dim(d_r) <- c(3, 2)
  d <- cmp
  dim(d) <- c(3, 2)
  expect_identical(as.array(d), d_r)
})

test_each_backend("diff() and rep() are base R's; unique() names the way out", {
  x_r <- c(3, 7, 4, 10, 2)
  m_r <- matrix(c(1, 4, 9, 2, 8, 5), 3)
  expect_equal(as.vector(diff(tensor(x_r))), diff(x_r))
  expect_equal(as.vector(diff(tensor(x_r), differences = 2)),
               diff(x_r, differences = 2))
  expect_equal(as.array(diff(tensor(m_r))), diff(m_r))
  expect_error(diff(tensor(x_r), lag = 2), "lag = 1 only")
  for (args in list(list(2), list(each = 2), list(c(1, 0, 2, 1, 3)),
                    list(length.out = 7), list(2, each = 2, length.out = 9)))
    expect_identical(as.vector(do.call(rep, c(list(tensor(x_r)), args))),
                     do.call(rep, c(list(x_r), args)))
  expect_identical(as.vector(rep(tensor(m_r), 2)), rep(m_r, 2))
  expect_error(rep(tensor(x_r), -1), "invalid 'times' argument")
  expect_error(unique(tensor(x_r)), "unique\\(\\) of a tensor: use unique\\(as.array")
})

test_each_backend("x[i] <- value makes the copy base R makes, recorded on tapes", {
  m_r <- matrix(c(1, -2, 3, 4, -5, 6), 2)
  cases <- list(
    quote(x[2] <- 10), quote(x[, 2] <- c(7, 8)), quote(x[1, ] <- 0),
    quote(x[x < 0] <- 0), quote(x[-1, ] <- c(9, 8, 7)),
    quote(x[cbind(c(1, 2), c(3, 1))] <- c(5, 6)), quote(x[c(1, 1)] <- c(3, 4)),
    quote(x[[2, 3]] <- 11), quote(x[c(TRUE, FALSE)] <- 1:3 + 0),
    quote(x[] <- 0))
  for (case in cases) {
    want <- local({ x <- m_r; eval(case); x })
    got <- local({ x <- tensor(m_r); eval(case); x })
    expect_identical(as.array(got), want, label = deparse(case))
  }
  v <- tensor(c(1, 2, 3))
  v2 <- v
  v2[2] <- 20
  expect_identical(as.vector(v), c(1, 2, 3))   # a copy, as in base R
  expect_error(v2[5] <- 1, "would grow the tensor")
  v3 <- c(1, 20, 3)
  expect_warning(v2[1:2] <- c(7, 8, 9), "^number of items to replace is")
  expect_warning(v3[1:2] <- c(7, 8, 9), "^number of items to replace is")
  expect_identical(as.vector(v2), v3)
  iv <- op_convert_to_tensor(1:3)
  iv[1] <- 2.5   # base R makes the integer vector double
  expect_identical(as.vector(iv), c(2.5, 2, 3))
  x <- tensor(m_r)
  w <- tensor(c(5, 6))
  with(gradient_tape() %as% tape, {
    tape$watch(list(x, w))
    y <- x
    y[, 2] <- w * 2
    s <- sum(y * y)
  })
  g <- tape$gradient(s, list(x, w))
  want_x <- 2 * m_r
  want_x[, 2] <- 0
  expect_equal(as.array(g[[1]]), want_x)
  expect_equal(as.vector(g[[2]]), 8 * c(5, 6))
})

test_each_backend("which(), which.max(), which.min(), order() and rank() are base R's", {
  x_r <- c(3, 1, NA, 2, 5, 1)
  x <- tensor(x_r)
  m <- tensor(m_r)
  expect_identical(which(x > 2), which(x_r > 2))
  expect_identical(which(m > 0), which(m_r > 0))
  expect_identical(which(m > 0, arr.ind = TRUE), which(m_r > 0, arr.ind = TRUE))
  expect_error(which(x), "argument to 'which' is not logical")  # as base R
  expect_identical(which.max(x), which.max(x_r))
  expect_identical(which.min(x), which.min(x_r))
  expect_identical(which.max(m), which.max(m_r))
  expect_identical(order(x), order(x_r))
  expect_identical(order(x, decreasing = TRUE, na.last = NA),
                   order(x_r, decreasing = TRUE, na.last = NA))
  expect_identical(order(m), order(m_r))
  expect_identical(rank(tensor(c(3, 1, 2, 1))), rank(c(3, 1, 2, 1)))
  # plain R values keep base R's functions
  expect_identical(which(c(FALSE, TRUE)), 2L)
  expect_identical(which.max(c(1, 9, 2)), 2L)
})

test_each_backend("var() is base R's sample variance, recorded on tapes", {
  x_r <- c(3, 1, 4, 1, 5)
  expect_equal(as.numeric(var(tensor(x_r))), var(x_r))
  expect_equal(as.array(var(tensor(m_r))), var(m_r))
  expect_true(is.na(as.numeric(var(tensor(na_r)))) && is.na(var(na_r)))
  expect_equal(as.numeric(var(tensor(na_r), na.rm = TRUE)),
               var(na_r, na.rm = TRUE))
  expect_true(is.na(as.numeric(var(tensor(5)))) && is.na(var(5)))
  expect_identical(is.na(as.array(var(tensor(matrix(c(1, 2), 1))))),
                   is.na(var(matrix(c(1, 2), 1))))
  expect_true(is.na(as.numeric(var(tensor(numeric(0))))) &&
                is.na(var(numeric(0))))
  # y, an array of 3 axes (all its elements) and na.rm on a matrix (its
  # complete rows) as base R's stats/src/cov.c
  expect_equal(as.numeric(var(tensor(x_r), tensor(x_r))), var(x_r, x_r))
  a_r <- array(c(1, 4, 2, 8, 5, 7, 3, 6), c(2, 2, 2))
  expect_equal(as.numeric(var(tensor(a_r))), var(a_r))
  na_m <- matrix(c(1, NA, 3, 4, 2, 7, 5, 9, 1), 3)
  expect_equal(as.array(var(tensor(na_m), na.rm = TRUE)),
               var(na_m, na.rm = TRUE))
  # d var / dx = 2 (x - mean) / (n - 1)
  g <- pycg_grad(function(x) var(x))(x_r)
  expect_equal(as.numeric(g), 2 * (x_r - mean(x_r)) / (length(x_r) - 1))
  expect_identical(var(c(1, 2, 4)), stats::var(c(1, 2, 4)))
})
