# Thin wrappers of pycg.ops: argument conversions live in R/convert.R.

#' More activation functions
#'
#' Thin wrappers of the `pycg.ops` activations that Keras lists besides the
#' common ones (see [ops-nn]). Each is elementwise except `op_glu()` (which
#' halves `x` along `axis`) and `op_sparsemax()` (a projection onto the
#' simplex along `axis`). `axis` is 1-based; negative values count from the
#' last axis.
#'
#' @param x A tensor.
#' @param negative_slope The slope of `op_leaky_relu()` below zero.
#' @param alpha The CELU scale.
#' @param axis The axis (1-based) to split (`op_glu()`) or normalize over.
#' @param threshold The cut of `op_hard_shrink()`, `op_soft_shrink()` and
#'   `op_threshold()`.
#' @param default_value What `op_threshold()` puts where `x <= threshold`.
#' @param b The smoothing constant of `op_squareplus()`.
#' @return A tensor.
#' @examplesIf pycg_available()
#' x <- op_convert_to_tensor(c(-2, 0, 2))
#' op_leaky_relu(x)
#' op_hard_sigmoid(x)
#' op_sparsemax(x)
#' @name ops-activations
NULL

#' @rdname ops-activations
#' @export
op_log_sigmoid <- function(x) op_call("log_sigmoid", as_py(x))

#' @rdname ops-activations
#' @export
op_relu6 <- function(x) op_call("relu6", as_py(x))

#' @rdname ops-activations
#' @export
op_hard_sigmoid <- function(x) op_call("hard_sigmoid", as_py(x))

#' @rdname ops-activations
#' @export
op_hard_silu <- function(x) op_call("hard_silu", as_py(x))

#' @rdname ops-activations
#' @export
op_hard_swish <- function(x) op_call("hard_swish", as_py(x))

#' @rdname ops-activations
#' @export
op_leaky_relu <- function(x, negative_slope = 0.2) {
  op_call("leaky_relu", as_py(x), negative_slope = as_py(negative_slope))
}

#' @rdname ops-activations
#' @export
op_selu <- function(x) op_call("selu", as_py(x))

#' @rdname ops-activations
#' @export
op_softsign <- function(x) op_call("softsign", as_py(x))

#' @rdname ops-activations
#' @export
op_swish <- function(x) op_call("swish", as_py(x))

#' @rdname ops-activations
#' @export
op_celu <- function(x, alpha = 1) op_call("celu", as_py(x),
                                          alpha = as_py(alpha))

#' @rdname ops-activations
#' @export
op_glu <- function(x, axis = -1L) {
  op_call("glu", as_py(x), axis = as_axis(axis))
}

#' @rdname ops-activations
#' @export
op_hard_tanh <- function(x) op_call("hard_tanh", as_py(x))

#' @rdname ops-activations
#' @export
op_hard_shrink <- function(x, threshold = 0.5) {
  op_call("hard_shrink", as_py(x), threshold = as_py(threshold))
}

#' @rdname ops-activations
#' @export
op_soft_shrink <- function(x, threshold = 0.5) {
  op_call("soft_shrink", as_py(x), threshold = as_py(threshold))
}

#' @rdname ops-activations
#' @export
op_tanh_shrink <- function(x) op_call("tanh_shrink", as_py(x))

#' @rdname ops-activations
#' @export
op_threshold <- function(x, threshold, default_value) {
  op_call("threshold", as_py(x), as_py(threshold), as_py(default_value))
}

#' @rdname ops-activations
#' @export
op_sparse_plus <- function(x) op_call("sparse_plus", as_py(x))

#' @rdname ops-activations
#' @export
op_sparse_sigmoid <- function(x) op_call("sparse_sigmoid", as_py(x))

#' @rdname ops-activations
#' @export
op_squareplus <- function(x, b = 4) op_call("squareplus", as_py(x),
                                            b = as_py(b))

#' @rdname ops-activations
#' @export
op_sparsemax <- function(x, axis = -1L) {
  op_call("sparsemax", as_py(x), axis = as_axis(axis))
}
