# pycg_to_tensorflow(): an R rule as a TensorFlow function (values checked
# against closed forms; Keras through reticulate, as keras3 would call it).

with_tensorflow_backend <- function(code) {
  old <- config_backend()
  on.exit(config_set_backend(old))
  config_set_backend("tensorflow")
  code
}

log1pexp_rule <- function() {
  op_custom_gradient(function(x) {
    e <- op_exp(x)
    tuple(op_log(1 + e), function(upstream) upstream * (1 - 1 / (1 + e)))
  })
}

test_that("an R rule is the gradient under tf$GradientTape, to second order", {
  skip_if_no_pycg()
  with_tensorflow_backend({
    tf <- reticulate::import("tensorflow")
    rule <- pycg_to_tensorflow(log1pexp_rule())
    v <- c(-3, 0, 2, 100)
    x <- tf$constant(v, dtype = "float64")
    with(tf$GradientTape() %as% outer, {
      outer$watch(x)
      with(tf$GradientTape() %as% inner, {
        inner$watch(x)
        y <- rule(x)
      })
      d1 <- inner$gradient(y, x)
    })
    d2 <- outer$gradient(d1, x)
    as_r <- function(t) as.numeric(op_convert_to_tensor(t))
    expect_equal(as_r(d1), plogis(v), tolerance = 1e-12)
    expect_equal(as_r(d2), dlogis(v), tolerance = 1e-12)
  })
})

test_that("Python receives the TensorFlow function itself", {
  skip_if_no_pycg()
  log1pexp <- log1pexp_rule()
  rule <- pycg_to_tensorflow(log1pexp)
  py_rule <- reticulate::r_to_py(rule)
  expect_true(inherits(py_rule, "python.builtin.function"))
  expect_identical(reticulate::py_to_r(reticulate::py_get_attr(
    py_rule, "__name__")), "log1pexp")
})

test_that("a Keras model trains through an R rule in a Lambda layer", {
  skip_if_no_pycg()
  with_tensorflow_backend({
    keras <- reticulate::import("keras")
    tf <- reticulate::import("tensorflow")
    rule <- pycg_to_tensorflow(log1pexp_rule())
    x <- seq(-2, 2, length.out = 64)
    column <- function(v) tf$constant(v, shape = c(64L, 1L), dtype = "float32")
    dense <- keras$layers$Dense(1L)
    model <- keras$Sequential(list(keras$Input(shape = list(1L)), dense,
                                   keras$layers$Lambda(rule)))
    model$compile(optimizer = keras$optimizers$Adam(0.1), loss = "mse")
    history <- model$fit(column(x), column(log1p(exp(2 * x - 0.5))),
                         epochs = 60L, batch_size = 16L, verbose = 0L)
    loss <- history$history$loss
    expect_lt(loss[[length(loss)]], 1e-3)
    weights <- vapply(dense$weights, function(w)
      as.numeric(op_convert_to_tensor(w$value)), 0)
    expect_equal(weights, c(2, -0.5), tolerance = 0.05)
  })
})

test_that("pycg_to_tensorflow refuses a non-function; the numpy backend set is no matter", {
  skip_if_no_pycg()
  expect_error(pycg_to_tensorflow(3),
               "`f` must be an R function written with op_\\*\\(\\)")
  log1pexp <- log1pexp_rule()
  rule <- pycg_to_tensorflow(log1pexp)
  old <- config_backend()
  on.exit(config_set_backend(old))
  config_set_backend("numpy")
  tf <- reticulate::import("tensorflow")
  x <- tf$constant(2, dtype = tf$float64)   # (run on tensorflow for the call)
  with(tf$GradientTape() %as% tape, {
    tape$watch(x)
    y <- rule(x)
  })
  expect_equal(as.numeric(tape$gradient(y, x)$numpy()$tolist()), plogis(2))
  expect_equal(as.numeric(y$numpy()$tolist()), log1p(exp(2)))
  expect_identical(config_backend(), "numpy")
})

test_that("a Python rule passes straight through, and converting twice is harmless", {
  skip_if_no_pycg()
  with_tensorflow_backend({
    main <- reticulate::py_run_string(paste(
      "import pycg",
      "from pycg import ops",
      "@pycg.custom_gradient",
      "def py_triple(x):",
      "    return x + 0.0, lambda upstream: 3 * upstream",
      sep = "\n"))
    rule <- pycg_to_tensorflow(main$py_triple)
    expect_identical(pycg_to_tensorflow(rule), rule)
    tf <- reticulate::import("tensorflow")
    x <- tf$constant(c(1, 2))
    with(tf$GradientTape() %as% tape, {
      tape$watch(x)
      y <- rule(x)
    })
    expect_equal(as.numeric(op_convert_to_tensor(tape$gradient(y, x))),
                 c(3, 3))
    expect_identical(reticulate::py_to_r(reticulate::py_get_attr(
      reticulate::r_to_py(rule), "__name__")), "py_triple")
  })
})
