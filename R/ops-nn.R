# Thin wrappers of pycg.ops: argument conversions live in R/convert.R.

#' Activation functions
#'
#' Thin wrappers of the `pycg.ops` activations. `axis` is 1-based; negative
#' values count from the last axis (`-1`, the default for `op_softmax()`, is
#' the last).
#'
#' @param x A tensor.
#' @param alpha The ELU slope for negative inputs.
#' @param approximate If `TRUE`, the tanh approximation of GELU.
#' @param axis The axis (1-based) to normalize over; `NULL` for all.
#' @param keepdims If `TRUE`, keep reduced axes with length 1.
#' @return A tensor.
#' @examplesIf pycg_available()
#' x <- op_convert_to_tensor(c(-1, 0, 1))
#' op_sigmoid(x)
#' op_softmax(x)
#' op_logsumexp(x)
#' @name ops-nn
NULL

#' @rdname ops-nn
#' @export
op_sigmoid <- function(x) {
  op_call("sigmoid", as_py(x))
}

#' @rdname ops-nn
#' @export
op_softplus <- function(x) {
  op_call("softplus", as_py(x))
}

#' @rdname ops-nn
#' @export
op_relu <- function(x) {
  op_call("relu", as_py(x))
}

#' @rdname ops-nn
#' @export
op_silu <- function(x) {
  op_call("silu", as_py(x))
}

#' @rdname ops-nn
#' @export
op_elu <- function(x, alpha = 1) {
  op_call("elu", as_py(x), alpha = as_py(alpha))
}

#' @rdname ops-nn
#' @export
op_gelu <- function(x, approximate = TRUE) {
  op_call("gelu", as_py(x), approximate = as_flag(approximate))
}

#' @rdname ops-nn
#' @export
op_softmax <- function(x, axis = -1L) {
  op_call("softmax", as_py(x), axis = as_axis(axis))
}

#' @rdname ops-nn
#' @export
op_log_softmax <- function(x, axis = -1L) {
  op_call("log_softmax", as_py(x), axis = as_axis(axis))
}

#' @rdname ops-nn
#' @export
op_logsumexp <- function(x, axis = NULL, keepdims = FALSE) {
  op_call("logsumexp", as_py(x), axis = as_axis(axis),
          keepdims = as_flag(keepdims))
}
