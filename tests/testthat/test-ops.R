test_that("there is an op_<name> for every name in pycg.ops.__all__", {
  skip_if_no_pycg()
  py_names <- pycg:::op_names()
  exported <- sub("^op_", "", grep("^op_", getNamespaceExports("pycg"),
                                   value = TRUE))
  expect_setequal(setdiff(exported, "custom_gradient"), py_names)
})

test_that("the R and Python packages have the same version", {
  skip_if_no_pycg()
  py_version <- reticulate::import("pycg")$`__version__`
  expect_identical(py_version, as.character(utils::packageVersion("pycg")))
})

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

m <- matrix(c(1, 5, 3, 2, 4, 6, 0.5, -1, 7), 3, 3)

test_each_backend("reductions follow R over 1-based axes", {
  x <- tensor(m)
  expect_equal(as.numeric(op_sum(x)), sum(m))
  expect_equal(as.numeric(op_mean(x, axis = 1)), colMeans(m))
  expect_equal(as.numeric(op_prod(x, axis = 2)), apply(m, 1, prod))
  expect_equal(as.numeric(op_max(x, axis = 1)), apply(m, 2, max))
  expect_equal(as.numeric(op_min(x, axis = 2)), apply(m, 1, min))
  expect_equal(as.numeric(op_var(x, axis = 1)),
               apply(m, 2, function(c) mean((c - mean(c))^2)))
  expect_equal(as.numeric(op_std(x)), sqrt(mean((m - mean(m))^2)))
  expect_equal(dim(op_sum(x, axis = 1, keepdims = TRUE)), c(1L, 3L))
  expect_equal(as.numeric(op_cumsum(x, axis = 1)),
               as.numeric(apply(m, 2, cumsum)))
  expect_equal(as.numeric(op_logsumexp(x, axis = 2)),
               log(rowSums(exp(m))), tolerance = 1e-12)
})

test_each_backend("argmax and argmin return 1-based positions", {
  x <- tensor(m)
  expect_identical(as.integer(op_argmax(x, axis = 1)),
                   apply(m, 2, which.max))
  expect_identical(as.integer(op_argmin(x, axis = 2)),
                   apply(m, 1, which.min))
  expect_identical(as.integer(op_argmax(tensor(c(3, 9, 1)))), 2L)
})

test_each_backend("take and take_along_axis use 1-based indices", {
  x <- tensor(m)
  expect_equal(as.array(op_take(x, c(3, 1), axis = 2)), m[, c(3, 1)])
  expect_equal(as.numeric(op_take(tensor(c(10, 20, 30)), 3)), 30)
  idx <- op_argmax(x, axis = 1, keepdims = TRUE)
  expect_equal(as.numeric(op_take_along_axis(x, idx, axis = 1)),
               apply(m, 2, max))
  expect_equal(as.array(op_take(x, tensor(c(2L, 3L), "int32"), axis = 1)),
               m[c(2, 3), ])
})

test_each_backend("where picks values by a condition", {
  x <- tensor(c(-1, 2, -3, 4))
  expect_equal(as.numeric(op_where(x > 0, x, 0)), c(0, 2, 0, 4))
  # (the condition alone: the 1-based positions, as op_nonzero and which())
  expect_equal(as.numeric(op_where(x > 0)[[1]]), which(as.numeric(x) > 0))
  expect_error(op_where(x > 0, x), "pass both x1 and x2, or neither",
               class = "pycg_python_error")
})

test_each_backend("shape ops use 1-based axes", {
  x <- tensor(m[1:2, ])
  mm <- m[1:2, ]
  expect_equal(as.array(op_transpose(x)), t(mm))
  expect_equal(as.array(op_concatenate(list(x, x), axis = 2)), cbind(mm, mm))
  expect_equal(as.array(op_concatenate(list(x, x))), rbind(mm, mm))
  expect_equal(dim(op_stack(list(x, x))), c(2L, 2L, 3L))
  expect_equal(dim(op_stack(list(x, x), axis = 3)), c(2L, 3L, 2L))
  expect_equal(dim(op_expand_dims(x, 1)), c(1L, 2L, 3L))
  expect_equal(dim(op_squeeze(op_expand_dims(x, 3), axis = 3)), c(2L, 3L))
  expect_equal(as.array(op_flip(x, axis = 2)), mm[, 3:1])
  expect_equal(as.array(op_swapaxes(x, 1, 2)), t(mm))
  expect_equal(dim(op_broadcast_to(tensor(c(1, 2, 3)), c(4, 3))), c(4L, 3L))
  expect_equal(as.array(op_tile(tensor(c(1, 2)), 2)), array(c(1, 2, 1, 2)))
  expect_equal(as.numeric(op_repeat(tensor(c(1, 2)), 2)), c(1, 1, 2, 2))
  expect_equal(as.array(op_pad(x, rbind(c(1, 0), c(0, 1)))),
               rbind(0, cbind(mm, 0)))
  parts <- op_split(tensor(1:6 + 0), 3)
  expect_length(parts, 3L)
  expect_equal(as.numeric(parts[[2]]), c(3, 4))
})

test_each_backend("reshape and ravel read row-major, like NumPy", {
  x <- tensor(matrix(1:6 + 0, 2, 3))
  expect_equal(as.numeric(op_ravel(x)), as.numeric(t(matrix(1:6, 2, 3))))
  expect_equal(as.array(op_reshape(x, c(3, 2))),
               t(matrix(as.numeric(t(matrix(1:6, 2, 3))), 2, 3)))
})

test_each_backend("slice and getitem use 1-based positions", {
  x <- tensor(m)
  expect_equal(as.array(op_slice(x, c(2, 1), c(2, 2))), m[2:3, 1:2])
  expect_equal(as.numeric(op_getitem(x, c(3, 2))), m[3, 2])
  expect_equal(as.numeric(op_getitem(x, 2)), m[2, ])
})

test_each_backend("linear algebra matches R", {
  s <- crossprod(m) + diag(3)
  x <- tensor(s)
  expect_equal(as.array(op_matmul(x, tensor(m))), s %*% m)
  expect_equal(as.numeric(op_dot(tensor(a), tensor(b))), sum(a * b))
  expect_equal(as.array(op_outer(tensor(a), tensor(b))), outer(a, b))
  expect_equal(as.numeric(op_det(x)), det(s))
  expect_equal(as.array(op_inv(x)), solve(s), tolerance = 1e-10)
  expect_equal(as.array(op_solve(x, tensor(cbind(a)))),
               unname(solve(s, cbind(a))), tolerance = 1e-10)
  expect_equal(as.array(op_cholesky(x)), t(chol(s)), tolerance = 1e-10)
  sl <- op_slogdet(x)
  expect_equal(as.numeric(sl[[1]]), 1)
  expect_equal(as.numeric(sl[[2]]), log(det(s)))
  expect_equal(as.numeric(op_norm(tensor(a))), sqrt(sum(a^2)))
  expect_equal(as.array(op_einsum("ij,jk->ik", x, tensor(m))), s %*% m)
  expect_equal(as.array(op_tensordot(x, tensor(m), axes = 1)), s %*% m)
  expect_equal(as.numeric(op_tensordot(x, tensor(m),
                                       axes = list(c(1, 2), c(1, 2)))),
               sum(s * m))
})

test_each_backend("creation ops make tensors of the given shape", {
  expect_equal(as.array(op_zeros(c(2, 3))), matrix(0, 2, 3))
  expect_equal(as.array(op_ones(c(2, 2), dtype = "float64")), matrix(1, 2, 2))
  expect_equal(as.array(op_full(c(2, 2), 7)), matrix(7, 2, 2))
  expect_equal(as.array(op_eye(3)), diag(3))
  expect_equal(as.array(op_eye(2, 3, k = 1)), rbind(c(0, 1, 0), c(0, 0, 1)))
  expect_equal(as.numeric(op_arange(0, 1, 0.25)), c(0, 0.25, 0.5, 0.75))
  expect_equal(as.numeric(op_linspace(0, 1, num = 5)), seq(0, 1, by = 0.25))
  expect_equal(as.numeric(op_linspace(0, 1, num = 4, endpoint = FALSE)),
               c(0, 0.25, 0.5, 0.75))
  x <- tensor(m)
  expect_equal(as.array(op_zeros_like(x)), m * 0)
  expect_equal(as.array(op_ones_like(x)), m * 0 + 1)
  expect_equal(as.array(op_full_like(x, 2)), m * 0 + 2)
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

test_each_backend("activations with axes match R", {
  x <- tensor(m)
  sm <- exp(m) / rowSums(exp(m))
  expect_equal(as.array(op_softmax(x)), sm, tolerance = 1e-12)
  expect_equal(as.array(op_log_softmax(x, axis = 1)),
               log(t(t(exp(m)) / colSums(exp(m)))), tolerance = 1e-12)
  expect_equal(as.numeric(op_gelu(tensor(c(0, 1)), approximate = FALSE)),
               c(0, stats::pnorm(1)), tolerance = 1e-7)
})

test_each_backend("a Python error reaches R with the Python message only", {
  err <- expect_error(op_add(tensor(c(1, 2)), tensor(c(1, 2, 3))),
                      class = "pycg_python_error")
  expect_false(grepl("Traceback", conditionMessage(err)))
  expect_lt(length(strsplit(conditionMessage(err), "\n")[[1]]), 4L)
  old <- options(pycg.traceback = TRUE)
  on.exit(options(old))
  err <- expect_error(op_add(tensor(c(1, 2)), tensor(c(1, 2, 3))))
  expect_match(conditionMessage(err), "Python traceback")
})
