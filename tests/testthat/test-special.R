# Base R's special functions on tensors (R/tensor-special.R, with R's rules
# in pycg.r.base.special) against base R on the same data: values, warnings,
# gradients against base R's own derivatives and finite differences, and
# the likelihoods a statistician writes with them.

# (no subnormal numbers: TensorFlow's CPU kernels flush them to 0)
edges <- c(NaN, Inf, -Inf, 0, -0, -1, -2, -0.5, 0.5, 1, 2, 3.7, -2.5,
           171.7, -171.5, -170.6, 1e-200, 1e-300, 2147483647, -2147483647,
           1.4616321449683622)

# f(...) and its warnings, sorted.
with_warnings <- function(expr) {
  seen <- character()
  value <- withCallingHandlers(expr, warning = function(w) {
    seen <<- c(seen, conditionMessage(w))
    invokeRestart("muffleWarning")
  })
  list(value = value, warnings = sort(unique(seen)))
}

# f on a tensor of `x` gives base R's f(x): value and warnings.
expect_base_r <- function(f, ..., tol = 1e-12) {
  args <- list(...)
  want <- with_warnings(do.call(f, args))
  got <- with_warnings(do.call(f, lapply(args, function(a)
    if (is.numeric(a) && length(a) > 1) tensor(a) else a)))
  expect_true(is_tensor(got$value))
  value <- as.numeric(got$value)
  expect_identical(is.nan(value), is.nan(want$value))
  expect_equal(as.vector(value), as.vector(want$value), tolerance = tol)
  expect_identical(got$warnings, want$warnings)
}

test_each_backend("lgamma, gamma, digamma and trigamma give base R's answers", {
  for (f in list(lgamma, gamma, digamma, trigamma))
    expect_base_r(f, edges)
})

test_each_backend("psigamma(x, deriv) gives base R's answers", {
  for (deriv in c(0, 1, 2, 3, 4, 2.4))
    expect_base_r(function(x) psigamma(x, deriv), edges)
  expect_base_r(function(x) psigamma(x, 101), c(1, 2.5))
  expect_base_r(function(x) psigamma(x, -1), c(1, 2.5))
  expect_error(psigamma(tensor(c(1, 2)), c(1, 2)),
               "`deriv` must be one whole number from 0 to 100")
})

test_each_backend("beta, lbeta, choose and lchoose give base R's answers", {
  a <- c(edges, 7.5, 40, 250)
  for (b in c(2, 0.5, 0, -1, -0.5, Inf, 31.5)) {
    expect_base_r(function(x) beta(x, b), a)
    expect_base_r(function(x) beta(b, x), a)
    expect_base_r(function(x) lbeta(x, b), a, tol = 1e-11)
    expect_base_r(function(x) lbeta(b, x), a, tol = 1e-11)
  }
  n <- c(NaN, Inf, -Inf, 0, -0, 5, 10, 52, 60, -3, 2.5, -1.5, 7.3, 0.5, 100)
  for (k in c(0, 1, 2, 3, -1, 2.5, -0.5, 29, 30, 31, 45, Inf, 171.7))
    expect_base_r(function(x) choose(x, k), n, tol = 1e-13)
  for (k in c(0, 1, 2, 3, -1, 2.5, 29, 30, 31, 45, Inf))
    expect_base_r(function(x) lchoose(x, k), n, tol = 1e-13)
  k <- c(-1, 0, 1, 2, 2.5, 3, 4.49, 7, 30)
  expect_base_r(function(x) choose(10, x), k)
  expect_base_r(function(x) lchoose(-4.5, x), k)
  expect_base_r(function(x, y) choose(x, y), c(10, 52, -3, 2.5),
                c(3, 26, 2, 0.5))
})

test_each_backend("atan2(y, x) takes a tensor on either side", {
  y <- c(1, -1, 0, -0, 2, NaN, Inf)
  x <- c(1, 1, -1, -1, 0, 1, Inf)
  expect_base_r(atan2, y, x)
  expect_equal(as.numeric(atan2(tensor(y), 2)), atan2(y, 2))
  expect_equal(as.numeric(atan2(2, tensor(x))), atan2(2, x))
})

test_each_backend("the special functions' gradients are base R's derivatives", {
  x <- c(0.3, 1.7, 4.2, -0.6, 12.5)
  expect_equal(as.numeric(pycg_grad(function(v) sum(lgamma(v)))(x)),
               digamma(x), tolerance = 1e-10)
  expect_equal(as.numeric(pycg_grad(function(v) sum(digamma(v)))(x)),
               trigamma(x), tolerance = 1e-10)
  expect_equal(as.numeric(pycg_grad(function(v) sum(trigamma(v)))(x)),
               psigamma(x, 2), tolerance = 1e-10)
  expect_equal(as.numeric(pycg_grad(function(v) sum(psigamma(v, 3)))(x)),
               psigamma(x, 4), tolerance = 1e-10)
  expect_equal(as.numeric(pycg_grad(function(v) sum(gamma(v)))(x)),
               gamma(x) * digamma(x), tolerance = 1e-10)
  a <- c(0.4, 2, 7.5, 30)
  expect_equal(as.numeric(pycg_grad(function(v) sum(lbeta(v, 3)))(a)),
               digamma(a) - digamma(a + 3), tolerance = 1e-10)
  expect_equal(as.numeric(pycg_grad(function(v) sum(beta(2, v)))(a)),
               fd_grad(function(u) sum(beta(2, u)), a), tolerance = 1e-6)
  n <- c(-2.5, 0, 1, 2, 3.5, 12.25)
  for (k in c(3, 4))
    expect_equal(as.numeric(pycg_grad(function(v) sum(choose(v, k)))(n)),
                 fd_grad(function(u) sum(choose(u, k)), n), tolerance = 1e-6)
  n <- c(-7.5, 4.5, 12.25, 40.3)   # (R reads 40 +- 1e-6 as 40: no slope)
  expect_equal(as.numeric(pycg_grad(function(v) sum(lchoose(v, 3)))(n)),
               fd_grad(function(u) sum(lchoose(u, 3)), n), tolerance = 1e-6)
})

test_each_backend("a negative binomial log-likelihood is dnbinom's, with its gradient", {
  y <- c(0, 3, 7, 2, 12, 5, 0, 1)
  loglik <- function(p) {
    mu <- exp(p[1])
    size <- exp(p[2])
    sum(lchoose(y + size - 1, y) + size * log(size / (size + mu)) +
          y * log(mu / (size + mu)))
  }
  base <- function(p) sum(dnbinom(y, size = exp(p[2]), mu = exp(p[1]),
                                  log = TRUE))
  p <- c(1.2, 0.4)
  vg <- pycg_value_and_grad(loglik)(p)
  expect_equal(as.numeric(vg[[1]]), base(p), tolerance = 1e-12)
  expect_equal(as.numeric(vg[[2]]), fd_grad(base, p), tolerance = 1e-7)
  # fitted with the tape's gradient, it lands where optim() on dnbinom with
  # finite differences does
  fit <- optim(p, function(q) -base(q),
               function(q) -as.numeric(pycg_grad(loglik)(q)), method = "BFGS")
  ref <- optim(p, function(q) -base(q), method = "BFGS")
  expect_equal(fit$par, ref$par, tolerance = 1e-4)
  expect_equal(as.numeric(pycg_grad(loglik)(fit$par)), c(0, 0),
               tolerance = 1e-4)
})

test_each_backend("a beta log-likelihood is dbeta's, with its gradient", {
  y <- c(0.12, 0.5, 0.73, 0.31, 0.9, 0.44)
  loglik <- function(p) {
    a <- exp(p[1])
    b <- exp(p[2])
    sum((a - 1) * log(y) + (b - 1) * log1p(-y) - lbeta(a, b))
  }
  base <- function(p) sum(dbeta(y, exp(p[1]), exp(p[2]), log = TRUE))
  p <- c(0.3, 0.7)
  vg <- pycg_value_and_grad(loglik)(p)
  expect_equal(as.numeric(vg[[1]]), base(p), tolerance = 1e-12)
  expect_equal(as.numeric(vg[[2]]), fd_grad(base, p), tolerance = 1e-7)
  a <- exp(p[1])
  b <- exp(p[2])
  expect_equal(as.numeric(vg[[2]]),
               c(a * sum(log(y) - digamma(a) + digamma(a + b)),
                 b * sum(log1p(-y) - digamma(b) + digamma(a + b))),
               tolerance = 1e-10)
})

test_that("base R values keep base R's functions", {
  expect_identical(beta(2, 3), base::beta(2, 3))
  expect_identical(choose(5, 2), base::choose(5, 2))
  expect_identical(lchoose(5, 2), base::lchoose(5, 2))
  expect_identical(psigamma(2, 1), base::psigamma(2, 1))
  expect_identical(atan2(1, 2), base::atan2(1, 2))
})

test_each_backend("NA stays missing, without a warning", {
  # (a tensor holds R's NA as NaN, so as.array() gives NaN where base R
  # gives NA: is.na() is TRUE for both)
  for (f in list(lgamma, gamma, digamma, trigamma,
                 function(x) psigamma(x, 2), function(x) beta(x, 2),
                 function(x) lbeta(2, x), function(x) choose(x, 2),
                 function(x) lchoose(5, x))) {
    out <- with_warnings(f(tensor(c(NA, 3))))
    expect_identical(is.na(as.numeric(out$value)), c(TRUE, FALSE))
    expect_length(out$warnings, 0L)
  }
})
