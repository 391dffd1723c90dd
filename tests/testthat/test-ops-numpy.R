# The NumPy-namespace, math and linalg wrappers (issue 14) against R's own
# functions, with R's 1-based positions.

m <- matrix(c(3, 1, 2, 5, 4, 6, 0.5, 7), 2)
v <- c(2.5, -1, 4, 0.25, 3)

test_each_backend("sorting ops match sort(), order() and quantile()", {
  expect_equal(as.numeric(op_sort(tensor(v))), sort(v))
  expect_identical(as.integer(op_argsort(tensor(v))), order(v))
  expect_identical(as.integer(op_argsort(tensor(m), axis = 1)),
                   as.integer(apply(m, 2, order)))
  expect_equal(as.numeric(op_median(tensor(v))), median(v))
  expect_equal(as.numeric(op_quantile(tensor(v), c(0.1, 0.6))),
               unname(quantile(v, c(0.1, 0.6), type = 7)))
  top <- op_top_k(tensor(v), 2L)
  expect_equal(as.numeric(top[[1]]), sort(v, decreasing = TRUE)[1:2])
  expect_identical(as.integer(top[[2]]), order(v, decreasing = TRUE)[1:2])
  expect_identical(as.integer(op_searchsorted(sort(v), c(0, 3),
                                              side = "right")),
                   findInterval(c(0, 3), sort(v)) + 1L)
})

test_each_backend("reductions match R's with na.rm and cumprod()", {
  w <- c(1, NaN, 3, 4)
  expect_equal(as.numeric(op_nanmean(tensor(w))), mean(w, na.rm = TRUE))
  expect_equal(as.numeric(op_nansum(tensor(w))), sum(w, na.rm = TRUE))
  expect_identical(as.integer(op_nanargmax(tensor(w))), 4L)
  expect_equal(as.numeric(op_cumprod(tensor(v))), cumprod(v))
  expect_equal(as.numeric(op_diff(tensor(v))), diff(v))
  expect_equal(as.numeric(op_ptp(tensor(v))), diff(range(v)))
})

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

test_each_backend("fft matches R's fft()", {
  z <- op_fft(list(tensor(v), tensor(v * 0)))
  expect_equal(as.numeric(z[[1]]), Re(fft(v)))
  expect_equal(as.numeric(z[[2]]), Im(fft(v)))
})

test_each_backend("scatter and segments take 1-based positions", {
  expect_equal(as.numeric(op_scatter(matrix(c(1, 3), ncol = 1), c(5, 7), 4)),
               c(5, 0, 7, 0))
  expect_equal(as.numeric(op_segment_sum(c(1, 2, 3), c(1, 1, 2))), c(3, 3))
  expect_equal(op_convert_to_numpy(op_slice_update(tensor(m), c(2, 3),
                                                   tensor(matrix(9, 1, 2)))),
               replace(m, cbind(c(2, 2), c(3, 4)), 9))
  pos <- op_unravel_index(c(2L, 6L), c(2, 3))
  expect_identical(lapply(pos, as.integer), list(c(1L, 2L), c(2L, 3L)))
})

test_each_backend("op_jvp and op_vectorize take R functions", {
  out <- op_jvp(function(a) op_sin(a) * 2, list(tensor(0.5)), list(tensor(3)))
  expect_equal(as.numeric(out[[2]]), cos(0.5) * 2 * 3)
  f <- op_vectorize(function(a, b) a * b + 1)
  expect_equal(as.numeric(f(tensor(v), tensor(2))), v * 2 + 1)
})

test_each_backend("op_rearrange splits and merges axes", {
  x <- op_reshape(tensor(1:24), c(2, 3, 4))
  y <- op_rearrange(x, "b h (w1 w) -> (b w1) h w", w1 = 2)
  expect_identical(op_shape(y), c(4L, 3L, 2L))
  expect_equal(as.numeric(op_ravel(op_rearrange(x, "b h w -> b w h"))),
               as.numeric(op_ravel(op_transpose(x, c(1, 3, 2)))))
})
