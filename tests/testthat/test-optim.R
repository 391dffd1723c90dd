# optim() and nlminb() with pycg gradients; saving variables from R.

rosenbrock <- function(p) (1 - p[1])^2 + 100 * (p[2] - p[1]^2)^2

test_each_backend("the objective's value and gradient match R's formulas", {
  obj <- pycg_optim_objective(function(w) op_sum((w - c(1, 2))^2))
  expect_identical(obj$fn(c(0, 0)), 5)
  expect_identical(obj$gr(c(0, 0)), c(-2, -4))
  expect_identical(obj$evaluations(), 1L)  # gr reused fn's evaluation
  expect_identical(obj$gr(c(3, 3)), c(4, 2))
  expect_identical(obj$evaluations(), 2L)
  r <- pycg_optim_objective(rosenbrock)
  p <- c(-1.2, 1)
  expect_equal(r$fn(p), rosenbrock(p), tolerance = 1e-14)
  expect_equal(r$gr(p), c(-2 * (1 - p[1]) - 400 * p[1] * (p[2] - p[1]^2),
                          200 * (p[2] - p[1]^2)), tolerance = 1e-14)
})

test_each_backend("optim(BFGS) and nlminb reach a quadratic's minimum", {
  A <- matrix(c(3, 1, 1, 2), 2)
  b <- c(1, -1)
  obj <- pycg_optim_objective(function(w) {
    0.5 * op_sum(w * op_matmul(A, w)) - op_sum(b * w)
  })
  exact <- solve(A, b)
  fit <- optim(c(5, 5), obj$fn, obj$gr, method = "BFGS",
               control = list(reltol = 1e-14))
  expect_equal(fit$par, exact, tolerance = 1e-6)
  expect_identical(fit$convergence, 0L)
  fit2 <- nlminb(c(5, 5), obj$fn, obj$gr)
  expect_equal(fit2$par, exact, tolerance = 1e-8)
})

test_each_backend("optim(BFGS) and nlminb reach Rosenbrock's (1, 1)", {
  obj <- pycg_optim_objective(rosenbrock)
  fit <- optim(c(-1.2, 1), obj$fn, obj$gr, method = "BFGS",
               control = list(maxit = 500, reltol = 1e-14))
  expect_equal(fit$par, c(1, 1), tolerance = 1e-4)
  fit2 <- nlminb(c(-1.2, 1), obj$fn, obj$gr)
  expect_equal(fit2$par, c(1, 1), tolerance = 1e-6)
  fit3 <- pycg_optim(c(-1.2, 1), rosenbrock,
                     control = list(maxit = 500, reltol = 1e-14))
  expect_equal(fit3$par, c(1, 1), tolerance = 1e-4)
})

test_that("the objective names the function when it fails", {
  skip_if_no_pycg()
  obj <- pycg_optim_objective(function(w) w * 2)
  expect_error(obj$fn(c(1, 2)), "must return a scalar")
  expect_error(pycg_optim_objective(3), "`f` must be an R function")
  expect_error(obj$fn("a"), "`par` must be a numeric vector")
})

test_each_backend("variables saved from R load back", {
  path <- tempfile(fileext = ".npz")
  on.exit(unlink(path))
  w <- pycg_variable(matrix(c(1, 2, 3, 4, 5, 6), 2), name = "w")
  b <- pycg_variable(c(0.5, -0.5), name = "b")
  expect_identical(pycg_save_variables(path, list(w, b)), path)
  w$assign(op_zeros(c(2, 3), dtype = "float64"))
  b$assign(op_zeros(2, dtype = "float64"))
  pycg_load_variables(path, list(w, b))
  expect_identical(as.array(w), matrix(c(1, 2, 3, 4, 5, 6), 2))
  expect_identical(as.numeric(b), c(0.5, -0.5))
  renamed <- tempfile(fileext = ".npz")
  on.exit(unlink(renamed), add = TRUE)
  pycg_save_variables(renamed, list(kernel = w))
  v <- pycg_variable(matrix(0, 2, 3))
  pycg_load_variables(renamed, list(kernel = v))
  expect_identical(as.array(v), as.array(w))
  expect_error(pycg_load_variables(renamed, list(other = v)),
               "do not match the variables")
  expect_error(pycg_save_variables(path, 3), "`vars` must be a list")
})

test_each_backend("a hostile .npz file is refused by its headers", {
  dir <- tempfile()
  dir.create(dir)
  on.exit(unlink(dir, recursive = TRUE))
  # a zip holding a text member beside w.npy (zip() needs an external tool)
  np <- reticulate::import("numpy")
  zipfile <- reticulate::import("zipfile")
  path <- file.path(dir, "w.npz")
  np$savez(path, w = c(1, 2))
  z <- zipfile$ZipFile(path, "a")
  z$writestr("notes.txt", "hello")
  z$close()
  w <- pycg_variable(c(5, 6), name = "w")
  expect_error(pycg_load_variables(path, list(w)),
               "load_variables: member .notes\\.txt. of .* is not a .npy array")
  expect_identical(as.numeric(w), c(5, 6))
})

# A norm at 0: a finite value (0) whose gradient is NaN (Inf * 0 on the path
# that reaches the value, which strong zeros keep). Missing observations
# left out of a likelihood are not such a case: test-missing-observations.R.
norm_at_zero <- function(p) sqrt(sum(p^2)) + sum(p)

test_each_backend("the optimiser front ends stop or warn at a NaN gradient of a finite value", {
  p0 <- c(0, 0, 0)
  words <- paste0("the gradient of norm_at_zero holds NaN \\(R's NA\\) in 3 ",
                  "of its 3 elements where the value is finite \\(0\\)")
  cause <- "a custom gradient returning NaN\\); missing observations"
  expect_error(pycg_optim(p0, norm_at_zero),
               paste0("^pycg_optim_objective: ", words))
  obj <- pycg_optim_objective(norm_at_zero)
  expect_error(optim(p0, obj$fn, obj$gr, method = "BFGS"),
               paste0("^pycg_optim_objective: ", words, ".*", cause))
  expect_error(nlminb(p0, obj$fn, obj$gr), cause)
  expect_warning(pycg_grad(norm_at_zero)(p0), paste0("^pycg_grad: ", words))
  expect_warning(pycg_value_and_grad(norm_at_zero)(p0),
                 paste0("^pycg_value_and_grad: ", words))
  # optim() given pycg_grad() as its gr: the warning reaches the user
  expect_warning(try(optim(p0, function(p) as.numeric(norm_at_zero(p)),
                           function(p) as.numeric(pycg_grad(norm_at_zero)(p)),
                           method = "BFGS"), silent = TRUE),
                 "^pycg_grad: the gradient of norm_at_zero holds NaN")
})
