m <- matrix(c(1.5, -2, 3, 0.25, 5, -6), 2, 3)

test_each_backend("arithmetic takes tensors and R numbers on either side", {
  x <- tensor(m)
  expect_equal(as.array(x + 1), m + 1)
  expect_equal(as.array(1 + x), 1 + m)
  expect_equal(as.array(x - 2), m - 2)
  expect_equal(as.array(2 - x), 2 - m)
  expect_equal(as.array(x * 3), m * 3)
  expect_equal(as.array(3 / x), 3 / m)
  expect_equal(as.array(x / x), m / m)
  expect_equal(as.array(x^2), m^2)
  expect_equal(as.array(2^x), 2^m)
  expect_equal(as.array(-x), -m)
  expect_equal(as.array(+x), m)
  expect_equal(as.array(x * m), m * m)
})

test_each_backend("%% and %/% follow R's sign rules", {
  v <- c(-7, -2.5, 3, 7.5)
  x <- tensor(v)
  expect_equal(as.numeric(x %% 3), v %% 3)
  expect_equal(as.numeric(x %% -3), v %% -3)
  expect_equal(as.numeric(x %/% 2), v %/% 2)
})

test_each_backend("comparisons and logic give logical tensors", {
  x <- tensor(m)
  expect_identical(as.array(x > 0), m > 0)
  expect_identical(as.array(0 >= x), 0 >= m)
  expect_identical(as.array(x == 3), m == 3)
  expect_identical(as.array(x != 3), m != 3)
  expect_identical(as.array(x < 1 | x > 4), m < 1 | m > 4)
  expect_identical(as.array(x > 0 & x < 4), m > 0 & m < 4)
  expect_identical(as.array(!(x > 0)), !(m > 0))
})

test_each_backend("Math generics apply elementwise", {
  p <- abs(m) + 0.5
  x <- tensor(p)
  expect_equal(as.array(exp(x)), exp(p))
  expect_equal(as.array(log(x)), log(p))
  expect_equal(as.array(log(x, base = 2)), log(p, base = 2))
  expect_equal(as.array(sqrt(x)), sqrt(p))
  expect_equal(as.array(abs(tensor(m))), abs(m))
  expect_equal(as.array(tanh(x)), tanh(p))
  expect_equal(as.array(sin(x)), sin(p))
  expect_equal(as.array(cos(x)), cos(p))
  expect_equal(as.array(floor(tensor(m))), floor(m))
  expect_equal(as.array(ceiling(tensor(m))), ceiling(m))
  expect_equal(as.array(sign(tensor(m))), sign(m))
  expect_equal(as.array(expm1(x)), expm1(p))
  expect_equal(as.array(log1p(x)), log1p(p))
  expect_equal(as.array(atan(x)), atan(p))
  expect_equal(as.array(round(tensor(c(1.234, -5.678)), 1)),
               array(c(1.2, -5.7)))
})

test_each_backend("cumsum follows R's column-major order", {
  expect_equal(as.numeric(cumsum(tensor(m))), cumsum(m))
})

test_each_backend("sum, max and min reduce to a scalar tensor", {
  x <- tensor(m)
  expect_equal(as.numeric(sum(x)), sum(m))
  expect_equal(as.numeric(max(x)), max(m))
  expect_equal(as.numeric(min(x)), min(m))
  expect_equal(as.numeric(prod(x)), prod(m))
  expect_equal(as.numeric(sum(x, x, 1)), 2 * sum(m) + 1)
  expect_equal(as.numeric(max(x, 10)), 10)
  expect_equal(as.numeric(mean(x)), mean(m))
})

test_each_backend("sum() of a tensor is differentiable", {
  x <- tensor(m)
  with(gradient_tape() %as% tape, {
    tape$watch(x)
    y <- sum(x * x)
  })
  expect_equal(as.array(tape$gradient(y, x)), 2 * m)
})

test_each_backend("%*% multiplies tensors and R matrices", {
  a <- matrix(c(1, 2, 3, 4, 5, 6), 2)
  b <- matrix(c(1, 0, -1, 2, 1, 1), 3)
  expect_equal(as.array(tensor(a) %*% tensor(b)), a %*% b)
  expect_equal(as.array(tensor(a) %*% b), a %*% b)
  expect_equal(as.array(a %*% tensor(b)), a %*% b)
  expect_equal(as.array(t(tensor(a))), t(a))
  expect_identical(a %*% b, base::`%*%`(a, b))
})

test_each_backend("[ uses R's 1-based rules", {
  a <- array(seq_len(24) + 0.5, c(2, 3, 4))
  x <- tensor(a)
  expect_equal(as.array(x[2, , ]), a[2, , ])
  expect_equal(as.array(x[, 2:3, 4]), a[, 2:3, 4])
  expect_equal(as.array(x[-1, -2, c(1, 3)]), a[-1, -2, c(1, 3)])
  expect_equal(as.array(x[c(TRUE, FALSE), , ]), a[c(TRUE, FALSE), , ])
  expect_equal(as.numeric(x[1, 1, 1]), a[1, 1, 1])
  expect_null(dim(x[1, 1, 1]))
  expect_equal(as.array(x[1, , , drop = FALSE]), a[1, , , drop = FALSE])
  expect_equal(as.array(x[, 3, ]), a[, 3, ])
  i <- 2
  expect_equal(as.numeric(x[i, i, i]), a[i, i, i])
})

test_each_backend("[ with one index uses column-major order", {
  x <- tensor(m)
  expect_equal(as.numeric(x[c(1, 4, 6)]), m[c(1, 4, 6)])
  expect_equal(as.numeric(x[m > 0]), m[m > 0])
  v <- tensor(c(10, 20, 30))
  expect_equal(as.numeric(v[-2]), c(10, 30))
  expect_equal(as.array(x[]), m)
})

test_each_backend("[ errors follow R", {
  x <- tensor(m)
  expect_error(x[3, 1], "subscript out of bounds")
  expect_error(x[1, 1, 1], "incorrect number of dimensions")
  expect_error(x[c(-1, 1), 1], "can't mix positive and negative")
})

test_each_backend("[ is differentiable", {
  x <- tensor(m)
  with(gradient_tape() %as% tape, {
    tape$watch(x)
    y <- sum(x[2, c(1, 3)])
  })
  expected <- matrix(0, 2, 3)
  expected[2, c(1, 3)] <- 1
  expect_equal(as.array(tape$gradient(y, x)), expected)
})

test_each_backend("dim, length and conversions describe the tensor", {
  x <- tensor(array(0, c(2, 3, 4)))
  expect_identical(dim(x), c(2L, 3L, 4L))
  expect_identical(length(x), 24L)
  expect_null(dim(tensor(1)))
  expect_identical(length(tensor(1)), 1L)
  expect_identical(as.integer(tensor(c(1.9, -2.2))), c(1L, -2L))
  expect_identical(as.logical(tensor(c(0, 2))), c(FALSE, TRUE))
  expect_identical(as.double(tensor(m)), as.double(m))
})

test_each_backend("print shows dtype, shape and values; format() is base R's", {
  m <- matrix(c(1, 2, 3, 4), 2)
  x <- tensor(m)
  out <- capture.output(print(x))
  expect_identical(out[1], "<pycg Tensor float64 [2 x 2]>")
  expect_identical(out[-1], utils::capture.output(print(m)))
  expect_identical(capture.output(print(op_convert_to_tensor(2L)))[1],
                   "<pycg Tensor int32 scalar>")
  v_r <- c(1.23456, 2, 1e-8)
  expect_identical(format(x), format(m))
  expect_identical(format(tensor(v_r), digits = 3), format(v_r, digits = 3))
  expect_identical(format(tensor(v_r), nsmall = 2), format(v_r, nsmall = 2))
  expect_identical(capture.output(print(tensor(v_r), digits = 3))[-1],
                   capture.output(print(v_r, digits = 3)))
})
