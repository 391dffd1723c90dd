#' Use an R rule in TensorFlow and keras3
#'
#' `pycg_to_tensorflow(f)` turns `f`, an R function written with `op_*()`
#' (typically one made by [op_custom_gradient()]), into a TensorFlow function
#' whose gradient is pycg's rule: use it in a keras3 model (in
#' `layer_lambda()` or the `call()` of a custom layer) or under
#' `tf$GradientTape()`. The TensorFlow tensors it is called with reach `f`
#' as pycg tensors wrapping the same values (no copy), and the result is
#' TensorFlow tensors. `f` runs on pycg's tensorflow backend for the call,
#' whatever the backend set ([config_set_backend()] need not change).
#'
#' Inside a compiled model `f` runs when TensorFlow traces the model, not at
#' every step (see [pycg_function()]). Pass the weights a rule needs as
#' arguments: a variable `f` closes over is a constant to TensorFlow. A
#' `NULL` (unknown) batch dimension works in the elementwise ops, reductions,
#' softmax, concatenation, reshape, where and matrix products; indexing and
#' other static gathers need every dimension known (their error names the
#' op): there, train with batches of one size and give `layer_lambda()` its
#' `output_shape`.
#'
#' @param f An R function of tensors returning a tensor (or a list of
#'   them), written with `op_*()`; or a Python function written with pycg
#'   (a `pycg.custom_gradient` rule reached through reticulate), which is
#'   handed over as it is.
#' @return An R function taking and returning TensorFlow tensors (R numbers
#'   and arrays are accepted too). When it is handed to Python (for example
#'   to `keras3::layer_lambda()`), Python receives the TensorFlow function
#'   itself, so R is not called at each training step.
#' @seealso The "R and Python" vignette trains a keras3 model through an R
#'   rule.
#' @examplesIf pycg_available()
#' old <- config_backend()
#' config_set_backend("tensorflow")
#' log1pexp <- op_custom_gradient(function(x) {
#'   e <- op_exp(x)
#'   tuple(op_log(1 + e), function(upstream) upstream * (1 - 1 / (1 + e)))
#' })
#' tf_log1pexp <- pycg_to_tensorflow(log1pexp)
#' tf <- reticulate::import("tensorflow")
#' x <- tf$constant(100)
#' with(tf$GradientTape() %as% tape, {
#'   tape$watch(x)
#'   y <- tf_log1pexp(x)
#' })
#' as.numeric(op_convert_to_tensor(tape$gradient(y, x))) # 1
#' config_set_backend(old)
#' @export
pycg_to_tensorflow <- function(f) {
  framework_function(f, function_label(substitute(f), f), "to_tensorflow",
                     "tensorflow")
}

#' Use an R rule in JAX and in Keras on either backend
#'
#' `pycg_to_jax(f)` turns `f`, an R function written with `op_*()`
#' (typically one made by [op_custom_gradient()]), into a JAX function
#' (built on `jax.custom_vjp`) whose gradient is pycg's rule: use it under
#' `jax$grad()`, `jax$jit()`, `jax$vmap()` and `jax$value_and_grad()`,
#' through reticulate. `f` runs on pycg's jax backend for the call, whatever
#' the backend set. `pycg_to_keras(f)` is the same function for Keras 3's
#' active backend: [pycg_to_tensorflow()] on the TensorFlow backend,
#' `pycg_to_jax()` on the JAX backend, [pycg_to_torch()] on the torch
#' backend (pycg's own backend need not match). Use it in a keras3 model (`layer_lambda()` or a custom layer's `call()`).
#'
#' Handed to Python (for example to `jax$grad()` or `layer_lambda()`),
#' the result is the JAX (or TensorFlow) function itself, so R runs `f`
#' when JAX traces it, not at each step. JAX has no forward mode through
#' a `custom_vjp`: `jax$jvp()`, `jax$jacfwd()` and `jax$hessian()` raise
#' JAX's error. With JAX's 64-bit mode off (its default), an R number
#' enters JAX as float32 where JAX converts it (under `jax$grad()`,
#' `jax$jit()`); pass float32 arrays when calling the function directly.
#' An R vector (length above 1) must be passed as a NumPy array, both when
#' calling the function directly and under `jax$jit()`, `jax$grad()` and
#' `jax$vmap()`: reticulate hands Python an R vector as a list, which JAX
#' reads as a pytree of scalars (plain JAX functions do the same, e.g.
#' `jax$jit(jax$numpy$sin)(c(1, 2))`). With
#' `np <- reticulate::import("numpy", convert = FALSE)`, write
#' `jax$jit(g)(np$array(c(1, 2), dtype = "float32"))`. Pass the weights a
#' rule needs as arguments: a variable `f` closes over is a constant to JAX.
#'
#' @inheritParams pycg_to_tensorflow
#' @return An R function taking and returning JAX arrays (TensorFlow
#'   tensors for `pycg_to_keras()` on the TensorFlow backend). When it is
#'   handed to Python, Python receives the converted function itself.
#' @seealso [install_pycg()] with `jax = TRUE` installs JAX.
#' @examplesIf pycg_available() && reticulate::py_module_available("jax")
#' old <- config_backend()
#' config_set_backend("jax")
#' triple <- op_custom_gradient(function(x) {
#'   tuple(x * 1, function(upstream) 3 * upstream)
#' })
#' jax <- reticulate::import("jax")
#' grad <- jax$grad(pycg_to_jax(triple))
#' as.numeric(op_convert_to_tensor(grad(2))) # 3: the rule, not 1
#' config_set_backend(old)
#' @export
pycg_to_jax <- function(f) {
  framework_function(f, function_label(substitute(f), f), "to_jax",
                     "jax")
}

#' @rdname pycg_to_jax
#' @export
pycg_to_keras <- function(f) {
  framework_function(f, function_label(substitute(f), f), "to_keras",
                     "keras")
}

# f as a function of `framework` (pycg.<python>(f), which runs f on that
# framework's backend for the call, whatever the backend set), called from R
# through pycg, and handed to Python as the converted function itself.
framework_function <- function(f, label, python, framework) {
  if (!is.function(f))
    stop("`f` must be an R function written with op_*() (for example one ",
         "made by op_custom_gradient()), not ", describe_r(f), call. = FALSE)
  if (inherits(f, paste0("pycg_", framework, "_function")))
    return(f)
  py_f <- if (inherits(f, "pycg_framework_function")) attr(f, "python") else
    if (inherits(f, "python.builtin.object")) f else
    r_callable(f, label, signature = py_signature(f))
  converted <- core_call(python, py_f)
  call <- guard(converted)
  g <- function(...) py_apply(call, lapply(list(...), as_py))
  structure(g, class = c(paste0("pycg_", framework, "_function"),
                         "pycg_framework_function", "function"),
            python = converted)
}

#' @rawNamespace S3method(reticulate::r_to_py, pycg_framework_function)
r_to_py.pycg_framework_function <- function(x, convert = FALSE) {
  attr(x, "python")
}
