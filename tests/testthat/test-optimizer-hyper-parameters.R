# Every hyper-parameter of every optimizer_*() function is checked by name
# when the optimizer is made, generated from the functions' formals: NA,
# NaN, Inf and -1 are errors naming the R function and the argument
# (a new optimizer or argument is covered as soon as it exists).

optimizer_functions <- function() {
  names <- grep("^optimizer_", getNamespaceExports("pycg"), value = TRUE)
  setdiff(names, "optimizer_apply")
}

test_that("every hyper-parameter refuses NA, NaN, Inf and -1", {
  skip_if_no_pycg()
  fns <- optimizer_functions()
  expect_true(length(fns) >= 5)
  for (fn in fns) {
    for (arg in setdiff(names(formals(getExportedValue("pycg", fn))),
                        c("name", "..."))) {
      # (R's own values; every NaN, inf and range case runs in Python:
      # tests/test_optimizers_hyper_parameters.py)
      for (value in list(NA, NaN, Inf, -1)) {
        if (arg %in% c("nesterov", "amsgrad", "centered") &&
            identical(value, -1)) next
        args <- setNames(list(value), arg)
        expect_error(do.call(getExportedValue("pycg", fn), args),
                     paste0("^", fn, ": `", arg, "` must be "),
                     info = paste(fn, arg, deparse(value)))
      }
    }
  }
})

test_that("the issue's values are refused in R's terms", {
  skip_if_no_pycg()
  expect_error(optimizer_sgd(learning_rate = Inf), paste0(
    "^optimizer_sgd: `learning_rate` must be a finite float >= 0, a ",
    "pycg.optimizers.schedules.LearningRateSchedule or a callable, got Inf$"))
  expect_error(optimizer_adam(beta_1 = NaN),
               "^optimizer_adam: `beta_1` must be a float in \\[0, 1\\), got NaN$")
  expect_error(optimizer_adam(beta_2 = Inf), "`beta_2` must be a float in")
  expect_error(optimizer_adam(epsilon = NA), "`epsilon` must be a finite")
  expect_error(optimizer_rmsprop(rho = NaN), "`rho` must be a float in \\[0, 1\\]")
  expect_error(optimizer_adagrad(initial_accumulator_value = -1),
               paste0("^optimizer_adagrad: `initial_accumulator_value` must ",
                      "be a finite float >= 0, got -1$"))
  expect_error(optimizer_sgd(nesterov = NA),
               "^optimizer_sgd: `nesterov` must be TRUE or FALSE, got NaN$")
})

test_that("the ends of the ranges are accepted", {
  skip_if_no_pycg()
  w <- pycg_variable(c(1, -2))
  for (opt in list(optimizer_sgd(learning_rate = 0, momentum = 1),
                   optimizer_adam(beta_1 = 0, beta_2 = 0, epsilon = 0),
                   optimizer_rmsprop(rho = 1, momentum = 0),
                   optimizer_adagrad(initial_accumulator_value = 0))) {
    optimizer_apply(opt, list(c(0.5, -0.25)), list(w))
    expect_true(all(is.finite(as.numeric(w))))
  }
})
