# Thin wrappers of pycg.ops: argument conversions live in R/convert.R.

#' Moments and normalizations
#'
#' `op_moments()` gives `list(mean, variance)` over `axes`.
#' `op_batch_normalization()` normalizes with given statistics laid along
#' `axis`; `op_layer_normalization()` and `op_rms_normalization()` with the
#' statistics of `x` over `axis`; `op_normalize()` divides by the
#' `order`-norm. Axes are 1-based; negative values count from the last.
#' `epsilon = NULL` means Keras' default, `1e-7`.
#'
#' @param x A tensor.
#' @param axes,axis Axes (1-based).
#' @param keepdims If `TRUE`, keep reduced axes with length 1.
#' @param synchronized Ignored (one device).
#' @param mean,variance The statistics, one value per entry of `x` along
#'   `axis`.
#' @param offset,scale,gamma,beta Optional shift and scale.
#' @param epsilon Added to the variance (or mean square) before the root.
#' @param order The norm of `op_normalize()`: a whole number >= 1.
#' @param ... For `op_layer_normalization()`, `rms_scaling`.
#' @return A tensor (a list of two for `op_moments()`).
#' @examplesIf pycg_available()
#' x <- op_convert_to_tensor(matrix(c(1, 2, 3, 5), 2))
#' op_moments(x, 2)
#' op_layer_normalization(x)
#' op_normalize(x, order = 1)
#' @name ops-normalization
NULL

#' @rdname ops-normalization
#' @export
op_moments <- function(x, axes, keepdims = FALSE, synchronized = FALSE) {
  op_call("moments", as_py(x), as_axis(axes), keepdims = as_flag(keepdims),
          synchronized = as_flag(synchronized))
}

#' @rdname ops-normalization
#' @export
op_batch_normalization <- function(x, mean, variance, axis, offset = NULL,
                                   scale = NULL, epsilon = 1e-3) {
  op_call("batch_normalization", as_py(x), as_py(mean), as_py(variance),
          as_axis(axis), offset = as_py(offset), scale = as_py(scale),
          epsilon = as_py(epsilon))
}

#' @rdname ops-normalization
#' @export
op_normalize <- function(x, axis = -1L, order = 2L, epsilon = NULL) {
  op_call("normalize", as_py(x), axis = as_axis(axis),
          order = as_int(order), epsilon = as_py(epsilon))
}

#' @rdname ops-normalization
#' @export
op_layer_normalization <- function(x, gamma = NULL, beta = NULL, axis = -1L,
                                   epsilon = NULL, ...) {
  op_call("layer_normalization", as_py(x), as_py(gamma), as_py(beta),
          axis = as_axis(axis), epsilon = as_py(epsilon), ...)
}

#' @rdname ops-normalization
#' @export
op_rms_normalization <- function(x, scale = NULL, axis = -1L,
                                 epsilon = NULL) {
  op_call("rms_normalization", as_py(x), as_py(scale), axis = as_axis(axis),
          epsilon = as_py(epsilon))
}
