# Thin wrappers of pycg.ops: argument conversions live in R/convert.R.

#' Elementwise math on one tensor
#'
#' Thin wrappers of `pycg.ops.<name>`: each applies the function to every
#' element of `x`.
#'
#' @param x A tensor, or an R number or array (converted with
#'   [op_convert_to_tensor()]).
#' @return A tensor of the shape of `x`.
#' @examplesIf pycg_available()
#' x <- op_convert_to_tensor(c(0.5, 1, 2))
#' op_exp(x)
#' op_log1p(x)
#' @name ops-unary
NULL

#' @rdname ops-unary
#' @export
op_abs <- function(x) {
  op_call("abs", as_py(x))
}

#' @rdname ops-unary
#' @export
op_arccos <- function(x) {
  op_call("arccos", as_py(x))
}

#' @rdname ops-unary
#' @export
op_arcsin <- function(x) {
  op_call("arcsin", as_py(x))
}

#' @rdname ops-unary
#' @export
op_arctan <- function(x) {
  op_call("arctan", as_py(x))
}

#' @rdname ops-unary
#' @export
op_ceil <- function(x) {
  op_call("ceil", as_py(x))
}

#' @rdname ops-unary
#' @export
op_cos <- function(x) {
  op_call("cos", as_py(x))
}

#' @rdname ops-unary
#' @export
op_cosh <- function(x) {
  op_call("cosh", as_py(x))
}

#' @rdname ops-unary
#' @export
op_erf <- function(x) {
  op_call("erf", as_py(x))
}

#' @rdname ops-unary
#' @export
op_exp <- function(x) {
  op_call("exp", as_py(x))
}

#' @rdname ops-unary
#' @export
op_expm1 <- function(x) {
  op_call("expm1", as_py(x))
}

#' @rdname ops-unary
#' @export
op_floor <- function(x) {
  op_call("floor", as_py(x))
}

#' @rdname ops-unary
#' @export
op_isfinite <- function(x) {
  op_call("isfinite", as_py(x))
}

#' @rdname ops-unary
#' @export
op_isnan <- function(x) {
  op_call("isnan", as_py(x))
}

#' @rdname ops-unary
#' @export
op_log <- function(x) {
  op_call("log", as_py(x))
}

#' @rdname ops-unary
#' @export
op_log10 <- function(x) {
  op_call("log10", as_py(x))
}

#' @rdname ops-unary
#' @export
op_log1p <- function(x) {
  op_call("log1p", as_py(x))
}

#' @rdname ops-unary
#' @export
op_log2 <- function(x) {
  op_call("log2", as_py(x))
}

#' @rdname ops-unary
#' @export
op_logical_not <- function(x) {
  op_call("logical_not", as_py(x))
}

#' @rdname ops-unary
#' @export
op_negative <- function(x) {
  op_call("negative", as_py(x))
}

#' @rdname ops-unary
#' @export
op_reciprocal <- function(x) {
  op_call("reciprocal", as_py(x))
}

#' @rdname ops-unary
#' @export
op_rsqrt <- function(x) {
  op_call("rsqrt", as_py(x))
}

#' @rdname ops-unary
#' @export
op_sign <- function(x) {
  op_call("sign", as_py(x))
}

#' @rdname ops-unary
#' @export
op_sin <- function(x) {
  op_call("sin", as_py(x))
}

#' @rdname ops-unary
#' @export
op_sinh <- function(x) {
  op_call("sinh", as_py(x))
}

#' @rdname ops-unary
#' @export
op_sqrt <- function(x) {
  op_call("sqrt", as_py(x))
}

#' @rdname ops-unary
#' @export
op_square <- function(x) {
  op_call("square", as_py(x))
}

#' @rdname ops-unary
#' @export
op_tan <- function(x) {
  op_call("tan", as_py(x))
}

#' @rdname ops-unary
#' @export
op_tanh <- function(x) {
  op_call("tanh", as_py(x))
}

#' @rdname ops-unary
#' @export
op_real <- function(x) {
  op_call("real", as_py(x))
}

#' @rdname ops-unary
#' @export
op_imag <- function(x) {
  op_call("imag", as_py(x))
}

#' @rdname ops-unary
#' @export
op_conj <- function(x) {
  op_call("conj", as_py(x))
}

#' Elementwise operations on two tensors
#'
#' Thin wrappers of `pycg.ops.<name>`, broadcasting `x1` against `x2` as
#' NumPy does (along the last axes; R's operators `+`, `*`, ... recycle as
#' base R does instead, see [tensor-methods]). R numbers are weakly typed:
#' they take the dtype of the tensor they meet.
#'
#' @param x1,x2 Tensors, or R numbers or arrays.
#' @return A tensor of the broadcast shape (logical for the comparisons).
#' @examplesIf pycg_available()
#' x <- op_convert_to_tensor(c(1, 2, 3))
#' op_add(x, 1)
#' op_power(x, 2)
#' op_maximum(x, c(3, 2, 1))
#' @name ops-binary
NULL

#' @rdname ops-binary
#' @export
op_add <- function(x1, x2) {
  op_call("add", as_py(x1), as_py(x2))
}

#' @rdname ops-binary
#' @export
op_arctan2 <- function(x1, x2) {
  op_call("arctan2", as_py(x1), as_py(x2))
}

#' @rdname ops-binary
#' @export
op_divide <- function(x1, x2) {
  op_call("divide", as_py(x1), as_py(x2))
}

#' @rdname ops-binary
#' @export
op_equal <- function(x1, x2) {
  op_call("equal", as_py(x1), as_py(x2))
}

#' @rdname ops-binary
#' @export
op_greater <- function(x1, x2) {
  op_call("greater", as_py(x1), as_py(x2))
}

#' @rdname ops-binary
#' @export
op_greater_equal <- function(x1, x2) {
  op_call("greater_equal", as_py(x1), as_py(x2))
}

#' @rdname ops-binary
#' @export
op_less <- function(x1, x2) {
  op_call("less", as_py(x1), as_py(x2))
}

#' @rdname ops-binary
#' @export
op_less_equal <- function(x1, x2) {
  op_call("less_equal", as_py(x1), as_py(x2))
}

#' @rdname ops-binary
#' @export
op_logaddexp <- function(x1, x2) {
  op_call("logaddexp", as_py(x1), as_py(x2))
}

#' @rdname ops-binary
#' @export
op_logical_and <- function(x1, x2) {
  op_call("logical_and", as_py(x1), as_py(x2))
}

#' @rdname ops-binary
#' @export
op_logical_or <- function(x1, x2) {
  op_call("logical_or", as_py(x1), as_py(x2))
}

#' @rdname ops-binary
#' @export
op_mod <- function(x1, x2) {
  op_call("mod", as_py(x1), as_py(x2))
}

#' @rdname ops-binary
#' @export
op_floor_divide <- function(x1, x2) {
  op_call("floor_divide", as_py(x1), as_py(x2))
}

#' @rdname ops-binary
#' @export
op_maximum <- function(x1, x2) {
  op_call("maximum", as_py(x1), as_py(x2))
}

#' @rdname ops-binary
#' @export
op_minimum <- function(x1, x2) {
  op_call("minimum", as_py(x1), as_py(x2))
}

#' @rdname ops-binary
#' @export
op_multiply <- function(x1, x2) {
  op_call("multiply", as_py(x1), as_py(x2))
}

#' @rdname ops-binary
#' @export
op_not_equal <- function(x1, x2) {
  op_call("not_equal", as_py(x1), as_py(x2))
}

#' @rdname ops-binary
#' @export
op_power <- function(x1, x2) {
  op_call("power", as_py(x1), as_py(x2))
}

#' @rdname ops-binary
#' @export
op_subtract <- function(x1, x2) {
  op_call("subtract", as_py(x1), as_py(x2))
}

#' @rdname ops-binary
#' @export
op_true_divide <- function(x1, x2) {
  op_call("true_divide", as_py(x1), as_py(x2))
}

#' Rounding, clipping and selection
#'
#' `op_round()` rounds to `decimals` digits; `op_clip()` limits values to
#' `[x_min, x_max]`; `op_where(condition, x1, x2)` picks `x1` where `condition`
#' holds and `x2` elsewhere; `op_where(condition)` alone is
#' `op_nonzero(condition)` (1-based positions, one vector per axis).
#'
#' @param x A tensor.
#' @param decimals Number of decimal digits.
#' @param x_min,x_max Lower and upper bounds.
#' @param condition A logical tensor or array.
#' @param x1,x2 Values where `condition` is `TRUE` / `FALSE`.
#' @return A tensor.
#' @examplesIf pycg_available()
#' x <- op_convert_to_tensor(c(-2.26, 0.5, 3.7))
#' op_round(x, 1)
#' op_clip(x, 0, 1)
#' op_where(x > 0, x, 0)
#' @name ops-elementwise-misc
NULL

#' @rdname ops-elementwise-misc
#' @export
op_round <- function(x, decimals = 0L) {
  op_call("round", as_py(x), decimals = as_int(decimals))
}

#' @rdname ops-elementwise-misc
#' @export
op_clip <- function(x, x_min, x_max) {
  op_call("clip", as_py(x), as_py(x_min), as_py(x_max))
}

#' @rdname ops-elementwise-misc
#' @export
op_where <- function(condition, x1 = NULL, x2 = NULL) {
  if (is.null(x1) && is.null(x2)) return(op_nonzero(condition))
  check_condition(condition)
  op_call("where", as_py(condition), x1 = as_py(x1), x2 = as_py(x2))
}
