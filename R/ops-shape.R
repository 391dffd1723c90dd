# Thin wrappers of pycg.ops: argument conversions live in R/convert.R.

#' Reshaping and combining tensors
#'
#' Thin wrappers of the `pycg.ops` shape ops, with 1-based axes. Like NumPy
#' (and keras3), `op_reshape()` and `op_ravel()` read and write elements in
#' row-major order: `op_reshape(x, c(3, 2))` is not `array(x, c(3, 2))`.
#' `op_split()` takes a number of equal sections, or the sizes before each cut
#' (`c(2, 5)` splits after the 2nd and 5th elements). `pad_width` is an n x 2
#' matrix of (before, after) counts per axis, a pair, or one number.
#'
#' @param x A tensor (for `op_stack()`, a list of tensors).
#' @param xs A list of tensors.
#' @param axis The axis, 1-based (negative counts from the end).
#' @param axis1,axis2 Two axes to swap, 1-based.
#' @param axes A permutation of the axes, 1-based; `NULL` reverses them.
#' @param newshape,shape The new shape: whole numbers, `-1` for one inferred
#'   extent.
#' @param repeats Repetitions: one number or one per axis (`op_tile()`), or per
#'   element (`op_repeat()`).
#' @param indices_or_sections A number of equal sections, or cut positions.
#' @param pad_width Padding per axis (see Details).
#' @param mode The padding mode, e.g. `"constant"`.
#' @param constant_values The fill value for `mode = "constant"`.
#' @return A tensor (a list of tensors for `op_split()`).
#' @examplesIf pycg_available()
#' x <- op_convert_to_tensor(matrix(1:6, 2, 3) + 0)
#' op_transpose(x)
#' op_concatenate(list(x, x), axis = 2)
#' op_stack(list(x, x))
#' op_expand_dims(x, 1)
#' op_reshape(x, c(3, 2))
#' @name ops-shape
NULL

#' @rdname ops-shape
#' @export
op_reshape <- function(x, newshape) {
  op_call("reshape", as_py(x), as_shape(newshape))
}

#' @rdname ops-shape
#' @export
op_transpose <- function(x, axes = NULL) {
  op_call("transpose", as_py(x), as_axes(axes))
}

#' @rdname ops-shape
#' @export
op_swapaxes <- function(x, axis1, axis2) {
  op_call("swapaxes", as_py(x), as_axis(axis1), as_axis(axis2))
}

#' @rdname ops-shape
#' @export
op_expand_dims <- function(x, axis) {
  op_call("expand_dims", as_py(x), as_axis(axis))
}

#' @rdname ops-shape
#' @export
op_squeeze <- function(x, axis = NULL) {
  op_call("squeeze", as_py(x), axis = as_axis(axis))
}

#' @rdname ops-shape
#' @export
op_broadcast_to <- function(x, shape) {
  op_call("broadcast_to", as_py(x), as_shape(shape))
}

#' @rdname ops-shape
#' @export
op_concatenate <- function(xs, axis = 1L) {
  op_call("concatenate", as_py(unname(xs)), axis = as_axis(axis))
}

#' @rdname ops-shape
#' @export
op_stack <- function(x, axis = 1L) {
  op_call("stack", as_py(unname(x)), axis = as_axis(axis))
}

#' @rdname ops-shape
#' @export
op_split <- function(x, indices_or_sections, axis = 1L) {
  op_call("split", as_py(x), as_int(indices_or_sections), axis = as_axis(axis))
}

#' @rdname ops-shape
#' @export
op_flip <- function(x, axis = NULL) {
  op_call("flip", as_py(x), axis = as_axis(axis))
}

#' @rdname ops-shape
#' @export
op_tile <- function(x, repeats) {
  op_call("tile", as_py(x), as_int(repeats))
}

#' @rdname ops-shape
#' @export
op_repeat <- function(x, repeats, axis = NULL) {
  op_call("repeat", as_py(x), as_int(repeats), axis = as_axis(axis))
}

#' @rdname ops-shape
#' @export
op_pad <- function(x, pad_width, mode = "constant", constant_values = NULL) {
  op_call("pad", as_py(x), as_pad_width(pad_width), mode = as_py(mode),
          constant_values
          = as_py(constant_values))
}

#' @rdname ops-shape
#' @export
op_ravel <- function(x) {
  op_call("ravel", as_py(x))
}
