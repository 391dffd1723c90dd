#' Use an R rule in TensorFlow and keras3
#'
#' `pycg_to_tensorflow(f)` turns `f`, an R function written with `op_*()`
#' (typically one made by [op_custom_gradient()]), into a TensorFlow function
#' whose gradient is pycg's rule: use it in a keras3 model (in
#' `layer_lambda()` or the `call()` of a custom layer) or under
#' `tf$GradientTape()`. The TensorFlow tensors it is called with reach `f`
#' as pycg tensors wrapping the same values (no copy), and the result is
#' TensorFlow tensors. pycg's backend must be `"tensorflow"`.
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
#' @export
pycg_to_tensorflow <- function(f) {
  if (!is.function(f))
    stop("`f` must be an R function written with op_*() (for example one ",
         "made by op_custom_gradient()), not ", describe_r(f), call. = FALSE)
  if (inherits(f, "pycg_tensorflow_function"))
    return(f)
  label <- function_label(substitute(f), f)
  py_f <- if (inherits(f, "python.builtin.object")) f else
    r_callable(f, label, signature = py_signature(f))
  converted <- core_call("to_tensorflow", py_f)
  call <- guard(converted)
  g <- function(...) {
    backend <- config_backend()
    if (!identical(backend, "tensorflow"))
      stop("pycg_to_tensorflow(", label, "): pycg's backend is \"", backend,
           "\", so pycg tensors cannot hold TensorFlow values; call ",
           "config_set_backend(\"tensorflow\") first", call. = FALSE)
    py_apply(call, lapply(list(...), as_py))
  }
  structure(g, class = c("pycg_tensorflow_function", "function"),
            python = converted)
}

#' @rawNamespace S3method(reticulate::r_to_py, pycg_tensorflow_function)
r_to_py.pycg_tensorflow_function <- function(x, convert = FALSE) {
  attr(x, "python")
}
