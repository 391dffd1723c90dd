# Optimizer steps from R against the update formulas computed in R.

quadratic_grad <- function(w) pycg_grad(function(w) op_sum(w^2))(w)

test_each_backend("SGD with momentum follows the heavy-ball recurrence", {
  w0 <- c(3, -2)
  lr <- 0.1
  m <- 0.9
  w <- pycg_variable(w0)
  opt <- optimizer_sgd(learning_rate = lr, momentum = m)
  for (i in 1:5) optimizer_apply(opt, list(quadratic_grad(w)), list(w))
  expected <- w0
  velocity <- c(0, 0)
  for (i in 1:5) {
    velocity <- m * velocity - lr * 2 * expected
    expected <- expected + velocity
  }
  expect_equal(as.numeric(w), expected, tolerance = 1e-12)
  expect_equal(as.numeric(opt$iterations), 5)
})

test_each_backend("SGD with Nesterov momentum follows its recurrence", {
  w0 <- c(1, 0.5)
  w <- pycg_variable(w0)
  opt <- optimizer_sgd(learning_rate = 0.05, momentum = 0.8, nesterov = TRUE)
  for (i in 1:4) optimizer_apply(opt, list(quadratic_grad(w)), list(w))
  expected <- w0
  velocity <- 0
  for (i in 1:4) {
    g <- 2 * expected
    velocity <- 0.8 * velocity - 0.05 * g
    expected <- expected + 0.8 * velocity - 0.05 * g
  }
  expect_equal(as.numeric(w), expected, tolerance = 1e-12)
})

test_each_backend("Adam's first step is learning_rate times the sign", {
  w <- pycg_variable(c(1, -1, 2))
  g <- c(3, -0.5, 1e-3)
  optimizer_apply(optimizer_adam(learning_rate = 0.1), list(g), list(w))
  # m = 0.1 g, v = 0.001 g^2: step = lr sqrt(.001) g / (sqrt(.001) |g| + eps)
  step <- 0.1 * sqrt(0.001) * g / (sqrt(0.001) * abs(g) + 1e-7)
  expect_equal(as.numeric(w), c(1, -1, 2) - step, tolerance = 1e-12)
  expect_equal(as.numeric(w), c(0.9, -0.9, 1.9), tolerance = 1e-3)
})

test_each_backend("Adam follows the bias-corrected moment recurrences", {
  w0 <- c(0.5, -1.5)
  w <- pycg_variable(w0)
  opt <- optimizer_adam(learning_rate = 0.01, beta_1 = 0.8, beta_2 = 0.99,
                        epsilon = 1e-6)
  for (i in 1:6) optimizer_apply(opt, list(quadratic_grad(w)), list(w))
  expected <- w0
  m <- v <- 0
  for (t in 1:6) {
    g <- 2 * expected
    m <- 0.8 * m + 0.2 * g
    v <- 0.99 * v + 0.01 * g^2
    alpha <- 0.01 * sqrt(1 - 0.99^t) / (1 - 0.8^t)
    expected <- expected - alpha * m / (sqrt(v) + 1e-6)
  }
  expect_equal(as.numeric(w), expected, tolerance = 1e-12)
})

test_each_backend("AdamW decays the weights before the Adam step", {
  w <- pycg_variable(c(2, -4))
  opt <- optimizer_adamw(learning_rate = 0.1, weight_decay = 0.5)
  optimizer_apply(opt, list(c(1, 1)), list(w))
  decayed <- c(2, -4) * (1 - 0.5 * 0.1)
  step <- 0.1 * sqrt(0.001) / (sqrt(0.001) + 1e-7)
  expect_equal(as.numeric(w), decayed - step, tolerance = 1e-12)
})

test_each_backend("RMSprop and Adagrad follow Keras' formulas", {
  g <- c(0.5, -2)
  w <- pycg_variable(c(0, 0))
  opt <- optimizer_rmsprop(learning_rate = 0.01, rho = 0.9)
  optimizer_apply(opt, list(g), list(w))
  optimizer_apply(opt, list(g), list(w))
  v1 <- 0.1 * g^2
  v2 <- 0.9 * v1 + 0.1 * g^2
  expected <- -0.01 * g / sqrt(v1 + 1e-7) - 0.01 * g / sqrt(v2 + 1e-7)
  expect_equal(as.numeric(w), expected, tolerance = 1e-12)

  u <- pycg_variable(c(1, 1))
  ada <- optimizer_adagrad(learning_rate = 0.2,
                           initial_accumulator_value = 0.5)
  optimizer_apply(ada, list(g), list(u))
  expect_equal(as.numeric(u), 1 - 0.2 * g / sqrt(0.5 + g^2 + 1e-7),
               tolerance = 1e-12)
})

test_each_backend("clipnorm rescales the gradient before the step", {
  w <- pycg_variable(c(0, 0))
  opt <- optimizer_sgd(learning_rate = 1, clipnorm = 1)
  optimizer_apply(opt, list(c(3, 4)), list(w))
  expect_equal(as.numeric(w), -c(3, 4) / 5, tolerance = 1e-12)
})

test_each_backend("apply_gradients takes an R list of (gradient, variable)", {
  w <- pycg_variable(c(1, 2))
  b <- pycg_variable(0.5, dtype = "float64")
  opt <- optimizer_sgd(learning_rate = 0.5)
  opt$apply_gradients(list(list(tensor(c(2, 2)), w), list(tensor(1), b)))
  expect_equal(as.numeric(w), c(0, 1))
  expect_equal(as.numeric(b), 0)
  opt$apply(list(tensor(c(2, 2)), tensor(1)), list(w, b))
  expect_equal(as.numeric(w), c(-1, 0))
})

test_each_backend("optimizer_apply trains several variables from a tape", {
  x <- tensor(c(1, 2, 3, 4))
  y <- tensor(c(3, 5, 7, 9))  # y = 2 x + 1
  w <- pycg_variable(0, dtype = "float64")
  b <- pycg_variable(0, dtype = "float64")
  opt <- optimizer_adam(learning_rate = 0.1)
  for (i in 1:400) {
    with(gradient_tape() %as% tape, loss <- op_mean((w * x + b - y)^2))
    optimizer_apply(opt, tape$gradient(loss, list(w = w, b = b)),
                    list(w, b))
  }
  expect_equal(c(as.numeric(w), as.numeric(b)), c(2, 1), tolerance = 1e-2)
})

test_that("optimizer errors name the argument and the R function", {
  skip_if_no_pycg()
  expect_error(optimizer_sgd(momentum = 2), "`momentum` must be a float")
  expect_error(optimizer_adam(bogus = 1), "unknown argument `bogus`")
  expect_error(optimizer_sgd(clipnorm = 1, clipvalue = 1),
               "only one of `clipnorm`")
  w <- pycg_variable(c(1, 2))
  expect_error(optimizer_apply(optimizer_sgd(), list(1, 2), list(w)),
               "optimizer_apply: `grads` has 2 gradients but `vars` has 1")
  expect_error(optimizer_apply(optimizer_sgd(), list(c(1, 2, 3)), list(w)),
               "has shape c\\(3\\) but the variable has shape c\\(2\\)$")
})

test_each_backend("optimizer_apply updates the variables of each call", {
  # the Python list of a list of variables is remembered for the same list:
  # another list, or the same list with one variable swapped, is new
  u <- pycg_variable(c(1, 2))
  v <- pycg_variable(c(10, 20))
  w <- pycg_variable(c(5, 5))
  sgd_u <- optimizer_sgd(learning_rate = 1)
  sgd_v <- optimizer_sgd(learning_rate = 1)
  optimizer_apply(sgd_u, list(c(1, 1)), list(u))
  optimizer_apply(sgd_v, list(c(1, 1)), list(v))
  optimizer_apply(sgd_u, list(c(1, 1)), list(u))
  expect_equal(as.numeric(u), c(-1, 0))
  expect_equal(as.numeric(v), c(9, 19))
  both <- list(u, w)
  sgd_both <- optimizer_sgd(learning_rate = 1)
  optimizer_apply(sgd_both, list(c(1, 1), c(2, 2)), both)
  both[[2L]] <- v
  expect_error(optimizer_apply(sgd_both, list(c(1, 1), c(2, 2)), both),
               "optimizer_apply")
  expect_equal(as.numeric(w), c(3, 3))
  expect_equal(as.numeric(v), c(9, 19))
})
