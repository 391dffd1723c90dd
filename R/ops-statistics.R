# Thin wrappers of pycg.ops: argument conversions live in R/convert.R.

#' More reductions and scans
#'
#' NaN-ignoring reductions (`op_nanmean()`, ...), products, differences and
#' weighted or windowed sums, with 1-based axes. `op_nanargmax()` and
#' `op_nanargmin()` return 1-based positions.
#'
#' @param x A tensor (or an R value).
#' @param axis The axis or axes, 1-based (negative counts from the end); `NULL`
#'   for all.
#' @param keepdims If `TRUE`, keep reduced axes with length 1.
#' @param weights A tensor of weights, or `NULL`.
#' @param x1 A tensor.
#' @param x2 A tensor.
#' @param mode The mode (see the NumPy function of the same name).
#' @param dtype A dtype name such as `"float32"`, or `NULL`.
#' @param a A tensor (a matrix for the linear algebra).
#' @param n A count.
#' @param y A tensor.
#' @param dx The spacing.
#' @return A tensor (a list of tensors where there are several results);
#'   R values for the tensor facts.
#' @examplesIf pycg_available()
#' x <- op_convert_to_tensor(matrix(c(1, NaN, 3, 4), 2))
#' op_nanmean(x)
#' op_cumprod(x, axis = 1)
#' op_diff(op_convert_to_tensor(c(1, 4, 9)))
#' @name ops-statistics
NULL

#' @rdname ops-statistics
#' @export
op_amax <- function(x, axis = NULL, keepdims = FALSE) {
  op_call("amax", as_py(x), axis = as_axis(axis), keepdims = as_flag(keepdims))
}

#' @rdname ops-statistics
#' @export
op_amin <- function(x, axis = NULL, keepdims = FALSE) {
  op_call("amin", as_py(x), axis = as_axis(axis), keepdims = as_flag(keepdims))
}

#' @rdname ops-statistics
#' @export
op_average <- function(x, axis = NULL, weights = NULL) {
  op_call("average", as_py(x), axis = as_axis(axis), weights = as_py(weights))
}

#' @rdname ops-statistics
#' @export
op_corrcoef <- function(x) {
  op_call("corrcoef", as_py(x))
}

#' @rdname ops-statistics
#' @export
op_correlate <- function(x1, x2, mode = "valid") {
  op_call("correlate", as_py(x1), as_py(x2), mode = as_py(mode))
}

#' @rdname ops-statistics
#' @export
op_cumprod <- function(x, axis = NULL, dtype = NULL) {
  op_call("cumprod", as_py(x), axis = as_axis(axis), dtype = as_dtype(dtype))
}

#' @rdname ops-statistics
#' @export
op_diff <- function(a, n = 1L, axis = -1L) {
  op_call("diff", as_py(a), n = as_int(n), axis = as_axis(axis))
}

#' @rdname ops-statistics
#' @export
op_nanargmax <- function(x, axis = NULL, keepdims = FALSE) {
  op_call_index("nanargmax", as_py(x), axis = as_axis(axis),
    keepdims = as_flag(keepdims))
}

#' @rdname ops-statistics
#' @export
op_nanargmin <- function(x, axis = NULL, keepdims = FALSE) {
  op_call_index("nanargmin", as_py(x), axis = as_axis(axis),
    keepdims = as_flag(keepdims))
}

#' @rdname ops-statistics
#' @export
op_nancumprod <- function(x, axis = NULL, dtype = NULL) {
  op_call("nancumprod", as_py(x), axis = as_axis(axis), dtype = as_dtype(dtype))
}

#' @rdname ops-statistics
#' @export
op_nancumsum <- function(x, axis = NULL, dtype = NULL) {
  op_call("nancumsum", as_py(x), axis = as_axis(axis), dtype = as_dtype(dtype))
}

#' @rdname ops-statistics
#' @export
op_nanmax <- function(x, axis = NULL, keepdims = FALSE) {
  op_call("nanmax", as_py(x), axis = as_axis(axis),
          keepdims = as_flag(keepdims))
}

#' @rdname ops-statistics
#' @export
op_nanmean <- function(x, axis = NULL, keepdims = FALSE) {
  op_call("nanmean", as_py(x), axis = as_axis(axis),
          keepdims = as_flag(keepdims))
}

#' @rdname ops-statistics
#' @export
op_nanmin <- function(x, axis = NULL, keepdims = FALSE) {
  op_call("nanmin", as_py(x), axis = as_axis(axis),
          keepdims = as_flag(keepdims))
}

#' @rdname ops-statistics
#' @export
op_nanprod <- function(x, axis = NULL, keepdims = FALSE) {
  op_call("nanprod", as_py(x), axis = as_axis(axis),
          keepdims = as_flag(keepdims))
}

#' @rdname ops-statistics
#' @export
op_nanstd <- function(x, axis = NULL, keepdims = FALSE) {
  op_call("nanstd", as_py(x), axis = as_axis(axis),
          keepdims = as_flag(keepdims))
}

#' @rdname ops-statistics
#' @export
op_nansum <- function(x, axis = NULL, keepdims = FALSE) {
  op_call("nansum", as_py(x), axis = as_axis(axis),
          keepdims = as_flag(keepdims))
}

#' @rdname ops-statistics
#' @export
op_nanvar <- function(x, axis = NULL, keepdims = FALSE) {
  op_call("nanvar", as_py(x), axis = as_axis(axis),
          keepdims = as_flag(keepdims))
}

#' @rdname ops-statistics
#' @export
op_ptp <- function(x, axis = NULL, keepdims = FALSE) {
  op_call("ptp", as_py(x), axis = as_axis(axis), keepdims = as_flag(keepdims))
}

#' @rdname ops-statistics
#' @export
op_trapezoid <- function(y, x = NULL, dx = 1.0, axis = -1L) {
  op_call("trapezoid", as_py(y), x = as_py(x), dx = as_py(dx),
    axis = as_axis(axis))
}
