test_each_backend("matrices keep their layout and values both ways", {
  m <- matrix(c(1.5, -2, 3.25, 4, 5, 6e10), 2, 3)
  x <- op_convert_to_tensor(m)
  expect_equal(dim(x), c(2L, 3L))
  expect_identical(as.array(x), m)
  expect_identical(op_convert_to_numpy(x), m)
})

test_each_backend("3-d arrays keep their layout", {
  a <- array(seq_len(24) / 7, c(2, 3, 4))
  x <- op_convert_to_tensor(a)
  expect_equal(dim(x), c(2L, 3L, 4L))
  expect_identical(as.array(x), a)
  expect_equal(as.numeric(op_take(x, 3, axis = 3)), as.numeric(a[, , 3]))
})

test_each_backend("R types map to float64, int32 and bool", {
  expect_equal(op_convert_to_numpy(op_cast(tensor(c(1, 2)), "float64")),
               array(c(1, 2)))
  i <- op_convert_to_tensor(matrix(1:6, 2))
  expect_identical(as.array(i), matrix(1:6, 2))
  b <- op_convert_to_tensor(c(TRUE, FALSE, TRUE))
  expect_identical(as.logical(b), c(TRUE, FALSE, TRUE))
  expect_match(capture.output(print(i))[1], "int32")
  expect_match(capture.output(print(b))[1], "bool")
  expect_match(capture.output(print(op_convert_to_tensor(c(1, 2))))[1], "float64")
})

test_each_backend("R scalars follow Python's number rules", {
  # floatx is float64 when the R package starts Python (R/config.R)
  expect_match(capture.output(print(op_convert_to_tensor(2.5)))[1], "float64 scalar")
  expect_match(capture.output(print(op_convert_to_tensor(2L)))[1], "int32 scalar")
  expect_match(capture.output(print(op_convert_to_tensor(2.5,
                                                      dtype = "float64")))[1],
               "float64")
  expect_identical(op_convert_to_numpy(op_convert_to_tensor(2.5)), 2.5)
})

test_each_backend("float32 values come back as R doubles", {
  x <- op_convert_to_tensor(matrix(c(0.5, 1.25, -3, 8), 2), dtype = "float32")
  expect_identical(as.array(x), matrix(c(0.5, 1.25, -3, 8), 2))
})

test_each_backend("vectors become 1-d tensors, R vectors again (dim NULL)", {
  x <- op_convert_to_tensor(c(3, 1, 2))
  expect_null(dim(x))   # as dim(c(3, 1, 2))
  expect_identical(as.array(x), array(c(3, 1, 2)))
  expect_identical(as.numeric(x), c(3, 1, 2))
  expect_identical(length(x), 3L)
})

test_each_backend("empty and large arrays convert", {
  expect_identical(length(op_convert_to_tensor(numeric(0))), 0L)
  big <- matrix(stats::rnorm(2e5), 400)
  expect_identical(as.array(op_convert_to_tensor(big)), big)
})

test_each_backend("NaN and Inf survive the round trip", {
  v <- c(NaN, Inf, -Inf, 1)
  expect_identical(as.numeric(op_convert_to_tensor(v)), v)
})

test_that("integer NA is refused with a clear error", {
  skip_if_no_pycg()
  expect_error(op_convert_to_tensor(c(1L, NA)),
               "no integer or logical NA")
})

test_that("strings and factors are refused with a clear error", {
  skip_if_no_pycg()
  expect_error(op_exp(factor("a")), "^op_exp: `x` must be numbers.*not a factor")
  expect_error(op_exp(Sys.Date()), "^op_exp: `x` must be numbers.*not an R Date")
})

test_each_backend("axes are 1-based, negative counts from the end", {
  m <- matrix(1:6 + 0, 2, 3)
  x <- op_convert_to_tensor(m)
  expect_equal(as.numeric(op_sum(x, axis = 1)), colSums(m))
  expect_equal(as.numeric(op_sum(x, axis = 2)), rowSums(m))
  expect_equal(as.numeric(op_sum(x, axis = -1)), rowSums(m))
  expect_equal(as.numeric(op_sum(x, axis = c(1, 2))), sum(m))
  expect_error(op_sum(x, axis = 0), "`axis` is 1-based")
})

test_each_backend("shapes are R integer vectors", {
  x <- op_zeros(c(2, 3, 4))
  expect_identical(op_shape(x), c(2L, 3L, 4L))
  expect_identical(dim(op_reshape(x, c(6, -1))), c(6L, 4L))
  expect_identical(op_shape(op_convert_to_tensor(1)), integer(0))
})

# What Python receives from the R package: as_py()'s envelope, decoded as
# every call into pycg decodes it (pycg/r/envelope.py). The same rules hold
# for pycg.r (Python calling R): tests/test_r_bridge.py.
in_python <- function(x) {
  describe <- reticulate::py_run_string(paste0(
    "def describe(x):\n",
    "    return type(x).__name__ + ' ' + repr(getattr(x, 'shape', x))"),
    convert = FALSE)$describe
  guarded <- pycg:::interop()$guard(describe)
  reticulate::py_to_r(reticulate::py_call(guarded, pycg:::as_py(x)))
}

test_that("a length-1 R number arrives as a Python number, a vector as a tensor", {
  skip_if_no_pycg()
  expect_identical(in_python(2.5), "float 2.5")
  expect_identical(in_python(2L), "int 2")
  expect_identical(in_python(TRUE), "bool True")
  expect_identical(in_python(NA_real_), "float nan")
  expect_identical(in_python(c(1, 2)), "Tensor (2,)")
  expect_identical(in_python(matrix(2.5)), "Tensor (1, 1)")
})

test_that("strings, lists and tuples arrive as str, list, dict and tuple", {
  skip_if_no_pycg()
  expect_identical(in_python("a"), "str 'a'")
  expect_identical(in_python(c("a", "b")), "list ['a', 'b']")
  expect_identical(in_python(list(1, "b")), "list [1.0, 'b']")
  expect_identical(in_python(list(a = 1L, b = "x")), "dict {'a': 1, 'b': 'x'}")
  expect_identical(in_python(tuple(1L, "b")), "tuple (1, 'b')")
})

test_that("values Python has no form for are refused, naming the argument", {
  skip_if_no_pycg()
  v <- c("a", NA)
  expect_error(pycg:::as_py(v), "`v` is NA at position 2; Python strings")
  expect_error(pycg:::as_py(NA), "no integer or logical NA")
  l <- list(1, b = 2)
  expect_error(pycg:::as_py(l), "`l` is a list with element 1 unnamed")
  d <- list(a = 1, a = 2)
  expect_error(pycg:::as_py(d), "`d` is a list with the name `a` twice")
})
