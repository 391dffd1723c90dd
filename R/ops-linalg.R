# Thin wrappers of pycg.ops: argument conversions live in R/convert.R.

#' Linear algebra
#'
#' Thin wrappers of the `pycg.ops` linear algebra ops. `op_slogdet()` returns
#' `list(sign, logabsdet)`. In `op_tensordot()`, `axes` is a count or a list of
#' two vectors of 1-based axes.
#'
#' @param x A tensor (a square matrix for the decompositions).
#' @param x1,x2 Tensors.
#' @param a A square matrix.
#' @param b The right-hand side.
#' @param axes A count, or a list of two vectors of 1-based axes.
#' @param ord The order of the norm, as in `keras.ops.norm()`: `NULL`
#'   (the 2-norm of all entries); for a vector any number p
#'   (`(sum |x|^p)^(1/p)`), `Inf`, `-Inf` or 0 (the count of non-zeros); for
#'   a matrix `"fro"`, `"nuc"` (the sum of the singular values), 1, -1,
#'   `Inf`, `-Inf` (largest or smallest column or row sum of `|x|`), 2 or
#'   -2 (the largest or smallest singular value).
#' @param axis Axis or axes (1-based) of the norm; `NULL` for all.
#' @param keepdims If `TRUE`, keep reduced axes with length 1.
#' @param upper If `TRUE`, `op_cholesky()` returns the upper factor `t(L)`.
#' @param subscripts An einsum specification, e.g. `"ij,jk->ik"`.
#' @param ... The operands of `op_einsum()`.
#' @return A tensor (a list for `op_slogdet()`).
#' @examplesIf pycg_available()
#' a <- op_convert_to_tensor(matrix(c(2, 1, 1, 3), 2))
#' op_matmul(a, a)
#' op_det(a)
#' op_solve(a, c(1, 2))
#' op_einsum("ij,j->i", a, c(1, 1))
#' op_norm(a, ord = 2)       # the largest singular value, as norm(m, "2")
#' op_norm(a, ord = "nuc")   # their sum
#' @name ops-linalg
NULL

#' @rdname ops-linalg
#' @export
op_matmul <- function(x1, x2) {
  op_call("matmul", as_py(x1), as_py(x2))
}

#' @rdname ops-linalg
#' @export
op_dot <- function(x1, x2) {
  op_call("dot", as_py(x1), as_py(x2))
}

#' @rdname ops-linalg
#' @export
op_outer <- function(x1, x2) {
  op_call("outer", as_py(x1), as_py(x2))
}

#' @rdname ops-linalg
#' @export
op_tensordot <- function(x1, x2, axes = 2L) {
  op_call("tensordot", as_py(x1), as_py(x2), axes = as_tensordot_axes(axes))
}

#' @rdname ops-linalg
#' @export
op_einsum <- function(subscripts, ...) {
  operands <- lapply(list(...), as_py)
  do.call(op_call, c(list("einsum", as_py(subscripts)), operands))
}

#' @rdname ops-linalg
#' @export
op_norm <- function(x, ord = NULL, axis = NULL, keepdims = FALSE) {
  op_call("norm", as_py(x), ord = as_py(ord), axis = as_axis(axis),
          keepdims = as_flag(keepdims))
}

#' @rdname ops-linalg
#' @export
op_cholesky <- function(x, upper = FALSE) {
  op_call("cholesky", as_py(x), upper = as_flag(upper))
}

#' @rdname ops-linalg
#' @export
op_inv <- function(x) {
  op_call("inv", as_py(x))
}

#' @rdname ops-linalg
#' @export
op_det <- function(x) {
  op_call("det", as_py(x))
}

#' @rdname ops-linalg
#' @export
op_slogdet <- function(x) {
  op_call("slogdet", as_py(x))
}

#' @rdname ops-linalg
#' @export
op_solve <- function(a, b) {
  op_call("solve", as_py(a), as_py(b))
}
