# Thin wrappers of pycg.ops: argument conversions live in R/convert.R.

#' Reductions
#'
#' Reduce `x` over `axis` (1-based; negative counts from the end; `NULL` for
#' all axes). `op_argmax()` and `op_argmin()` return 1-based positions (along
#' `axis`, or in the row-major flattening of `x` when `axis` is `NULL`).
#' `op_cumsum()` accumulates along `axis` (the row-major flattening when
#' `NULL`).
#'
#' @param x A tensor.
#' @param axis Axis or axes to reduce, 1-based; `NULL` for all.
#' @param keepdims If `TRUE`, keep reduced axes with length 1.
#' @param initial Starting value of the reduction, or `NULL`.
#' @param dtype Optional dtype of the result, e.g. `"float64"`.
#' @return A tensor.
#' @examplesIf pycg_available()
#' x <- op_convert_to_tensor(matrix(c(1, 5, 3, 2, 4, 6), 2, 3))
#' op_sum(x)
#' op_sum(x, axis = 1)
#' op_max(x, axis = 2)
#' op_argmax(x, axis = 2) # 1-based
#' @name ops-reduction
NULL

#' @rdname ops-reduction
#' @export
op_sum <- function(x, axis = NULL, keepdims = FALSE) {
  op_call("sum", as_py(x), axis = as_axis(axis), keepdims = as_flag(keepdims))
}

#' @rdname ops-reduction
#' @export
op_prod <- function(x, axis = NULL, keepdims = FALSE) {
  op_call("prod", as_py(x), axis = as_axis(axis), keepdims = as_flag(keepdims))
}

#' @rdname ops-reduction
#' @export
op_mean <- function(x, axis = NULL, keepdims = FALSE) {
  op_call("mean", as_py(x), axis = as_axis(axis), keepdims = as_flag(keepdims))
}

#' @rdname ops-reduction
#' @export
op_var <- function(x, axis = NULL, keepdims = FALSE) {
  op_call("var", as_py(x), axis = as_axis(axis), keepdims = as_flag(keepdims))
}

#' @rdname ops-reduction
#' @export
op_std <- function(x, axis = NULL, keepdims = FALSE) {
  op_call("std", as_py(x), axis = as_axis(axis), keepdims = as_flag(keepdims))
}

#' @rdname ops-reduction
#' @export
op_max <- function(x, axis = NULL, keepdims = FALSE, initial = NULL) {
  op_call("max", as_py(x), axis = as_axis(axis), keepdims = as_flag(keepdims),
          initial = as_py(initial))
}

#' @rdname ops-reduction
#' @export
op_min <- function(x, axis = NULL, keepdims = FALSE, initial = NULL) {
  op_call("min", as_py(x), axis = as_axis(axis), keepdims = as_flag(keepdims),
          initial = as_py(initial))
}

#' @rdname ops-reduction
#' @export
op_cumsum <- function(x, axis = NULL, dtype = NULL) {
  op_call("cumsum", as_py(x), axis = as_axis(axis), dtype = as_dtype(dtype))
}

#' @rdname ops-reduction
#' @export
op_argmax <- function(x, axis = NULL, keepdims = FALSE) {
  op_call_index("argmax", as_py(x), axis = as_axis(axis),
                keepdims = as_flag(keepdims))
}

#' @rdname ops-reduction
#' @export
op_argmin <- function(x, axis = NULL, keepdims = FALSE) {
  op_call_index("argmin", as_py(x), axis = as_axis(axis),
                keepdims = as_flag(keepdims))
}
