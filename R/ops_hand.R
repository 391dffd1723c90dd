# The op wrappers kept by hand: their R face differs from the Python call
# (tools/gen_r_ops.py makes every other R/ops-*.R wrapper, and skips the
# names here). Their help pages, and the @param texts there, are generated
# with the rest (tools/r_ops.toml).

# R values out: an R array, an integer vector.
#' @rdname ops-core
#' @export
op_convert_to_numpy <- function(x) {
  if (!inherits(x, "pycg.tensor.Tensor"))
    x <- op_convert_to_tensor(x)
  tensor_to_r(x, "op_convert_to_numpy")
}

#' @rdname ops-core
#' @export
op_shape <- function(x) {
  as.integer(unlist(op_call("shape", as_py(x))))
}

# The one-argument form is op_nonzero(); the condition is checked in R.
#' @rdname ops-elementwise-misc
#' @export
op_where <- function(condition, x1 = NULL, x2 = NULL) {
  if (is.null(x1) && is.null(x2)) return(op_nonzero(condition))
  check_condition(condition)
  op_call("where", as_py(condition), x1 = as_py(x1), x2 = as_py(x2))
}

# 1-based positions in, checked against the extent of `axis` (or of each
# axis) before Python sees them.
#' @rdname ops-arrays
#' @export
op_get_item <- function(x, key) {
  op_call("get_item", as_py(x), as_py(do.call(tuple, lapply(key, as_index, arg = "key"))))
}

#' @rdname ops-indexing
#' @export
op_getitem <- function(x, index) {
  op_call("getitem", as_py(x), as_py(do.call(tuple, lapply(index, as_index, arg = "index"))))
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

# 1-based positions out in one element of a list of results whose others
# are values (op_call_index would shift them all).
#' @rdname ops-decompositions
#' @export
op_lu_factor <- function(x) {
  out <- op_call("lu_factor", as_py(x))
  out[[2L]] <- out[[2L]] + 1L
  out
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

#' @rdname ops-losses
#' @export
op_ctc_decode <- function(inputs, sequence_lengths, strategy = "greedy",
                          beam_width = 100L, top_paths = 1L,
                          merge_repeated = TRUE, mask_index = 1L) {
  res <- op_call("ctc_decode", as_py(inputs), as_lengths(sequence_lengths),
                 strategy = as_py(strategy), beam_width = as_int(beam_width),
                 top_paths = as_int(top_paths),
                 merge_repeated = as_flag(merge_repeated),
                 mask_index = as_index(mask_index, "mask_index"))
  decoded <- res[[1]]
  list(op_where(decoded >= 0L, decoded + 1L, decoded), res[[2]])
}

# `...` holds axis lengths (integers), not tensors.
#' @rdname ops-einops
#' @export
op_rearrange <- function(tensor, pattern, ...) {
  lengths <- lapply(list(...), as_int)
  do.call(op_call, c(list("rearrange", as_py(tensor), as_py(pattern)),
                     lengths))
}

# An R function out, calling the vectorized Python one.
#' @rdname ops-transforms
#' @export
op_vectorize <- function(pyfunc, excluded = NULL, signature = NULL) {
  f <- op_call("vectorize", as_py(pyfunc), excluded = as_index(excluded,
               "excluded"),
    signature = as_py(signature))
  function(...) py_apply(guard(f), lapply(list(...), as_py))
}
