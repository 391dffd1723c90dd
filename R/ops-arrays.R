# Thin wrappers of pycg.ops: argument conversions live in R/convert.R.

#' Diagonals, triangles, rolls and stacking
#'
#' Thin wrappers of the `pycg.ops` array ops, with 1-based axes; all are
#' differentiable.
#'
#' @param x1 A tensor.
#' @param x2 A tensor.
#' @param axis The axis or axes, 1-based (negative counts from the end); `NULL`
#'   for all.
#' @param x A tensor (or an R value).
#' @param indices_or_sections A number of sections, or cut positions.
#' @param k A count (`op_top_k()`, `op_in_top_k()`, `op_rot90()`) or a diagonal
#'   offset.
#' @param offset The diagonal offset.
#' @param axis1 The first axis of the matrices, 1-based.
#' @param axis2 The second axis of the matrices, 1-based.
#' @param xs A list of tensors.
#' @param key One position (1-based) per leading axis.
#' @param source Axes to move, 1-based.
#' @param destination Where they go, 1-based.
#' @param shift The shift (one per axis in `axis`).
#' @param array A tensor.
#' @param axes Two axes, 1-based.
#' @param condlist A list of logical tensors.
#' @param choicelist A list of tensors, one per condition.
#' @param default The value where no condition holds.
#' @param num The number of values.
#' @return A tensor (a list of tensors where there are several results);
#'   R values for the tensor facts.
#' @examplesIf pycg_available()
#' x <- op_convert_to_tensor(matrix(1:6, 2, 3) + 0)
#' op_diagonal(x)
#' op_tril(x)
#' op_roll(x, 1, axis = 2)
#' op_vstack(list(x, x))
#' @name ops-arrays
NULL

#' @rdname ops-arrays
#' @export
op_append <- function(x1, x2, axis = NULL) {
  op_call("append", as_py(x1), as_py(x2), axis = as_axis(axis))
}

#' @rdname ops-arrays
#' @export
op_array_split <- function(x, indices_or_sections, axis = 1L) {
  op_call("array_split", as_py(x), as_int(indices_or_sections),
    axis = as_axis(axis))
}

#' @rdname ops-arrays
#' @export
op_diag <- function(x, k = 0L) {
  op_call("diag", as_py(x), k = as_int(k))
}

#' @rdname ops-arrays
#' @export
op_diagflat <- function(x, k = 0L) {
  op_call("diagflat", as_py(x), k = as_int(k))
}

#' @rdname ops-arrays
#' @export
op_diagonal <- function(x, offset = 0L, axis1 = 1L, axis2 = 2L) {
  op_call("diagonal", as_py(x), offset = as_int(offset),
    axis1 = as_axis(axis1), axis2 = as_axis(axis2))
}

#' @rdname ops-arrays
#' @export
op_dsplit <- function(x, indices_or_sections) {
  op_call("dsplit", as_py(x), as_int(indices_or_sections))
}

#' @rdname ops-arrays
#' @export
op_dstack <- function(xs) {
  op_call("dstack", as_py(unname(xs)))
}

#' @rdname ops-arrays
#' @export
op_fliplr <- function(x) {
  op_call("fliplr", as_py(x))
}

#' @rdname ops-arrays
#' @export
op_flipud <- function(x) {
  op_call("flipud", as_py(x))
}

#' @rdname ops-arrays
#' @export
op_get_item <- function(x, key) {
  op_call("get_item", as_py(x), as_py(do.call(tuple, lapply(key, as_index, arg = "key"))))
}

#' @rdname ops-arrays
#' @export
op_hsplit <- function(x, indices_or_sections) {
  op_call("hsplit", as_py(x), as_int(indices_or_sections))
}

#' @rdname ops-arrays
#' @export
op_hstack <- function(xs) {
  op_call("hstack", as_py(unname(xs)))
}

#' @rdname ops-arrays
#' @export
op_moveaxis <- function(x, source, destination) {
  op_call("moveaxis", as_py(x), as_axis(source), as_axis(destination))
}

#' @rdname ops-arrays
#' @export
op_roll <- function(x, shift, axis = NULL) {
  op_call("roll", as_py(x), as_int(shift), axis = as_axis(axis))
}

#' @rdname ops-arrays
#' @export
op_rot90 <- function(array, k = 1L, axes = c(1L, 2L)) {
  op_call("rot90", as_py(array), k = as_int(k), axes = as_axis(axes))
}

#' @rdname ops-arrays
#' @export
op_select <- function(condlist, choicelist, default = 0L) {
  op_call("select", as_py(unname(condlist)), as_py(unname(choicelist)),
    default = as_py(default))
}

#' @rdname ops-arrays
#' @export
op_trace <- function(x, offset = 0L, axis1 = 1L, axis2 = 2L) {
  op_call("trace", as_py(x), offset = as_int(offset), axis1 = as_axis(axis1),
    axis2 = as_axis(axis2))
}

#' @rdname ops-arrays
#' @export
op_tril <- function(x, k = 0L) {
  op_call("tril", as_py(x), k = as_int(k))
}

#' @rdname ops-arrays
#' @export
op_triu <- function(x, k = 0L) {
  op_call("triu", as_py(x), k = as_int(k))
}

#' @rdname ops-arrays
#' @export
op_unstack <- function(x, num = NULL, axis = 1L) {
  op_call("unstack", as_py(x), num = as_int(num), axis = as_axis(axis))
}

#' @rdname ops-arrays
#' @export
op_vsplit <- function(x, indices_or_sections) {
  op_call("vsplit", as_py(x), as_int(indices_or_sections))
}

#' @rdname ops-arrays
#' @export
op_vstack <- function(xs) {
  op_call("vstack", as_py(unname(xs)))
}
