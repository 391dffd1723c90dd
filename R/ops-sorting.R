# Thin wrappers of pycg.ops: argument conversions live in R/convert.R.

#' Sorting and order statistics
#'
#' `op_sort()`, `op_top_k()` values, `op_median()` and `op_quantile()` are
#' differentiable. Positions are 1-based: `op_argsort()`, the indices of
#' `op_top_k()`, `op_searchsorted()` and the `kth`/`targets` arguments.
#' `op_digitize()` returns bin numbers as NumPy does (0 below the first bin).
#'
#' @param x A tensor (or an R value).
#' @param kth The position (1-based) to partition at.
#' @param axis The axis or axes, 1-based (negative counts from the end); `NULL`
#'   for all.
#' @param weights A tensor of weights, or `NULL`.
#' @param minlength The least length.
#' @param sparse Must be `FALSE`.
#' @param bins The number of bins, or a tensor of increasing bin edges.
#' @param range The (lower, upper) range of the bins, or `NULL`.
#' @param targets The 1-based target class of each row.
#' @param predictions A tensor of scores, (batch, classes).
#' @param k A count (`op_top_k()`, `op_in_top_k()`, `op_rot90()`) or a diagonal
#'   offset.
#' @param keepdims If `TRUE`, keep reduced axes with length 1.
#' @param q Quantiles in \[0, 1\] (percentiles in \[0, 100\]).
#' @param method The interpolation: `"linear"`, `"lower"`, `"higher"`,
#'   `"midpoint"` or `"nearest"`.
#' @param sorted_sequence A sorted 1-d tensor.
#' @param values A tensor of values.
#' @param side `"left"` or `"right"`.
#' @param sorted Whether the result is sorted (ignored where it always is).
#' @param return_index If `TRUE`, also return first positions.
#' @param return_inverse If `TRUE`, also return the inverse positions.
#' @param return_counts If `TRUE`, also return counts.
#' @param size A fixed output length, or `NULL`.
#' @param fill_value The padding value for `size`.
#' @return A tensor (a list of tensors where there are several results);
#'   R values for the tensor facts.
#' @examplesIf pycg_available()
#' x <- op_convert_to_tensor(matrix(c(3, 1, 2, 5, 4, 6), 2))
#' op_sort(x, axis = 2)
#' op_argsort(x)
#' op_median(x)
#' op_quantile(x, c(0.25, 0.75))
#' @name ops-sorting
NULL

#' @rdname ops-sorting
#' @export
op_argpartition <- function(x, kth, axis = -1L) {
  op_call_index("argpartition", as_py(x), as_index(kth, "kth"),
                axis = as_axis(axis))
}

#' @rdname ops-sorting
#' @export
op_argsort <- function(x, axis = -1L) {
  op_call_index("argsort", as_py(x), axis = as_axis(axis))
}

#' @rdname ops-sorting
#' @export
op_bincount <- function(x, weights = NULL, minlength = 0L, sparse = FALSE) {
  op_call("bincount", as_py(x), weights = as_py(weights),
    minlength = as_int(minlength), sparse = as_flag(sparse))
}

#' @rdname ops-sorting
#' @export
op_digitize <- function(x, bins) {
  op_call("digitize", as_py(x), as_py(bins))
}

#' @rdname ops-sorting
#' @export
op_histogram <- function(x, bins = 10L, range = NULL) {
  op_call("histogram", as_py(x), bins = as_int(bins),
    range = if (is.null(range)) NULL else as.list(as.numeric(range)))
}

#' @rdname ops-sorting
#' @export
op_in_top_k <- function(targets, predictions, k) {
  op_call("in_top_k", as_index(targets, "targets"), as_py(predictions),
          as_int(k))
}

#' @rdname ops-sorting
#' @export
op_median <- function(x, axis = NULL, keepdims = FALSE) {
  op_call("median", as_py(x), axis = as_axis(axis),
          keepdims = as_flag(keepdims))
}

#' @rdname ops-sorting
#' @export
op_nanmedian <- function(x, axis = NULL, keepdims = FALSE) {
  op_call("nanmedian", as_py(x), axis = as_axis(axis),
    keepdims = as_flag(keepdims))
}

#' @rdname ops-sorting
#' @export
op_nanpercentile <- function(x, q, axis = NULL, method = "linear",
    keepdims = FALSE) {
  op_call("nanpercentile", as_py(x), as_py(q), axis = as_axis(axis),
    method = as_py(method), keepdims = as_flag(keepdims))
}

#' @rdname ops-sorting
#' @export
op_nanquantile <- function(x, q, axis = NULL, method = "linear",
    keepdims = FALSE) {
  op_call("nanquantile", as_py(x), as_py(q), axis = as_axis(axis),
    method = as_py(method), keepdims = as_flag(keepdims))
}

#' @rdname ops-sorting
#' @export
op_percentile <- function(x, q, axis = NULL, method = "linear",
    keepdims = FALSE) {
  op_call("percentile", as_py(x), as_py(q), axis = as_axis(axis),
    method = as_py(method), keepdims = as_flag(keepdims))
}

#' @rdname ops-sorting
#' @export
op_quantile <- function(x, q, axis = NULL, method = "linear",
    keepdims = FALSE) {
  op_call("quantile", as_py(x), as_py(q), axis = as_axis(axis),
    method = as_py(method), keepdims = as_flag(keepdims))
}

#' @rdname ops-sorting
#' @export
op_searchsorted <- function(sorted_sequence, values, side = "left") {
  op_call_index("searchsorted", as_py(sorted_sequence), as_py(values),
    side = as_py(side))
}

#' @rdname ops-sorting
#' @export
op_sort <- function(x, axis = -1L) {
  op_call("sort", as_py(x), axis = as_axis(axis))
}

#' @rdname ops-sorting
#' @export
op_top_k <- function(x, k, sorted = TRUE) {
  out <- op_call("top_k", as_py(x), as_int(k), sorted = as_flag(sorted))
  out[[2L]] <- out[[2L]] + 1L
  out
}

#' @rdname ops-sorting
#' @export
op_unique <- function(x, sorted = TRUE, return_index = FALSE,
    return_inverse = FALSE, return_counts = FALSE, axis = NULL, size = NULL,
    fill_value = NULL) {
  out <- op_call("unique", as_py(x), sorted = as_flag(sorted),
    return_index = as_flag(return_index),
    return_inverse = as_flag(return_inverse),
    return_counts = as_flag(return_counts),
    axis = as_axis(axis), size = as_int(size), fill_value = as_py(fill_value))
  if (!is.list(out)) return(out)
  shift <- c(FALSE, return_index, return_inverse)
  shift <- shift[c(TRUE, return_index, return_inverse, return_counts)]
  for (i in which(shift)) out[[i]] <- out[[i]] + 1L
  out
}
