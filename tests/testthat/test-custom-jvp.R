# op_custom_jvp() rules in forward and reverse mode, pycg_jvp(),
# pycg_jacfwd() and pycg_hessian(); oracles: closed forms, glm()'s vcov()
# and finite differences, all computed in R.

if (pycg_available()) log1pexp <- op_custom_jvp(
  function(x) op_log(1 + op_exp(x)),
  function(primals, tangents) {
    x <- primals[[1]]
    tuple(log1pexp(x), tangents[[1]] * op_sigmoid(x))
  })

test_each_backend("an op_custom_jvp rule gives 1 at x = 100 in both modes", {
  x <- tensor(100, "float32")
  expect_equal(as.numeric(pycg_jvp(log1pexp, list(x), list(1))[[2]]), 1)
  expect_equal(as.numeric(pycg_grad(log1pexp)(x)), 1)
  with(gradient_tape() %as% tape, {
    tape$watch(x)
    y <- log1pexp(x)
  })
  expect_equal(as.numeric(tape$gradient(y, x)), 1)
})

test_each_backend("pycg_jvp and pycg_jacfwd of a rule give its closed form", {
  x <- c(-2, 0.3, 1.5)
  t <- c(1, -0.5, 2)
  out <- pycg_jvp(log1pexp, list(x), list(t))
  expect_equal(out[[1]], log1p(exp(x)), tolerance = 1e-12)
  expect_equal(out[[2]], plogis(x) * t, tolerance = 1e-12)
  expect_equal(pycg_jacfwd(log1pexp)(x), diag(plogis(x)), tolerance = 1e-12)
  inside <- pycg_jvp(function(x) op_sum(log1pexp(x * x)), list(x), list(t))
  expect_equal(inside[[2]], sum(plogis(x^2) * 2 * x * t), tolerance = 1e-12)
})

test_each_backend("a rule of two arguments and two outputs", {
  polar <- op_custom_jvp(
    function(r, a) list(r * op_cos(a), r * op_sin(a)),
    function(primals, tangents) {
      r <- primals[[1]]
      a <- primals[[2]]
      dr <- tangents[[1]]
      da <- tangents[[2]]
      tuple(polar(r, a), list(dr * op_cos(a) - r * op_sin(a) * da,
                              dr * op_sin(a) + r * op_cos(a) * da))
    })
  out <- pycg_jvp(polar, list(2, 0.5), list(1, 3))
  expect_equal(out[[2]][[1]], cos(0.5) - 2 * sin(0.5) * 3, tolerance = 1e-12)
  expect_equal(out[[2]][[2]], sin(0.5) + 2 * cos(0.5) * 3, tolerance = 1e-12)
  g <- pycg_grad(function(r, a) polar(r, a)[[1]] + polar(r, a)[[2]],
                 argnums = 1:2)(2, 0.5)
  expect_equal(g[[1]], cos(0.5) + sin(0.5), tolerance = 1e-12)
  expect_equal(g[[2]], -2 * sin(0.5) + 2 * cos(0.5), tolerance = 1e-12)
})

test_each_backend("a logistic regression's Hessian is the inverse of vcov()", {
  set.seed(46)
  n <- 200
  X <- cbind(1, rnorm(n), rnorm(n))
  y <- rbinom(n, 1, plogis(drop(X %*% c(0.3, -1, 0.5))))
  fit <- glm(y ~ X - 1, family = binomial,
             control = glm.control(epsilon = 1e-14, maxit = 100))
  nll <- function(beta) {
    eta <- X %*% beta
    op_sum(log1pexp(eta) - y * eta)
  }
  beta <- unname(coef(fit))
  H <- pycg_hessian(nll)(beta)
  expect_equal(H, unname(solve(vcov(fit))), tolerance = 1e-6)
  p <- plogis(drop(X %*% beta))
  expect_equal(H, crossprod(X * sqrt(p * (1 - p))), tolerance = 1e-12)
  expect_equal(pycg_jacfwd(pycg_grad(nll))(beta), H, tolerance = 1e-12)
})

test_each_backend("pycg_hessian of an op_custom_gradient rule", {
  f <- function(x) op_sum(log1pexp(x) * x)
  x <- c(0.3, -1.2)
  s <- plogis(x)
  expect_equal(pycg_hessian(f)(x), diag(2 * s + x * s * (1 - s)),
               tolerance = 1e-9)
  cube <- op_custom_gradient(function(x) {
    tuple(x^3, function(upstream) upstream * 3 * x^2)
  })
  expect_equal(pycg_hessian(function(x) op_sum(cube(x)))(x), diag(6 * x),
               tolerance = 1e-12)
  expect_equal(pycg_jvp(cube, list(2), list(1))[[2]], 12)
})

test_each_backend("a rule not linear in its tangents is an error", {
  sq <- op_custom_jvp(function(x) x * x, function(primals, tangents) {
    tuple(primals[[1]] * primals[[1]], tangents[[1]] * tangents[[1]])
  })
  expect_error(pycg_grad(sq)(3),
               "is not linear in its tangents: at tangents of ones")
  expect_equal(as.numeric(pycg_grad(log1pexp)(0)), 0.5)
})

test_that("op_custom_jvp refuses what is not a function", {
  skip_if_no_pycg()
  expect_error(op_custom_jvp(3, identity),
               "^op_custom_jvp\\(\\): `f` must be an R function, not ")
  expect_error(op_custom_jvp(identity, 3),
               "^op_custom_jvp\\(\\): `jvp` must be an R function\\(primals, tangents\\)")
  expect_error(pycg_jvp(log1pexp, 1, 1),
               "`primals` and `tangents` must be lists")
})

test_that("an error in the rule names the function", {
  skip_if_no_pycg()
  identity_map <- function(x) x
  bad <- op_custom_jvp(identity_map, function(primals, tangents) {
    stop("no rule here")
  })
  expect_error(pycg_jvp(bad, list(1), list(1)),
               "in the JVP rule of identity_map: no rule here")
  expect_error(pycg_grad(bad)(1),
               "in the JVP rule of identity_map: no rule here")
})

test_that("pycg_jacfwd() and pycg_hessian() refuse what is not a function or a position, by name", {
  skip_if_no_pycg()
  expect_error(pycg_jacfwd(3), "^pycg_jacfwd\\(\\): `f` must be an R function, not ")
  expect_error(pycg_hessian("f"), "^pycg_hessian\\(\\): `f` must be an R function, not ")
  expect_error(pycg_jacfwd(function(x) x, argnums = 0),
               "^pycg_jacfwd\\(\\): `argnums` must be 1-based argument positions")
})
