# The elementwise wrappers (R/ops-elementwise.R, with cast and stop_gradient of
# R/ops-core.R) against R's own functions and finite differences.

erf <- function(x) 2 * stats::pnorm(x * sqrt(2)) - 1
unary_oracles <- list(
  abs = abs, arccos = acos, arcsin = asin, arctan = atan, ceil = ceiling,
  cos = cos, cosh = cosh, erf = erf, exp = exp, expm1 = expm1, floor = floor,
  log = log, log10 = log10, log1p = log1p, log2 = log2, negative = `-`,
  reciprocal = function(x) 1 / x, rsqrt = function(x) 1 / sqrt(x),
  sign = sign, sin = sin, sinh = sinh, sqrt = sqrt,
  square = function(x) x^2, tan = tan, tanh = tanh,
  sigmoid = function(x) 1 / (1 + exp(-x)), softplus = function(x) log1p(exp(x)),
  relu = function(x) pmax(x, 0), silu = function(x) x / (1 + exp(-x)),
  elu = function(x) ifelse(x > 0, x, expm1(x)))
smooth <- setdiff(names(unary_oracles), c("ceil", "floor", "sign"))
v <- c(0.15, 0.35, 0.8)

test_each_backend("unary ops match R's functions", {
  for (name in names(unary_oracles)) {
    op <- get(paste0("op_", name))
    expect_equal(as.numeric(op(tensor(v))), unary_oracles[[name]](v),
                 tolerance = 1e-12, label = name)
  }
  expect_identical(as.logical(op_isnan(tensor(c(NaN, 1)))), c(TRUE, FALSE))
  expect_identical(as.logical(op_isfinite(tensor(c(Inf, 1)))), c(FALSE, TRUE))
  expect_identical(as.logical(op_logical_not(c(TRUE, FALSE))), c(FALSE, TRUE))
})

test_each_backend("unary op gradients match finite differences in R", {
  for (name in smooth) {
    op <- get(paste0("op_", name))
    x <- tensor(v)
    with(gradient_tape() %as% tape, {
      tape$watch(x)
      y <- op_sum(op(x))
    })
    expect_equal(as.numeric(tape$gradient(y, x)),
                 fd_grad(function(u) sum(unary_oracles[[name]](u)), v),
                 tolerance = 1e-6, label = name)
  }
})

binary_oracles <- list(
  add = `+`, subtract = `-`, multiply = `*`, divide = `/`, true_divide = `/`,
  power = `^`, maximum = pmax, minimum = pmin, arctan2 = atan2,
  logaddexp = function(a, b) log(exp(a) + exp(b)))
a <- c(0.5, 2, 1.5)
b <- c(1.25, 0.75, 1.5)

test_each_backend("binary ops match R and broadcast R numbers", {
  for (name in names(binary_oracles)) {
    op <- get(paste0("op_", name))
    expect_equal(as.numeric(op(tensor(a), tensor(b))),
                 binary_oracles[[name]](a, b), tolerance = 1e-12, label = name)
    expect_equal(as.numeric(op(tensor(a), 2)), binary_oracles[[name]](a, 2),
                 tolerance = 1e-6, label = name)
  }
  expect_identical(as.logical(op_equal(tensor(a), tensor(b))), a == b)
  expect_identical(as.logical(op_not_equal(tensor(a), tensor(b))), a != b)
  expect_identical(as.logical(op_greater(tensor(a), tensor(b))), a > b)
  expect_identical(as.logical(op_greater_equal(tensor(a), tensor(b))), a >= b)
  expect_identical(as.logical(op_less(tensor(a), tensor(b))), a < b)
  expect_identical(as.logical(op_less_equal(tensor(a), tensor(b))), a <= b)
  expect_identical(as.logical(op_logical_and(a > 1, b > 1)), a > 1 & b > 1)
  expect_identical(as.logical(op_logical_or(a > 1, b > 1)), a > 1 | b > 1)
})

test_each_backend("binary op gradients match finite differences in R", {
  smooth_binary <- setdiff(names(binary_oracles), c("maximum", "minimum"))
  for (name in smooth_binary) {
    op <- get(paste0("op_", name))
    x1 <- tensor(a)
    x2 <- tensor(b)
    with(gradient_tape() %as% tape, {
      tape$watch(list(x1, x2))
      y <- op_sum(op(x1, x2))
    })
    g <- tape$gradient(y, list(x1, x2))
    f <- binary_oracles[[name]]
    expect_equal(as.numeric(g[[1]]), fd_grad(function(u) sum(f(u, b)), a),
                 tolerance = 1e-6, label = name)
    expect_equal(as.numeric(g[[2]]), fd_grad(function(u) sum(f(a, u)), b),
                 tolerance = 1e-6, label = name)
  }
})

test_each_backend("cast, clip, round and stop_gradient", {
  expect_match(capture.output(print(op_cast(tensor(c(1.7, 2)), "int32")))[1], "int32")
  expect_equal(as.numeric(op_clip(tensor(c(-2, 0.5, 3)), 0, 1)), c(0, 0.5, 1))
  expect_equal(as.numeric(op_round(tensor(c(1.26, -3.14159)), 2)),
               c(1.26, -3.14))
  x <- tensor(2)
  with(gradient_tape() %as% tape, {
    tape$watch(x)
    y <- x * op_stop_gradient(x)
  })
  expect_equal(as.numeric(tape$gradient(y, x)), 2)
})
