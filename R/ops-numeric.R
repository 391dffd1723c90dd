# Thin wrappers of pycg.ops: argument conversions live in R/convert.R.

#' More elementwise maths
#'
#' Inverse hyperbolic functions, rounding towards zero, NaN-aware minimum and
#' maximum, NaN and infinity replacement, and the parts of complex tensors. All
#' but `op_imag()` and `op_angle()` are differentiable.
#'
#' @param x A tensor (or an R value).
#' @param x1 A tensor.
#' @param x2 A tensor.
#' @param nan The value for NaN.
#' @param posinf The value for +Inf, or `NULL`.
#' @param neginf The value for -Inf, or `NULL`.
#' @param abs_ The magnitude of `op_polar()`'s result (real).
#' @param angle The argument of `op_polar()`'s result, in radians (real).
#' @return A tensor (a list of tensors where there are several results);
#'   R values for the tensor facts.
#' @examplesIf pycg_available()
#' x <- op_convert_to_tensor(c(-1.5, 0.5, 2))
#' op_arcsinh(x)
#' op_trunc(x)
#' op_hypot(x, 1)
#' @name ops-numeric
NULL

#' @rdname ops-numeric
#' @export
op_absolute <- function(x) {
  op_call("absolute", as_py(x))
}

#' @rdname ops-numeric
#' @export
op_angle <- function(x) {
  op_call("angle", as_py(x))
}

#' @rdname ops-numeric
#' @export
op_polar <- function(abs_, angle) {
  op_call("polar", as_py(abs_), as_py(angle))
}

#' @rdname ops-numeric
#' @export
op_arccosh <- function(x) {
  op_call("arccosh", as_py(x))
}

#' @rdname ops-numeric
#' @export
op_arcsinh <- function(x) {
  op_call("arcsinh", as_py(x))
}

#' @rdname ops-numeric
#' @export
op_arctanh <- function(x) {
  op_call("arctanh", as_py(x))
}

#' @rdname ops-numeric
#' @export
op_cbrt <- function(x) {
  op_call("cbrt", as_py(x))
}

#' @rdname ops-numeric
#' @export
op_conjugate <- function(x) {
  op_call("conjugate", as_py(x))
}

#' @rdname ops-numeric
#' @export
op_copy <- function(x) {
  op_call("copy", as_py(x))
}

#' @rdname ops-numeric
#' @export
op_deg2rad <- function(x) {
  op_call("deg2rad", as_py(x))
}

#' @rdname ops-numeric
#' @export
op_divide_no_nan <- function(x1, x2) {
  op_call("divide_no_nan", as_py(x1), as_py(x2))
}

#' @rdname ops-numeric
#' @export
op_erfc <- function(x) {
  op_call("erfc", as_py(x))
}

#' @rdname ops-numeric
#' @export
op_erfinv <- function(x) {
  op_call("erfinv", as_py(x))
}

#' @rdname ops-numeric
#' @export
op_exp2 <- function(x) {
  op_call("exp2", as_py(x))
}

#' @rdname ops-numeric
#' @export
op_fabs <- function(x) {
  op_call("fabs", as_py(x))
}

#' @rdname ops-numeric
#' @export
op_fmax <- function(x1, x2) {
  op_call("fmax", as_py(x1), as_py(x2))
}

#' @rdname ops-numeric
#' @export
op_fmin <- function(x1, x2) {
  op_call("fmin", as_py(x1), as_py(x2))
}

#' @rdname ops-numeric
#' @export
op_fmod <- function(x1, x2) {
  op_call("fmod", as_py(x1), as_py(x2))
}

#' @rdname ops-numeric
#' @export
op_heaviside <- function(x1, x2) {
  op_call("heaviside", as_py(x1), as_py(x2))
}

#' @rdname ops-numeric
#' @export
op_hypot <- function(x1, x2) {
  op_call("hypot", as_py(x1), as_py(x2))
}

#' @rdname ops-numeric
#' @export
op_i0 <- function(x) {
  op_call("i0", as_py(x))
}

#' @rdname ops-numeric
#' @export
op_ldexp <- function(x1, x2) {
  op_call("ldexp", as_py(x1), as_py(x2))
}

#' @rdname ops-numeric
#' @export
op_logaddexp2 <- function(x1, x2) {
  op_call("logaddexp2", as_py(x1), as_py(x2))
}

#' @rdname ops-numeric
#' @export
op_nan_to_num <- function(x, nan = 0.0, posinf = NULL, neginf = NULL) {
  op_call("nan_to_num", as_py(x), nan = as_py(nan), posinf = as_py(posinf),
    neginf = as_py(neginf))
}

#' @rdname ops-numeric
#' @export
op_rad2deg <- function(x) {
  op_call("rad2deg", as_py(x))
}

#' @rdname ops-numeric
#' @export
op_sinc <- function(x) {
  op_call("sinc", as_py(x))
}

#' @rdname ops-numeric
#' @export
op_trunc <- function(x) {
  op_call("trunc", as_py(x))
}
