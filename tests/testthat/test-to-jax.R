# pycg_to_jax() and pycg_to_keras(): an R rule as a JAX function, and for
# Keras' active backend (values against closed forms: the rule triples the
# gradient of x * 1, whose own derivative is 1).

with_backend <- function(backend, code) {
  old <- config_backend()
  on.exit(config_set_backend(old))
  config_set_backend(backend)
  code
}

triple_rule <- function() {
  op_custom_gradient(function(x) {
    tuple(x * 1, function(upstream) 3 * upstream)
  })
}

as_r <- function(t) as.numeric(op_convert_to_tensor(t))

test_that("an R rule tripling a gradient makes jax.grad three times larger", {
  skip_if_no_pycg()
  with_backend("jax", {
    jax <- reticulate::import("jax")
    rule <- pycg_to_jax(triple_rule())
    expect_equal(as_r(jax$grad(rule)(2)), 3)
    expect_equal(as_r(jax$jit(jax$grad(rule))(-1.5)), 3)
    expect_equal(as_r(jax$grad(pycg_to_jax(function(x) op_sum(triple_rule()(x))))(
      jax$numpy$asarray(c(1, 2, 4), dtype = "float32"))), c(3, 3, 3))
    # (without a rule, the derivative of x * 1 is 1)
    expect_equal(as_r(jax$grad(pycg_to_jax(function(x) x * 1))(2)), 1)
  })
})

test_that("the R rule is the gradient to second order and in value_and_grad", {
  skip_if_no_pycg()
  with_backend("jax", {
    jax <- reticulate::import("jax")
    log1pexp <- pycg_to_jax(op_custom_gradient(function(x) {
      e <- op_exp(x)
      tuple(op_log(1 + e), function(upstream) upstream * (1 - 1 / (1 + e)))
    }))
    d1 <- jax$grad(log1pexp)
    for (v in c(-3, 0, 2)) {
      expect_equal(as_r(d1(v)), plogis(v), tolerance = 1e-6)
      expect_equal(as_r(jax$grad(d1)(v)), dlogis(v), tolerance = 1e-6)
    }
    expect_equal(as_r(d1(100)), 1)   # (the stable rule: no overflow)
    both <- jax$value_and_grad(log1pexp)(0)
    expect_equal(c(as_r(both[[1]]), as_r(both[[2]])), c(log(2), 0.5),
                 tolerance = 1e-6)
  })
})

test_that("Python receives the JAX function itself", {
  skip_if_no_pycg()
  triple <- triple_rule()
  rule <- pycg_to_jax(triple)
  expect_identical(pycg_to_jax(rule), rule)
  py_rule <- reticulate::r_to_py(rule)
  expect_true(inherits(py_rule, "python.builtin.function"))
  expect_identical(reticulate::py_to_r(reticulate::py_get_attr(
    py_rule, "__name__")), "triple")
})

test_that("pycg_to_jax and pycg_to_keras refuse a non-function; another backend set is no matter", {
  skip_if_no_pycg()
  expect_error(pycg_to_jax(3),
               "`f` must be an R function written with op_\\*\\(\\)")
  expect_error(pycg_to_keras("x"),
               "`f` must be an R function written with op_\\*\\(\\)")
  triple <- triple_rule()
  rule <- pycg_to_jax(triple)
  jax <- reticulate::import("jax")
  with_backend("numpy", {   # (the rule runs on jax for the call)
    g <- jax$grad(rule)(2)
    expect_equal(as.numeric(g$tolist()), 3)
    expect_identical(config_backend(), "numpy")
  })
})

test_that("pycg_to_keras follows Keras' backend (TensorFlow in this process)", {
  skip_if_no_pycg()
  keras_backend <- reticulate::import("keras")$backend$backend()
  with_backend(keras_backend, {
    rule <- pycg_to_keras(triple_rule())
    if (keras_backend == "tensorflow") {
      tf <- reticulate::import("tensorflow")
      x <- tf$constant(c(1, 2))
      with(tf$GradientTape() %as% tape, {
        tape$watch(x)
        y <- rule(x)
      })
      expect_equal(as_r(tape$gradient(y, x)), c(3, 3))
    } else {
      jax <- reticulate::import("jax")
      expect_equal(as_r(jax$grad(rule)(2)), 3)
    }
  })
})

test_that("a Keras model on the JAX backend trains through an R rule", {
  skip_if_no_pycg()
  # One SGD step (rate 0.25) of Dense(1, ones) on x = (1, 2), y = 0 with
  # mse: d loss / d w = 2 * 3 * x = (6, 12), so w moves by (-1.5, -3);
  # through the rule tripling the gradient, by (-4.5, -9).
  res <- run_r(c(
    "library(pycg)",
    "config_set_backend('jax')",
    "keras <- reticulate::import('keras')",
    "np <- reticulate::import('numpy', convert = FALSE)",
    "triple <- op_custom_gradient(function(x) {",
    "  tuple(x * 1, function(upstream) 3 * upstream)",
    "})",
    "rule <- pycg_to_keras(triple)",
    "for (with_rule in c(FALSE, TRUE)) {",
    "  inputs <- keras$Input(list(2L))",
    "  dense <- keras$layers$Dense(1L, use_bias = FALSE,",
    "                              kernel_initializer = 'ones')",
    "  out <- dense(inputs)",
    "  if (with_rule) out <- keras$layers$Lambda(rule)(out)",
    "  m <- keras$Model(inputs, out)",
    "  m$compile(optimizer = keras$optimizers$SGD(0.25), loss = 'mse')",
    "  m$fit(np$array(list(list(1, 2)), 'float32'),",
    "        np$array(list(list(0)), 'float32'), epochs = 1L,",
    "        batch_size = 1L, verbose = 0L)",
    "  cat('backend', keras$backend$backend(), 'moved',",
    "      as.numeric(m$get_weights()[[1]]) - 1,",   # (R arrays: R/keras-arrays.R)
    "      '\\n')",
    "}"), env = "KERAS_BACKEND=jax")
  expect_identical(res$status, 0L, info = res$output)
  expect_match(res$output, "backend jax moved -1.5 -3 \nbackend jax moved -4.5 -9 ",
               fixed = TRUE)
})

test_that("an R rule called directly under jax.grad says to use pycg_to_jax", {
  skip_if_no_pycg()
  # (without pycg_to_jax JAX would differentiate the forward, not the rule)
  tripling <- function(x) tuple(x * 1, function(upstream) 3 * upstream)
  triple <- op_custom_gradient(tripling)
  jax <- reticulate::import("jax")
  with_backend("jax", expect_error(jax$grad(triple)(2), paste0(
    "tripling: this op_custom_gradient function was called on a JAX tracer ",
    "\\(inside jax.grad, jax.jit or jax.vmap\\), where JAX would ",
    "differentiate its forward, not its rule; convert it with ",
    "pycg_to_jax\\(tripling\\)")))
  with_backend("numpy", expect_error(jax$jit(triple)(2), paste0(
    "convert it with pycg_to_jax\\(tripling\\) and use the jax backend ",
    "\\(config_set_backend\\(\"jax\"\\)\\)")))
})

test_that("an R vector passed as a NumPy array works under jax$jit and jax$vmap", {
  skip_if_no_pycg()
  # (pycg_to_jax's help: R vectors go to JAX as NumPy arrays)
  np <- reticulate::import("numpy", convert = FALSE)
  with_backend("jax", {
    jax <- reticulate::import("jax")
    g <- pycg_to_jax(function(x) op_sin(x))
    x <- np$array(c(1, 2), dtype = "float32")
    expect_equal(as_r(jax$jit(g)(x)), sin(c(1, 2)), tolerance = 1e-6)
    expect_equal(as_r(jax$vmap(jax$grad(g))(x)), cos(c(1, 2)),
                 tolerance = 1e-6)
  })
})
