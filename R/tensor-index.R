# R's indexing of tensors: `[`, `[[` and their assignments (documented in
# ?tensor-methods). Values placed by `[<-` go through pycg/r/base/replace.py
# (R's types, recycling and NA).

#' @rdname tensor-methods
#' @export
`[.pycg.tensor.Tensor` <- function(x, i, j, ..., drop = TRUE) {
  index <- as.list(sys.call())[-c(1L, 2L)]
  index <- index[names(index) %||% rep("", length(index)) != "drop"]
  env <- parent.frame()
  index <- lapply(unname(index), function(e) {
    if (identical(e, quote(expr = ))) return(NULL)  # a missing index: all
    r_index(eval(e, env) %||% integer())             # x[NULL] selects none
  })
  if (length(index) == 1L && is.matrix(index[[1L]]) &&
      is.numeric(index[[1L]]) && length(d <- tensor_dim(x)) > 1L &&
      ncol(index[[1L]]) == length(d))
    index[[1L]] <- matrix_positions(index[[1L]], d)
  if (length(index) == 1L && is.logical(index[[1L]]) &&
      length(index[[1L]]) > length(x)) {
    i <- index[[1L]]   # as base R: positions past the end select NA
    index[[1L]] <- ifelse(is.na(i), NA, seq_along(i))[i | is.na(i)]
  }
  if (length(index) == 1L && is.numeric(index[[1L]]) &&
      any(index[[1L]] >= length(x) + 1, na.rm = TRUE))
    index[[1L]][index[[1L]] >= length(x) + 1] <- NA  # as base R: x[5] is NA
  has_na <- vapply(index, function(i) is.atomic(i) && anyNA(i), NA)
  if (any(has_na)) {
    if (length(index) != 1L)
      stop("`[`: an NA index is supported in x[i] only, not in x[i, j]; ",
           "use which(i) to leave the NAs out", call. = FALSE)
    return(subset_with_na(x, index[[1L]], isTRUE(drop)))
  }
  index <- lapply(index, as_py)
  na_through(x, function(t) py_call(interop()$r_subset, t, index, isTRUE(drop)))
}

# A matrix of coordinates (one row per element, one column per axis), as
# base R reads m[cbind(i, j)], to positions in column-major order.
# As base R: a row holding 0 selects nothing, one holding NA gives NA.
matrix_positions <- function(at, d) {
  if (any(at < 0, na.rm = TRUE))
    stop("`[`: negative values are not allowed in a matrix subscript",
         call. = FALSE)
  at <- trunc(at[!apply(at == 0, 1L, any, na.rm = TRUE), , drop = FALSE])
  if (any(t(at) > d, na.rm = TRUE))
    stop("`[`: subscript out of bounds: a matrix index holds 1-based ",
         "coordinates within dim(x) = c(", paste(d, collapse = ", "), ")",
         call. = FALSE)
  as.vector(1 + (at - 1) %*% cumprod(c(1, d[-length(d)])))
}

#' @rdname tensor-methods
#' @export
`[[.pycg.tensor.Tensor` <- function(x, i, ...) {
  index <- lapply(c(list(i), list(...)), function(a)
    if (is_tensor(a)) tensor_to_r(a) else a)  # a tensor: the R value it holds
  d <- tensor_dim(x) %||% length(x)
  extents <- if (length(index) == 1L) length(x) else d
  if (length(index) != 1L && length(index) != length(d))
    stop("`[[`: ", length(index), " indices for a tensor of ", length(d),
         " dimensions", call. = FALSE)
  for (k in seq_along(index)) {
    at <- index[[k]]
    if (!is.numeric(at) || length(at) != 1L || is.na(at) || at < 1 ||
        at != trunc(at))
      stop("`[[`: takes one element by 1-based positions (whole numbers ",
           "from 1); got ", describe_value(at), call. = FALSE)
    if (at > extents[k])
      stop("`[[`: subscript out of bounds: ", at, " for an extent of ",
           extents[k], call. = FALSE)
  }
  index <- lapply(index, as_py)
  out <- na_through(x, function(t) py_call(interop()$r_subset, t, index, TRUE))
  # an element of a comparison's result is an R logical, as the comparison
  # of two scalars is (so that NA reaches `if`)
  if (is.null(na_of(x))) out else r_logical_if_scalar(out)
}

#' @rdname tensor-methods
#' @export
`[<-.pycg.tensor.Tensor` <- function(x, ..., value) {
  index <- as.list(sys.call())[-c(1L, 2L)]
  index <- index[names(index) %||% rep("", length(index)) != "value"]
  env <- parent.frame()
  index <- lapply(unname(index), function(e) {
    if (identical(e, quote(expr = ))) return(e)
    i <- r_index(eval(e, env))
    if (is_tensor(i)) tensor_to_r(i) else i
  })
  r_replace(x, index, value, "[<-")
}

#' @rdname tensor-methods
#' @export
`[[<-.pycg.tensor.Tensor` <- function(x, i, ..., value) {
  index <- c(list(i), list(...))
  ok <- vapply(index, function(a) is.numeric(a) && length(a) == 1L &&
                 !is.na(a) && a >= 1 && a == trunc(a), NA)
  if (!all(ok) || length(value) != 1L)
    stop("`[[<-`: sets one element by 1-based positions to one value; use ",
         "x[i] <- value for several", call. = FALSE)
  r_replace(x, index, value, "[[<-")
}

stop_immutable <- function(what) {
  stop("`", what, "`: a pycg_variable() is changed by v$assign(); ",
       "x[i] <- value makes a new tensor, so use it on tensors, or ",
       "op_where(mask, value, x), op_scatter_update(), op_slice_update()",
       call. = FALSE)
}


# x with the elements that base R's `[<-` would set, at `index` (a list of R
# indices, missing ones as the empty symbol), replaced by `value`: a new
# tensor, as base R makes a modified copy, of the higher type of x and the
# value, recorded on tapes for x and a tensor value.
r_replace <- function(x, index, value, what) {
  if (inherits(x, "pycg.tensor.Variable")) stop_immutable(what)
  one <- length(index) == 1L && !identical(index[[1L]], quote(expr = ))
  i <- if (one) index[[1L]]
  if (one && !is.matrix(i) &&
      ((is.numeric(i) && any(i >= length(x) + 1, na.rm = TRUE)) ||
       (is.logical(i) && length(i) > length(x))))
    stop("`", what, "`: an index past the end would grow the tensor, which ",
         "pycg does not do; make the longer tensor with op_concatenate()",
         call. = FALSE)
  d <- tensor_dim(x) %||% length(x)
  at <- tryCatch(as.vector(do.call(`[`, c(list(array(seq_len(length(x)), d)),
                                          index))),
                 error = function(e) stop("`", what, "`: ",
                                          conditionMessage(e), call. = FALSE))
  if (is.null(value)) value <- logical()
  if (anyNA(at)) {
    if (length(value) != 1L)
      stop("`", what, "`: NAs are not allowed in subscripted assignments",
           call. = FALSE)
    at <- at[!is.na(at)]
  }
  v <- r_operand(value, what)
  with_na(py_call(interop()$r_replace, x, as_py(array(as.numeric(at) - 1)),
                  v$value, na_of(x), v$na, v$weak == 1L, length(index) > 1L))
}
