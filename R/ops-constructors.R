# Thin wrappers of pycg.ops: argument conversions live in R/convert.R.

#' More tensor constructors
#'
#' Triangles, grids, log-spaced ranges, Vandermonde matrices and window
#' functions. `op_unravel_index()` takes and returns 1-based positions.
#'
#' @param x A tensor (or an R value).
#' @param dtype A dtype name such as `"float32"`, or `NULL`.
#' @param shape A shape (whole numbers).
#' @param start The first value.
#' @param stop The last value.
#' @param num The number of values.
#' @param endpoint If `TRUE`, include `stop`.
#' @param axis The axis or axes, 1-based (negative counts from the end); `NULL`
#'   for all.
#' @param n A count.
#' @param beta The shape parameter.
#' @param base The base of the powers.
#' @param ... Tensors (1-d).
#' @param indexing `"xy"` or `"ij"`.
#' @param N A number of rows (columns for `op_vander()`).
#' @param M A number of columns, or `NULL`.
#' @param k A count (`op_top_k()`, `op_in_top_k()`, `op_rot90()`) or a diagonal
#'   offset.
#' @param indices 1-based positions (rows of coordinates for `op_scatter()`).
#' @param increasing If `TRUE`, powers increase along the columns.
#' @return A tensor (a list of tensors where there are several results);
#'   R values for the tensor facts.
#' @examplesIf pycg_available()
#' op_tri(3)
#' op_logspace(0, 2, num = 3)
#' op_meshgrid(c(1, 2), c(3, 4, 5))
#' op_hanning(5)
#' @name ops-constructors
NULL

#' @rdname ops-constructors
#' @export
op_array <- function(x, dtype = NULL) {
  op_call("array", as_py_as(x, dtype), dtype = as_dtype(dtype))
}

#' @rdname ops-constructors
#' @export
op_bartlett <- function(x) {
  op_call("bartlett", as_py(x))
}

#' @rdname ops-constructors
#' @export
op_blackman <- function(x) {
  op_call("blackman", as_py(x))
}

#' @rdname ops-constructors
#' @export
op_empty <- function(shape, dtype = NULL) {
  op_call("empty", as_shape(shape), dtype = as_dtype(dtype))
}

#' @rdname ops-constructors
#' @export
op_empty_like <- function(x, dtype = NULL) {
  op_call("empty_like", as_py_as(x, dtype), dtype = as_dtype(dtype))
}

#' @rdname ops-constructors
#' @export
op_geomspace <- function(start, stop, num = 50L, endpoint = TRUE, dtype = NULL,
    axis = 1L) {
  op_call("geomspace", as_py(start), as_py(stop), num = as_int(num),
    endpoint = as_flag(endpoint), dtype = as_dtype(dtype), axis = as_axis(axis))
}

#' @rdname ops-constructors
#' @export
op_hamming <- function(x) {
  op_call("hamming", as_py(x))
}

#' @rdname ops-constructors
#' @export
op_hanning <- function(x) {
  op_call("hanning", as_py(x))
}

#' @rdname ops-constructors
#' @export
op_identity <- function(n, dtype = NULL) {
  op_call("identity", as_int(n), dtype = as_dtype(dtype))
}

#' @rdname ops-constructors
#' @export
op_kaiser <- function(x, beta) {
  op_call("kaiser", as_py(x), as_py(beta))
}

#' @rdname ops-constructors
#' @export
op_logspace <- function(start, stop, num = 50L, endpoint = TRUE, base = 10L,
    dtype = NULL, axis = 1L) {
  op_call("logspace", as_py(start), as_py(stop), num = as_int(num),
    endpoint = as_flag(endpoint), base = as_py(base), dtype = as_dtype(dtype),
    axis = as_axis(axis))
}

#' @rdname ops-constructors
#' @export
op_meshgrid <- function(..., indexing = "xy") {
  do.call(op_call, c(list("meshgrid"), lapply(list(...), as_py),
    list(indexing = as_py(indexing))))
}

#' @rdname ops-constructors
#' @export
op_tri <- function(N, M = NULL, k = 0L, dtype = NULL) {
  op_call("tri", as_int(N), M = as_int(M), k = as_int(k),
          dtype = as_dtype(dtype))
}

#' @rdname ops-constructors
#' @export
op_unravel_index <- function(indices, shape) {
  out <- op_call_index("unravel_index", as_index(indices), as_shape(shape))
  out
}

#' @rdname ops-constructors
#' @export
op_vander <- function(x, N = NULL, increasing = FALSE) {
  op_call("vander", as_py(x), N = as_int(N), increasing = as_py(increasing))
}
