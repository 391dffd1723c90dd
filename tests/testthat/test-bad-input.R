# Bad input to the ops, pycg_grad() and tapes: an R error naming the R
# function (and the argument where R knows it), nothing left recording on a
# tape, and R usable after.

bad_inputs <- list(
  "data.frame" = list(value = data.frame(a = c(1, 2)),
                      says = "not a data.frame; use as.matrix\\(\\)"),
  factor = list(value = factor(c("a", "b")),
                says = "not a factor; use as.numeric\\(as.character"),
  character = list(value = c("a", "b"),
                   says = "expected numbers or arrays of numbers"),
  string = list(value = "a", says = "got the string 'a'"),
  list = list(value = list(1, "a"), says = "expected numbers"),
  "NULL" = list(value = NULL, says = "got NULL"),
  "integer NA" = list(value = c(1L, NA),
                      says = "no integer or logical NA; use a double vector"))

still_usable <- function() {
  expect_false(py_recording())
  expect_equal(as.numeric(pycg_grad(function(x) op_sum(x^2))(c(1, 2))),
               c(2, 4))
}

test_each_backend("bad input to an op names the op", {
  for (case in names(bad_inputs)) {
    bad <- bad_inputs[[case]]
    expect_error(op_exp(bad$value), paste0("^op_exp: .*", bad$says),
                 info = case)
    expect_error(op_sum(bad$value, axis = 1), "^op_sum: ", info = case)
  }
  expect_error(op_sum(data.frame(a = 1)), "^op_sum: `x` must be numbers")
  expect_error(op_add(c(1, 2), factor("a")), "^op_add: `x2` must be numbers")
  still_usable()
})

test_each_backend("bad input to pycg_grad() names pycg_grad", {
  df <- pycg_grad(function(x) op_sum(x * x))
  for (case in names(bad_inputs)) {
    bad <- bad_inputs[[case]]
    expect_error(df(bad$value), "^pycg_grad", info = case)
  }
  expect_error(df(1:3), "integer vector such as 1:3 is int32: use c\\(1, 2, 3\\)")
  expect_error(pycg_grad("f"), "`f` must be an R function")
  expect_error(pycg_grad(function(x) x, argnums = 0), "`argnums` must be 1-based")
  still_usable()
})

test_each_backend("bad input inside a tape leaves nothing recording", {
  x <- tensor(c(1, 2))
  for (case in names(bad_inputs)) {
    bad <- bad_inputs[[case]]
    expect_error(with(gradient_tape() %as% tape, {
      tape$watch(x)
      y <- x * op_exp(bad$value)
    }), "op_exp", info = case)
    expect_false(py_recording())
  }
  with(gradient_tape(persistent = TRUE) %as% tape, {
    tape$watch(x)
    y <- op_sum(x^2)
  })
  expect_error(tape$watch(data.frame(a = 1)), "^tape\\$watch: .*data.frame")
  expect_error(tape$gradient(y, "x"), "^tape\\$gradient: ")
  expect_error(tape$gradient(y, NULL), "^tape\\$gradient: .*got NULL")
  expect_error(tape$jacobian(y, factor("a")), "^tape\\$jacobian: .*factor")
  expect_equal(as.numeric(tape$gradient(y, x)), c(2, 4))
  still_usable()
})

test_each_backend("bad input to check_gradients names it", {
  expect_error(check_gradients(function(x) op_sum(x), data.frame(a = 1)),
               "^check_gradients: .*data.frame")
  expect_error(check_gradients(function(x) op_sum(x), c(1L, NA)),
               "^check_gradients: .*integer or logical NA")
  expect_error(check_gradients("f", 1), "`f` must be an R function")
  still_usable()
})

test_each_backend("a dtype and integers out of range name the R function", {
  expect_error(op_convert_to_tensor(1:2, dtype = "floot32"),
               "^op_convert_to_tensor: dtype 'floot32' is not a dtype")
  expect_error(op_cast(c(1, 2), "floot32"),
               "^op_cast: dtype 'floot32' is not a dtype")
  small <- op_convert_to_tensor(1:2, dtype = "uint8")
  expect_error(op_add(small, -2L),
               "^op_add: the Python int -2 does not fit the tensor's dtype uint8")
  expect_error(op_power(op_convert_to_tensor(1:2, dtype = "int32"), -1L),
               "^op_power: an integer base to a negative integer power")
  still_usable()
})

test_each_backend("logical and integer vectors as keras.ops takes them", {
  expect_identical(as.integer(as.array(op_sum(c(TRUE, FALSE, TRUE)))), 2L)
  expect_equal(as.vector(as.array(op_add(c(TRUE, FALSE), 2L))), c(3, 2))
  ints <- op_convert_to_tensor(matrix(1:4, 2), dtype = "int16")
  expect_equal(as.array(op_matmul(ints, ints)),
               matrix(1:4, 2) %*% matrix(1:4, 2))
  expect_equal(as.vector(as.array(op_floor(op_convert_to_tensor(1:3, dtype = "int32")))),
               c(1, 2, 3))
})

test_each_backend("NA, Date and factor labels and conditions are R errors", {
  # base R: c(1, NA, 2) has no class at position 2, a Date is no label
  expect_error(op_one_hot(c(1, NA, 2), 3),
               "^op_one_hot: `x` is NA at position 2; positions and labels")
  expect_error(op_one_hot(as.Date("2020-01-01"), 3),
               "^op_one_hot: `x` must be whole numbers .*not an R Date")
  expect_error(op_one_hot(factor(c("a", "b")), 3),
               "^op_one_hot: `x` must be whole numbers .*not a factor")
  expect_error(op_take(c(10, 20, 30), NA_real_),
               "^op_take: `indices` is NA at position 1")
  # base R: ifelse(c(1, NA, 3), 1, 0) is c(1, NA, 1): an NA pycg has not
  expect_identical(ifelse(c(1, NA, 3), 1, 0), c(1, NA, 1))
  expect_error(op_where(c(1, NA, 3), 1, 0),
               "^op_where: `condition` is NA at position 2; a condition must")
  expect_error(op_where(c(TRUE, NA), 1, 0),
               "^op_where: `condition` is NA at position 2")
  expect_equal(as.numeric(op_where(c(1, 0, 3), 1, 0)), ifelse(c(1, 0, 3), 1, 0))
  expect_equal(as.array(op_one_hot(c(2, 1), 3)),
               rbind(c(0, 1, 0), c(1, 0, 0)))
})
