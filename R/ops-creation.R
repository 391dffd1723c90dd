# Thin wrappers of pycg.ops: argument conversions live in R/convert.R.

#' Creating tensors
#'
#' Thin wrappers of the `pycg.ops` creation ops. Shapes are vectors of whole
#' numbers. `op_arange()` counts like Python's `range()`: from `start` up to
#' but excluding `stop`. The default float dtype is [config_floatx()] (float64
#' when the R package started Python: R's numbers are doubles).
#'
#' @param shape The shape, a vector of whole numbers.
#' @param x A tensor whose shape (and dtype) to copy.
#' @param fill_value The value of every element.
#' @param dtype The dtype, e.g. `"float64"`, `"int32"`; `NULL` for the default.
#' @param N,M Rows and columns (`M = NULL`: square).
#' @param k The diagonal: 0 the main one, positive above it.
#' @param start,stop,step For `op_arange()`: the range `start, start + step,
#'   ...` below `stop` (`stop = NULL`: from 0 to `start`). For `op_linspace()`:
#'   the first and last values.
#' @param num The number of values.
#' @param endpoint If `FALSE`, `stop` is left out (`num` values below it).
#' @param retstep If `TRUE`, return `list(values, step)`.
#' @param axis The axis (1-based) of the values when `start` and `stop` are
#'   arrays.
#' @return A tensor.
#' @examplesIf pycg_available()
#' op_zeros(c(2, 3))
#' op_eye(3)
#' op_arange(0, 1, 0.25)
#' op_linspace(0, 1, num = 5)
#' @name ops-creation
NULL

#' @rdname ops-creation
#' @export
op_zeros <- function(shape, dtype = NULL) {
  op_call("zeros", as_shape(shape), dtype = as_dtype(dtype))
}

#' @rdname ops-creation
#' @export
op_ones <- function(shape, dtype = NULL) {
  op_call("ones", as_shape(shape), dtype = as_dtype(dtype))
}

#' @rdname ops-creation
#' @export
op_full <- function(shape, fill_value, dtype = NULL) {
  op_call("full", as_shape(shape), as_py_as(fill_value, dtype),
          dtype = as_dtype(dtype))
}

#' @rdname ops-creation
#' @export
op_zeros_like <- function(x, dtype = NULL) {
  op_call("zeros_like", as_py_as(x, dtype), dtype = as_dtype(dtype))
}

#' @rdname ops-creation
#' @export
op_ones_like <- function(x, dtype = NULL) {
  op_call("ones_like", as_py_as(x, dtype), dtype = as_dtype(dtype))
}

#' @rdname ops-creation
#' @export
op_full_like <- function(x, fill_value, dtype = NULL) {
  op_call("full_like", as_py_as(x, dtype),
          as_py_as(fill_value, dtype), dtype = as_dtype(dtype))
}

#' @rdname ops-creation
#' @export
op_eye <- function(N, M = NULL, k = 0L, dtype = NULL) {
  op_call("eye", as_int(N), M = as_int(M), k = as_int(k),
          dtype = as_dtype(dtype))
}

#' @rdname ops-creation
#' @export
op_arange <- function(start, stop = NULL, step = 1L, dtype = NULL) {
  op_call("arange", as_py(start), stop = as_py(stop), step = as_py(step),
          dtype = as_dtype(dtype))
}

#' @rdname ops-creation
#' @export
op_linspace <- function(start, stop, num = 50L, endpoint = TRUE, retstep =
                        FALSE, dtype = NULL, axis = 1L) {
  op_call("linspace", as_py(start), as_py(stop), num = as_int(num),
          endpoint = as_flag(endpoint), retstep = as_flag(retstep),
          dtype = as_dtype(dtype), axis = as_axis(axis))
}
