# Thin wrappers of pycg.ops: argument conversions live in R/convert.R.

#' Taking elements by position
#'
#' Positions are 1-based, as in R: `op_take(x, 2)` is the second element.
#' `op_take()` takes along `axis` (from the row-major flattening when `axis` is
#' `NULL`); `op_take_along_axis()` takes one position per element, as from
#' `op_argmax(keepdims = TRUE)`; `op_slice()` cuts a block of size `shape`
#' starting at `start_indices`; `op_getitem()` takes the element at one
#' position per leading axis. For R's own `[` rules, use `x[i, j]`.
#'
#' @param x A tensor.
#' @param inputs A tensor.
#' @param indices 1-based positions: R whole numbers or an integer tensor.
#' @param axis The axis, 1-based; `NULL` for the flattened tensor.
#' @param start_indices 1-based start position per axis.
#' @param shape The size of the block per axis.
#' @param index A 1-based position, or a list with one per leading axis.
#' @return A tensor.
#' @examplesIf pycg_available()
#' x <- op_convert_to_tensor(c(10, 20, 30, 40))
#' op_take(x, c(1, 4))
#' op_slice(x, 2, 2)
#' op_getitem(x, 3)
#' @name ops-indexing
NULL

#' @rdname ops-indexing
#' @export
op_take <- function(x, indices, axis = NULL) {
  op_call("take", as_py(x), as_index(indices, extent = axis_extent(x, axis)),
          axis = as_axis(axis))
}

#' @rdname ops-indexing
#' @export
op_take_along_axis <- function(x, indices, axis = NULL) {
  op_call("take_along_axis", as_py(x),
          as_index(indices, extent = axis_extent(x, axis)),
          axis = as_axis(axis))
}

#' @rdname ops-indexing
#' @export
op_slice <- function(inputs, start_indices, shape) {
  if (!inherits(start_indices, "python.builtin.object"))
    check_positions(start_indices, "start_indices", NULL)
  op_call("slice", as_py(inputs), as_shape(start_indices - 1L), as_shape(shape))
}

#' @rdname ops-indexing
#' @export
op_getitem <- function(x, index) {
  op_call("getitem", as_py(x), as_py(do.call(tuple, lapply(index, as_index, arg = "index"))))
}
