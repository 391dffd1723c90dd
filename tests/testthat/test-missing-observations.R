# A likelihood that leaves out its missing observations, by
# sum(ll, na.rm = TRUE) or by ll[!is.na(y)], has the gradient of its
# observed part (strong zeros, pycg/core/backward.py), on every backend;
# the oracle is base R's central finite differences of the same objective.

missing_backends <- function() {
  out <- c("numpy", "tensorflow")
  for (b in c("jax", "torch"))
    if (reticulate::py_module_available(b)) out <- c(out, b)
  out
}

# airquality: Ozone (37 NAs) on Solar.R (7 NAs) and Wind, least squares and
# a normal likelihood; X has NA rows, so the matmul's rule meets them too.
aq_y <- airquality$Ozone
aq_X <- cbind(1, airquality$Solar.R, airquality$Wind)

least_squares_na_rm <- function(p) {
  r <- aq_y - aq_X %*% p
  sum(r^2, na.rm = TRUE) / 2
}

least_squares_index <- function(p) {
  ll <- (aq_y - aq_X %*% p)^2
  sum(ll[!is.na(ll)]) / 2
}

normal_nll_na_rm <- function(p) {
  mu <- aq_X %*% p[1:3]
  ll <- -0.5 * ((aq_y - mu) / exp(p[4]))^2 - p[4]
  -sum(ll, na.rm = TRUE)
}

normal_nll_index <- function(p) {
  mu <- aq_X %*% p[1:3]
  ll <- -0.5 * ((aq_y - mu) / exp(p[4]))^2 - p[4]
  -sum(ll[!is.na(aq_y) & !is.na(aq_X[, 2])])
}

test_that("a least-squares objective that leaves out its NAs has the observed part's gradient on every backend", {
  skip_if_no_pycg()
  p0 <- c(1, 0.1, -1)
  # base R's own function, by central finite differences
  oracle <- fd_grad(function(p) as.numeric(least_squares_na_rm(p)), p0)
  expect_true(all(is.finite(oracle)))
  for (backend in missing_backends()) with_backend(backend, {
    for (f in list(least_squares_na_rm, least_squares_index)) {
      g <- expect_silent(pycg_grad(f)(p0))
      expect_equal(as.vector(as.array(g)), oracle, tolerance = 1e-6,
                   label = paste("pycg_grad on", backend))
    }
    vg <- pycg_value_and_grad(least_squares_index)(p0)
    expect_equal(as.numeric(vg[[1]]), least_squares_na_rm(p0),
                 tolerance = 1e-12)
  })
})

test_that("a normal likelihood that leaves out its NAs has the observed part's gradient on every backend", {
  skip_if_no_pycg()
  p0 <- c(10, 0.05, -2, 3)
  oracle <- fd_grad(normal_nll_na_rm, p0)
  for (backend in missing_backends()) with_backend(backend, {
    for (f in list(normal_nll_na_rm, normal_nll_index))
      expect_equal(as.vector(as.array(pycg_grad(f)(p0))), oracle,
                   tolerance = 1e-6, label = paste("pycg_grad on", backend))
    # the tape's gradient is the same
    p <- op_convert_to_tensor(p0, dtype = "float64")
    with(gradient_tape() %as% tape, {
      tape$watch(p)
      value <- normal_nll_na_rm(p)
    })
    expect_equal(as.vector(as.array(tape$gradient(value, p))), oracle,
                 tolerance = 1e-6, label = paste("tape$gradient on", backend))
  })
})

test_that("pycg_optim fits a likelihood with NAs as lm() does on the complete cases", {
  skip_if_no_pycg()
  ref <- lm(Ozone ~ Solar.R + Wind, data = airquality)
  for (backend in c("numpy", "tensorflow")) with_backend(backend, {
    fit <- pycg_optim(c(0, 0, 0, 3), normal_nll_na_rm,
                      control = list(maxit = 2000, reltol = 1e-14))
    expect_identical(fit$convergence, 0L)
    expect_equal(fit$par[1:3], unname(coef(ref)), tolerance = 1e-4)
    obj <- pycg_optim_objective(normal_nll_index)
    fit2 <- nlminb(c(0, 0, 0, 3), obj$fn, obj$gr)
    expect_equal(fit2$par[1:3], unname(coef(ref)), tolerance = 1e-5)
  })
})

test_that("an NA that reaches the value still gives NA in the gradient", {
  skip_if_no_pycg()
  p0 <- c(1, 0.1, -1)
  no_na_rm <- function(p) sum((aq_y - aq_X %*% p)^2) / 2
  for (backend in missing_backends()) with_backend(backend, {
    vg <- pycg_value_and_grad(no_na_rm)(p0)
    expect_true(is.na(as.numeric(vg[[1]])))
    expect_true(all(is.na(as.vector(as.array(vg[[2]])))))
  })
})
