# Thin wrappers of pycg.ops: the inverse hyperbolic functions (also reached
# by acosh(), asinh() and atanh() on tensors, R/tensor-methods.R).

#' @rdname ops-unary
#' @export
op_arccosh <- function(x) {
  op_call("arccosh", as_py(x))
}

#' @rdname ops-unary
#' @export
op_arcsinh <- function(x) {
  op_call("arcsinh", as_py(x))
}

#' @rdname ops-unary
#' @export
op_arctanh <- function(x) {
  op_call("arctanh", as_py(x))
}
