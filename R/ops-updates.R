# Thin wrappers of pycg.ops: argument conversions live in R/convert.R.

#' Scatter, slice updates and segment reductions
#'
#' Positions are 1-based: the rows of `indices`, `start_indices` and the
#' segment ids.
#'
#' @param x A tensor (or an R value).
#' @param dtype A dtype name such as `"float32"`, or `NULL`.
#' @param indices 1-based positions (rows of coordinates for `op_scatter()`).
#' @param values A tensor of values.
#' @param shape A shape (whole numbers).
#' @param inputs A tensor.
#' @param updates A tensor of new values.
#' @param reduction `NULL` (replace), `"add"`, `"mul"`, `"max"` or `"min"`.
#' @param data A tensor.
#' @param segment_ids The 1-based segment of each row of `data`.
#' @param num_segments The number of segments, or `NULL`.
#' @param sorted Whether the result is sorted (ignored where it always is).
#' @param start_indices The 1-based position of the block's first element.
#' @return A tensor (a list of tensors where there are several results);
#'   R values for the tensor facts.
#' @examplesIf pycg_available()
#' op_scatter(matrix(c(1, 3), ncol = 1), c(5, 7), 4)
#' op_segment_sum(c(1, 2, 3), c(1, 1, 2))
#' @name ops-updates
NULL

#' @rdname ops-updates
#' @export
op_saturate_cast <- function(x, dtype) {
  op_call("saturate_cast", as_py(x), as_dtype(dtype))
}

#' @rdname ops-updates
#' @export
op_scatter <- function(indices, values, shape) {
  op_call("scatter", as_index(indices), as_py(values), as_shape(shape))
}

#' @rdname ops-updates
#' @export
op_scatter_update <- function(inputs, indices, updates, reduction = NULL) {
  op_call("scatter_update", as_py(inputs), as_index(indices),
    as_py(updates), reduction = as_py(reduction))
}

#' @rdname ops-updates
#' @export
op_segment_max <- function(data, segment_ids, num_segments = NULL,
    sorted = FALSE) {
  op_call("segment_max", as_py(data), as_index(segment_ids, "segment_ids"),
    num_segments = as_int(num_segments), sorted = as_flag(sorted))
}

#' @rdname ops-updates
#' @export
op_segment_min <- function(data, segment_ids, num_segments = NULL,
    sorted = FALSE) {
  op_call("segment_min", as_py(data), as_index(segment_ids, "segment_ids"),
    num_segments = as_int(num_segments), sorted = as_flag(sorted))
}

#' @rdname ops-updates
#' @export
op_segment_prod <- function(data, segment_ids, num_segments = NULL,
    sorted = FALSE) {
  op_call("segment_prod", as_py(data), as_index(segment_ids, "segment_ids"),
    num_segments = as_int(num_segments), sorted = as_flag(sorted))
}

#' @rdname ops-updates
#' @export
op_segment_sum <- function(data, segment_ids, num_segments = NULL,
    sorted = FALSE) {
  op_call("segment_sum", as_py(data), as_index(segment_ids, "segment_ids"),
    num_segments = as_int(num_segments), sorted = as_flag(sorted))
}

#' @rdname ops-updates
#' @export
op_slice_update <- function(inputs, start_indices, updates) {
  op_call("slice_update", as_py(inputs), as_index(start_indices,
          "start_indices"),
    as_py(updates))
}
