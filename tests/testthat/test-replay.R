# pycg_grad() records an R function's calls into pycg once per signature
# and replays them (pycg/r/replay.py, R/replay.R): the replayed gradient is
# the function's at other points, R data in gives R data out (optim()'s
# convention), and whatever R decided from values, its random numbers or
# its variables makes a new record or none. Oracles: central differences in
# plain R, base R's own draws.

# The negative binomial log-likelihood of MASS::glm.nb, on simulated data.
nb_data <- local({
  set.seed(7)
  X <- cbind(1, matrix(rbinom(40 * 2, 1, 0.5), 40))
  list(X = X, y = rnbinom(40, size = 2, mu = exp(X %*% c(1, 0.5, -0.5))))
})
negbin <- local({
  X <- nb_data$X
  y <- nb_data$y
  function(p) {
    beta <- p[1:3]
    theta <- exp(p[4])
    mu <- exp(X %*% beta)
    -sum(lgamma(y + theta) - lgamma(theta) - lgamma(y + 1) +
           theta * log(theta) + y * log(mu) - (theta + y) * log(theta + mu))
  }
})

# How many times f's body ran during expr.
runs <- function(expr) {
  n <- 0L
  withCallingHandlers(expr, message = function(m) {
    if (identical(conditionMessage(m), "ran\n")) {
      n <<- n + 1L
      invokeRestart("muffleMessage")
    }
  })
  n
}

test_each_backend("a replayed gradient is the function's at every point", {
  g <- pycg_grad(negbin)
  for (i in 1:4) {
    p <- c(1, 0.5, -0.5, 0.7) + (i - 2) * 0.2
    expect_equal(g(p), fd_grad(negbin, p), tolerance = 1e-6)
  }
  expect_match(pycg_explain(g), "replayed without R")
})

test_each_backend("R data in gives R data out, so optim() takes it", {
  g <- pycg_grad(negbin)
  p <- c(1, 0.5, -0.5, 0.7)
  expect_true(is.double(g(p)) && is.null(dim(g(p))))
  expect_s3_class(g(tensor(p)), "pycg.tensor.Tensor")
  fit <- optim(p, negbin, g, method = "BFGS")
  numerical <- optim(p, negbin, method = "BFGS")
  expect_equal(fit$convergence, 0L)
  expect_equal(fit$value, numerical$value, tolerance = 1e-6)
  expect_equal(fit$par, numerical$par, tolerance = 1e-3)
})

test_each_backend("the function runs once per signature of its arguments", {
  f <- function(p) {
    message("ran")
    sum(exp(p) * seq_along(p))
  }
  g <- pycg_grad(f)
  expect_equal(runs(for (p in list(c(1, 2), c(0, 3), c(-1, 1))) {
    expect_equal(g(p), exp(p) * 1:2)
  }), 1L)
  expect_equal(runs(expect_equal(g(c(1, 2, 3)), exp(1:3) * 1:3)), 1L)
})

test_each_backend("a branch on a computed value runs the function each call", {
  f <- function(p) {
    message("ran")
    if (as.numeric(op_stop_gradient(sum(p))) > 0) sum(p^2) else sum(p^3)
  }
  g <- pycg_grad(f)
  expect_equal(runs({
    expect_equal(g(c(1, 2)), c(2, 4))
    expect_equal(g(c(-1, -2)), c(3, 12))
  }), 2L)
  expect_match(pycg_explain(g), "converts a tensor computed from its")
})

test_each_backend("a change of an R variable the function reads is seen", {
  w <- c(1, 2)
  scale <- function(x) w * x
  f <- function(p) sum(scale(p^2))
  g <- pycg_grad(f)
  expect_equal(g(c(1, 1)), c(2, 4))
  expect_equal(g(c(1, 1)), c(2, 4))
  w <- c(10, 20)   # read by scale(), which f calls
  expect_equal(g(c(1, 1)), c(20, 40))
})

test_each_backend("R's random numbers are drawn at every call", {
  f <- function(p) sum(p * rnorm(2))
  g <- pycg_grad(f)
  for (seed in 1:3) {
    set.seed(seed)
    got <- g(c(1, 1))
    set.seed(seed)
    expect_equal(got, rnorm(2))
  }
  expect_match(pycg_explain(g), "random numbers")
})

test_each_backend("a function reading an R environment runs each call", {
  state <- new.env()
  state$k <- 2
  f <- function(p) sum(state$k * p)
  g <- pycg_grad(f)
  expect_equal(g(c(1, 1)), c(2, 2))
  state$k <- 5
  expect_equal(g(c(1, 1)), c(5, 5))
  expect_match(pycg_explain(g), "reads the R environment `state`")
})

test_each_backend("options(pycg.replay = FALSE) runs the function each call", {
  old <- options(pycg.replay = FALSE)
  on.exit(options(old))
  f <- function(p) {
    message("ran")
    sum(p^2)
  }
  g <- pycg_grad(f)
  expect_equal(runs(for (i in 1:3) expect_equal(g(c(1, i)), c(2, 2 * i))),
               3L)
  expect_match(pycg_explain(g), "pycg.replay = FALSE")
})

test_each_backend("has_aux and value_and_grad replay too", {
  f <- function(p) tuple(sum(p^2), list(n = length(p)))
  g <- pycg_value_and_grad(f, has_aux = TRUE)
  for (p in list(c(1, 2), c(3, 4))) {
    out <- g(p)
    expect_equal(out[[1L]][[1L]], sum(p^2))
    expect_equal(out[[1L]][[2L]]$n, 2L)
    expect_equal(out[[2L]], 2 * p)
  }
})

test_that("pycg_explain() names what it needs", {
  expect_error(pycg_explain(sum), paste0(
    "pycg_explain\\(\\): `g` must be a function made by pycg_grad\\(\\) ",
    "or pycg_value_and_grad\\(\\), not"))
})

test_each_backend("a record compiled after its first calls gives the same gradient", {
  g <- pycg_grad(negbin)
  p <- c(1, 0.5, -0.5, 0.7)
  for (i in 1:52) g(p)
  for (shift in c(-0.3, 0.4)) {
    expect_equal(g(p + shift), fd_grad(negbin, p + shift), tolerance = 1e-6)
  }
  expect_match(pycg_explain(g), if (pycg:::config_backend() %in%
                                     c("tensorflow", "jax"))
    "compiled \\(" else "eagerly")
})
