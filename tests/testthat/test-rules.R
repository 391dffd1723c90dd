# Rules mean what they say, and messages speak R (issue 12).

# run_r()'s child on the Python (and pycg checkout) of this session
same_python <- function() {
  python <- Sys.getenv("RETICULATE_PYTHON")
  if (nzchar(python)) paste0("RETICULATE_PYTHON=", python) else character()
}

two_outputs <- function(grad) {
  op_custom_gradient(function(x) tuple(list(2 * x, 3 * x), grad))
}

grad_of_sum <- function(f, x) {
  with(gradient_tape() %as% tape, {
    tape$watch(x)
    y <- f(x)
    s <- y[[1]] + y[[2]]
  })
  tape$gradient(s, x)
}

test_each_backend("a grad function(dy) for two outputs is refused, not trimmed", {
  f <- two_outputs(function(dy) dy * 2)
  expect_error(grad_of_sum(f, tensor(1)),
               "f: its gradient function raised TypeError: the R function\\(dy\\) cannot take 2 positional")
  expect_false(py_recording())
})

test_each_backend("a grad taking one upstream per output gets both", {
  f <- two_outputs(function(dy1, dy2) dy1 * 2 + dy2 * 3)
  expect_equal(as.numeric(grad_of_sum(f, tensor(1))), 5)
  g <- two_outputs(function(..., upstream) upstream[[1]] * 2 + upstream[[2]] * 3)
  expect_equal(as.numeric(grad_of_sum(g, tensor(1))), 5)
})

test_each_backend("a grad with too few inputs is refused as in Python", {
  f <- op_custom_gradient(function(x, y) {
    tuple(x * y, function(x, upstream) list(upstream * y, upstream * x))
  })
  x <- tensor(2)
  with(gradient_tape() %as% tape, {
    tape$watch(x)
    z <- f(x, tensor(3))
  })
  expect_error(tape$gradient(z, x), "cannot take 2 positional argument\\(s\\) and upstream")
})

test_each_backend("a custom-gradient forward may return an R array", {
  f <- op_custom_gradient(function(x) {
    tuple(array(c(1, 2, 3)), function(upstream) upstream * 0)
  })
  expect_equal(as.array(f(tensor(1))), array(c(1, 2, 3)))
})

test_each_backend("an error in an R rule names the custom gradient", {
  helper <- function(u) stop("rule broke")
  log1pexp <- op_custom_gradient(function(x) {
    tuple(op_log(1 + op_exp(x)), function(upstream) helper(upstream))
  })
  x <- tensor(1)
  with(gradient_tape() %as% tape, {
    tape$watch(x)
    y <- log1pexp(x)
  })
  calls <- NULL
  err <- tryCatch(withCallingHandlers(
    tape$gradient(y, x),
    error = function(e) calls <<- sys.calls()), error = identity)
  expect_equal(conditionMessage(err),
               "in the gradient of log1pexp: rule broke")
  expect_equal(conditionCall(err), quote(helper(upstream)))
  # the stack R's traceback() reads has the rule's calls under pycg's
  heads <- vapply(calls, function(cl) deparse(cl[[1]])[1], "")
  expect_true(all(c("grad", "helper") %in% heads))
  expect_gt(match("helper", heads), match("grad", heads))
  expect_false(py_recording())
})

test_each_backend("messages use R names and 1-based numbers", {
  expect_error(op_sum(c(1, 2), axis = 3), "^op_sum: axis 3 is out of range")
  expect_error(op_max(c(1, 2), axis = -3), "^op_max: axis -3 is out of range")
  expect_error(op_take(c(1, 2, 3), 6),
               "^op_take: `indices` holds 6, past the last position \\(3\\)")
  expect_error(pycg_grad(function(x) op_sum(x))(1:3),
               paste0("pycg_grad\\(R function\\(x\\)\\): argument 1 \\(`x`\\) ",
                      "has dtype int32.*use c\\(1, 2, 3\\) or as.double\\(\\)"))
  expect_error(pycg_value_and_grad(function(a, b) op_sum(b), argnums = 2)(1, 2L),
               "^pycg_value_and_grad\\(R function\\(a, b\\)\\): argument 2 \\(`b`\\)")
  expect_error(pycg_grad(function(x) x)(c(1, 2)),
               "^pycg_grad\\(R function\\(x\\)\\): the function must return a scalar")
  x <- tensor(c(1, 2))
  with(gradient_tape() %as% tape, {
    tape$watch(x)
    y <- x * 2
  })
  tape$gradient(y, x)
  expect_error(tape$gradient(y, x),
               "tape\\$gradient can only be called once.*gradient_tape\\(persistent = TRUE\\)")
  expect_error(config_set_floatx("float8"), "^config_set_floatx: expected")
  expect_error(pycg:::op_call("no_such_op", 1),
               "^op_no_such_op: the Python module pycg has no ops.no_such_op")
})

test_that("check_gradients names the argument, 1-based", {
  skip_if_no_pycg()
  bad <- op_custom_gradient(function(x, y) {
    tuple(x * y, function(upstream) list(upstream * y, upstream * 0))
  })
  expect_error(check_gradients(function(a, b) op_sum(bad(a, b)),
                               c(1, 2), c(3, 4)),
               "argument 2 \\(`b`\\)")
})

test_each_backend("Python warnings arrive as R warnings", {
  # Python's default filter reports a warning once per message and place,
  # so each expectation below raises a message of its own
  warn <- reticulate::py_run_string(paste(
    "import warnings",
    "def f(x, what):",
    "    warnings.warn('pycg.ops.exp: careful at axis 0 ' + what)",
    "    return x", sep = "\n"), convert = FALSE)
  g <- pycg:::guard(warn$f)
  tag <- config_backend()
  expect_warning(res <- pycg:::py_call(g, 1, paste(tag, "a")),
                 "^op_exp: careful at axis 1 .*a$")
  expect_equal(res, 1)
  expect_silent(suppressWarnings(pycg:::py_call(g, 1, paste(tag, "b"))))
  caught <- tryCatch(pycg:::py_call(g, 1, paste(tag, "c")),
                     warning = conditionMessage)
  expect_equal(caught, paste("op_exp: careful at axis 1", tag, "c"))
})

test_that("distinct pycg_function()s do not warn about retracing", {
  skip_if_no_pycg()
  config_set_backend("tensorflow")
  out <- run_r(c(
    "library(pycg)",
    "config_set_backend('tensorflow')",
    "for (i in 1:8) { f <- pycg_function(function(x) x * 2); f(op_convert_to_tensor(c(1, 2))) }",
    "cat('done\\n')"), env = same_python())
  expect_match(out$output, "done")
  expect_no_match(out$output, "retracing")
})

test_each_backend("R numbers are doubles: one and several agree", {
  expect_equal(config_floatx(), "float64")
  expect_identical(as.numeric(op_exp(1)), as.numeric(op_exp(c(1, 1)))[1])
  expect_identical(as.numeric(op_exp(1)), exp(1))
  x32 <- op_convert_to_tensor(c(1, 2), dtype = "float32")
  expect_match(capture.output(print(x32 * 2))[1], "float32")
  old <- config_set_floatx("float32")
  on.exit(config_set_floatx(old))
  expect_equal(old, "float64")
  expect_match(capture.output(print(op_exp(1)))[1], "float32")
})

test_each_backend("check_numerics() stops at the first NaN gradient", {
  x <- tensor(1000)
  with(gradient_tape(persistent = TRUE) %as% tape, {
    tape$watch(x)
    y <- suppressWarnings(op_log(1 + op_exp(x)))  # numpy: overflow in exp
  })
  expect_error(suppressWarnings(check_numerics(tape$gradient(y, x))),
               "^check_numerics\\(\\): NaN appeared in the gradient for input 1 of op_exp\\(\\)")
  expect_true(is.nan(as.numeric(suppressWarnings(tape$gradient(y, x)))))
  expect_false(py_recording())
})

test_each_backend("tape$explain() says why a gradient is NULL", {
  x <- tensor(1)
  z <- tensor(2)
  with(gradient_tape(persistent = TRUE) %as% tape, {
    tape$watch(x)
    y <- x * 2
  })
  expect_match(tape$explain(y, z), "the source is not watched")
  expect_match(tape$explain(y, x), "connected")
})

test_that("a tensor restored by readRDS() says what to do", {
  skip_if_no_pycg()
  file <- tempfile(fileext = ".rds")
  on.exit(unlink(file))
  out <- run_r(sprintf(paste(
    "library(pycg)",
    "saveRDS(list(x = op_convert_to_tensor(c(1, 2)), v = pycg_variable(1),",
    "  f = op_custom_gradient(function(x) tuple(x, function(dy) dy))), '%s')",
    sep = "\n"), file), env = same_python())
  expect_equal(out$status, 0L, info = out$output)
  saved <- readRDS(file)
  for (obj in list(quote(op_exp(saved$x)), quote(saved$v + 1),
                   quote(saved$f(1)))) {
    expect_error(eval(obj), "saved with saveRDS\\(\\).*as.array\\(x\\)")
  }
  expect_equal(as.numeric(op_exp(0)), 1)
})
