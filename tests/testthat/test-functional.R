test_each_backend("pycg_grad differentiates an R function", {
  df <- pycg_grad(function(x) op_sum(x^2 + sin(x)))
  v <- c(0.2, 1.7)
  expect_equal(as.numeric(df(tensor(v))), 2 * v + cos(v), tolerance = 1e-12)
})

test_each_backend("argnums is 1-based and may pick several arguments", {
  f <- function(x, y) op_sum(x * y^2)
  gy <- pycg_grad(f, argnums = 2)
  expect_equal(as.numeric(gy(tensor(3), tensor(2))), 12)
  g12 <- pycg_grad(f, argnums = 1:2)(tensor(3), tensor(2))
  expect_length(g12, 2L)
  expect_equal(c(as.numeric(g12[[1]]), as.numeric(g12[[2]])), c(4, 12))
})

test_each_backend("pycg_value_and_grad returns the value and the gradient", {
  vg <- pycg_value_and_grad(function(x) op_sum(exp(x)))
  res <- vg(tensor(c(0, 1)))
  expect_equal(as.numeric(res[[1]]), sum(exp(c(0, 1))))
  expect_equal(as.numeric(res[[2]]), exp(c(0, 1)))
})

test_each_backend("has_aux passes an auxiliary value through", {
  f <- function(x) tuple(op_sum(x^2), x * 10)
  res <- pycg_grad(f, has_aux = TRUE)(tensor(c(1, 2)))
  expect_equal(as.numeric(res[[1]]), c(2, 4))
  expect_equal(as.numeric(res[[2]]), c(10, 20))
})

test_each_backend("pycg_grad accepts R numbers and arrays", {
  df <- pycg_grad(function(x) op_sum(x^3))
  expect_equal(as.numeric(df(c(1, 2))), c(3, 12))
  expect_equal(as.numeric(df(2)), 12, tolerance = 1e-6)
})

test_each_backend("pycg_grad works through custom gradients", {
  clipped <- op_custom_gradient(function(x) {
    tuple(x * 1, function(upstream) op_clip(upstream, -1, 1))
  })
  df <- pycg_grad(function(x) op_sum(clipped(x) * 5))
  expect_equal(as.numeric(df(tensor(c(1, 2)))), c(1, 1))
})

test_each_backend("an R error in the function reaches R", {
  df <- pycg_grad(function(x) stop("no gradient today"))
  expect_error(df(tensor(1)), "no gradient today")
})

test_each_backend("check_gradients accepts a correct custom gradient", {
  softplus <- op_custom_gradient(function(x) {
    tuple(op_log1p(op_exp(x)), function(upstream) upstream * op_sigmoid(x))
  })
  expect_true(check_gradients(function(x) op_sum(softplus(x)),
                              tensor(c(-1, 0.5, 2))))
})

test_each_backend("check_gradients rejects a wrong custom gradient", {
  wrong <- op_custom_gradient(function(x) {
    tuple(op_sin(x), function(upstream) upstream * 2)
  })
  expect_error(check_gradients(function(x) op_sum(wrong(x)), tensor(c(0.3))),
               class = "pycg_python_error")
})

# The R arrays printed after `label` in a check_gradients() message.
printed_after <- function(message, label) {
  lines <- strsplit(message, "\n")[[1L]]
  start <- match(label, lines) + 1L
  stop_at <- which(seq_along(lines) >= start & !startsWith(lines, "    "))
  end <- if (length(stop_at)) min(stop_at) - 1L else length(lines)
  lines[start:end]
}

as_printed <- function(x) paste0("    ", utils::capture.output(print(x)))

test_each_backend("check_gradients() shows the gradient pycg_grad() gives, as R prints it", {
  half_blind <- function(x) op_sum(x * op_stop_gradient(x))  # truth: 2x
  x <- matrix(c(1, 2, 3, -4), 2)
  err <- tryCatch(check_gradients(half_blind, x), error = identity)
  msg <- conditionMessage(err)
  expect_match(msg, paste0(
    "^check_gradients\\(half_blind\\): the gradient for argument 1 \\(`x`\\) ",
    "differs from finite differences \\(rtol=1e-05, atol=1e-06, eps=1e-06; ",
    "the narrowest precision computed is float64\\)\n  compared: f's ",
    "gradient, as pycg_grad gives it, against central finite differences ",
    "of f; largest difference 4\n"))  # max |2x - x|
  expect_identical(printed_after(msg, "  pycg (analytic):"),
                   as_printed(as.array(pycg_grad(half_blind)(x))))
  expect_identical(printed_after(msg, "  finite differences (numeric):"),
                   as_printed(fd_grad(function(x) sum(2 * x^2) / 2, x)))
})

test_each_backend("check_gradients() of a non-scalar f says what it compared", {
  half_blind <- function(a, b) a * op_stop_gradient(a) + b
  a <- array(c(1, -2, 3, 4, 5, 6), c(3, 2))
  err <- tryCatch(check_gradients(half_blind, a, 1), error = identity)
  msg <- conditionMessage(err)
  expect_match(msg, paste0(
    "the gradient for argument 1 \\(`a`\\) differs.*\n  compared: f's ",
    "output has shape c\\(3, 2\\), so the gradient of sum\\(f\\(...\\) \\* v\\), ",
    "for a fixed random v of that shape, against its central finite ",
    "differences \\(every entry of f's Jacobian counts\\); largest difference ",
    "[0-9.]+\\. Below, f's gradient \\(of the sum of its output, as pycg_grad ",
    "gives it for a scalar\\) and its finite differences:\n"))
  sum_f <- function(a, b) op_sum(half_blind(a, b))
  expect_identical(printed_after(msg, "  pycg (analytic):"),
                   as_printed(as.array(pycg_grad(sum_f)(a, 1))))
  expect_identical(printed_after(msg, "  finite differences (numeric):"),
                   as_printed(round(fd_grad(function(a) sum(a^2), a), 6)))
})

test_each_backend("variables hold, assign and differentiate values", {
  v <- pycg_variable(matrix(c(1, 2, 3, 4), 2), name = "w")
  expect_identical(as.array(v), matrix(c(1, 2, 3, 4), 2))
  expect_match(capture.output(print(v))[1], "Variable float64 \\[2 x 2\\]")
  v$assign(op_convert_to_tensor(matrix(0, 2, 2)))
  expect_identical(as.array(v), matrix(0, 2, 2))
  expect_error(pycg_variable(1L), "floating dtype")
})

test_that("argnums must be positive", {
  expect_error(pycg_grad(function(x) x, argnums = 0), "1-based")
})
