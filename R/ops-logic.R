# Thin wrappers of pycg.ops: argument conversions live in R/convert.R.

#' Predicates, bitwise ops and tensor facts
#'
#' Elementwise predicates (`op_isinf()`, `op_isclose()`, ...), reductions to
#' booleans (`op_any()`, `op_all()`), bitwise and integer ops on integer or
#' logical tensors, and facts about a tensor (`op_dtype()`, `op_ndim()`,
#' `op_size()`). None of these has a gradient. `op_nonzero()` returns a list of
#' 1-based positions, one tensor per axis.
#'
#' @param x A tensor (or an R value).
#' @param axis The axis or axes, 1-based (negative counts from the end); `NULL`
#'   for all.
#' @param keepdims If `TRUE`, keep reduced axes with length 1.
#' @param x1 A tensor.
#' @param x2 A tensor.
#' @param rtol The relative tolerance.
#' @param atol The absolute tolerance.
#' @param equal_nan If `TRUE`, NaNs compare equal.
#' @param y A tensor.
#' @param assume_unique Ignored.
#' @param invert If `TRUE`, negate the result.
#' @param dtype A dtype name such as `"float32"`, or `NULL`.
#' @return A tensor (a list of tensors where there are several results);
#'   R values for the tensor facts.
#' @examplesIf pycg_available()
#' x <- op_convert_to_tensor(c(1, Inf, -2, NaN))
#' op_isinf(x)
#' op_isclose(x, x, equal_nan = TRUE)
#' op_bitwise_and(5L, 3L)
#' @name ops-logic
NULL

#' @rdname ops-logic
#' @export
op_all <- function(x, axis = NULL, keepdims = FALSE) {
  op_call("all", as_py(x), axis = as_axis(axis), keepdims = as_flag(keepdims))
}

#' @rdname ops-logic
#' @export
op_allclose <- function(x1, x2, rtol = 1e-05, atol = 1e-08, equal_nan = FALSE) {
  op_call("allclose", as_py(x1), as_py(x2), rtol = as_py(rtol),
    atol = as_py(atol), equal_nan = as_py(equal_nan))
}

#' @rdname ops-logic
#' @export
op_any <- function(x, axis = NULL, keepdims = FALSE) {
  op_call("any", as_py(x), axis = as_axis(axis), keepdims = as_flag(keepdims))
}

#' @rdname ops-logic
#' @export
op_bitwise_and <- function(x, y) {
  op_call("bitwise_and", as_py(x), as_py(y))
}

#' @rdname ops-logic
#' @export
op_bitwise_invert <- function(x) {
  op_call("bitwise_invert", as_py(x))
}

#' @rdname ops-logic
#' @export
op_bitwise_left_shift <- function(x, y) {
  op_call("bitwise_left_shift", as_py(x), as_py(y))
}

#' @rdname ops-logic
#' @export
op_bitwise_not <- function(x) {
  op_call("bitwise_not", as_py(x))
}

#' @rdname ops-logic
#' @export
op_bitwise_or <- function(x, y) {
  op_call("bitwise_or", as_py(x), as_py(y))
}

#' @rdname ops-logic
#' @export
op_bitwise_right_shift <- function(x, y) {
  op_call("bitwise_right_shift", as_py(x), as_py(y))
}

#' @rdname ops-logic
#' @export
op_bitwise_xor <- function(x, y) {
  op_call("bitwise_xor", as_py(x), as_py(y))
}

#' @rdname ops-logic
#' @export
op_count_nonzero <- function(x, axis = NULL) {
  op_call("count_nonzero", as_py(x), axis = as_axis(axis))
}

#' @rdname ops-logic
#' @export
op_dtype <- function(x) {
  op_call("dtype", as_py(x))
}

#' @rdname ops-logic
#' @export
op_gcd <- function(x1, x2) {
  op_call("gcd", as_py(x1), as_py(x2))
}

#' @rdname ops-logic
#' @export
op_is_tensor <- function(x) {
  op_call("is_tensor", as_py(x))
}

#' @rdname ops-logic
#' @export
op_isclose <- function(x1, x2, rtol = 1e-05, atol = 1e-08, equal_nan = FALSE) {
  op_call("isclose", as_py(x1), as_py(x2), rtol = as_py(rtol),
    atol = as_py(atol), equal_nan = as_py(equal_nan))
}

#' @rdname ops-logic
#' @export
op_isin <- function(x1, x2, assume_unique = FALSE, invert = FALSE) {
  op_call("isin", as_py(x1), as_py(x2), assume_unique = as_py(assume_unique),
    invert = as_py(invert))
}

#' @rdname ops-logic
#' @export
op_isinf <- function(x) {
  op_call("isinf", as_py(x))
}

#' @rdname ops-logic
#' @export
op_isneginf <- function(x) {
  op_call("isneginf", as_py(x))
}

#' @rdname ops-logic
#' @export
op_isposinf <- function(x) {
  op_call("isposinf", as_py(x))
}

#' @rdname ops-logic
#' @export
op_isreal <- function(x) {
  op_call("isreal", as_py(x))
}

#' @rdname ops-logic
#' @export
op_lcm <- function(x1, x2) {
  op_call("lcm", as_py(x1), as_py(x2))
}

#' @rdname ops-logic
#' @export
op_left_shift <- function(x, y) {
  op_call("left_shift", as_py(x), as_py(y))
}

#' @rdname ops-logic
#' @export
op_logical_xor <- function(x1, x2) {
  op_call("logical_xor", as_py(x1), as_py(x2))
}

#' @rdname ops-logic
#' @export
op_ndim <- function(x) {
  op_call("ndim", as_py(x))
}

#' @rdname ops-logic
#' @export
op_nextafter <- function(x1, x2) {
  op_call("nextafter", as_py(x1), as_py(x2))
}

#' @rdname ops-logic
#' @export
op_nonzero <- function(x) {
  op_call_index("nonzero", as_py(x))
}

#' @rdname ops-logic
#' @export
op_right_shift <- function(x, y) {
  op_call("right_shift", as_py(x), as_py(y))
}

#' @rdname ops-logic
#' @export
op_signbit <- function(x) {
  op_call("signbit", as_py(x))
}

#' @rdname ops-logic
#' @export
op_size <- function(x) {
  op_call("size", as_py(x))
}

#' @rdname ops-logic
#' @export
op_view <- function(x, dtype = NULL) {
  op_call("view", as_py(x), dtype = as_dtype(dtype))
}
