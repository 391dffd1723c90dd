# Thin wrappers of pycg.ops: argument conversions live in R/convert.R.

#' Decompositions and more linear algebra
#'
#' `op_svd()` returns `list(u, s, vh)`, `op_qr()` `list(q, r)`, `op_eigh()` and
#' `op_eig()` `list(w, v)`, `op_lu_factor()` `list(lu, pivots)` with 1-based
#' pivots. `op_svd()`, `op_qr()` and `op_eigh()` are differentiable (distinct
#' singular or eigenvalues; `op_qr()` with rows >= columns).
#'
#' @param x A tensor (or an R value).
#' @param y A tensor.
#' @param upper If `TRUE`, `x` is upper triangular.
#' @param x1 A tensor.
#' @param x2 A tensor.
#' @param axisa The axis of the vectors in `x1`, 1-based.
#' @param axisb The axis of the vectors in `x2`, 1-based.
#' @param axisc The axis of the result's vectors, 1-based.
#' @param axis The axis or axes, 1-based (negative counts from the end); `NULL`
#'   for all.
#' @param a A tensor (a matrix for the linear algebra).
#' @param b The right-hand side.
#' @param rcond The cutoff relative to the largest singular value, or `NULL`.
#' @param tol The cutoff, or `NULL`.
#' @param mode The mode (see the NumPy function of the same name).
#' @param lower If `TRUE`, use the lower triangle.
#' @param full_matrices If `TRUE`, return full `u` and `vh`.
#' @param compute_uv If `FALSE`, return only `s`.
#' @return A tensor (a list of tensors where there are several results);
#'   R values for the tensor facts.
#' @examplesIf pycg_available()
#' a <- op_convert_to_tensor(matrix(c(4, 1, 1, 3), 2))
#' op_eigh(a)
#' op_svd(a)
#' op_pinv(a)
#' op_logdet(a)
#' @name ops-decompositions
NULL

#' @rdname ops-decompositions
#' @export
op_cdist <- function(x, y) {
  op_call("cdist", as_py(x), as_py(y))
}

#' @rdname ops-decompositions
#' @export
op_cholesky_inverse <- function(x, upper = FALSE) {
  op_call("cholesky_inverse", as_py(x), upper = as_flag(upper))
}

#' @rdname ops-decompositions
#' @export
op_cross <- function(x1, x2, axisa = -1L, axisb = -1L, axisc = -1L,
    axis = NULL) {
  op_call("cross", as_py(x1), as_py(x2), axisa = as_axis(axisa),
    axisb = as_axis(axisb), axisc = as_axis(axisc), axis = as_axis(axis))
}

#' @rdname ops-decompositions
#' @export
op_eig <- function(x) {
  op_call("eig", as_py(x))
}

#' @rdname ops-decompositions
#' @export
op_eigh <- function(x) {
  op_call("eigh", as_py(x))
}

#' @rdname ops-decompositions
#' @export
op_inner <- function(x1, x2) {
  op_call("inner", as_py(x1), as_py(x2))
}

#' @rdname ops-decompositions
#' @export
op_kron <- function(x1, x2) {
  op_call("kron", as_py(x1), as_py(x2))
}

#' @rdname ops-decompositions
#' @export
op_logdet <- function(x) {
  op_call("logdet", as_py(x))
}

#' @rdname ops-decompositions
#' @export
op_lstsq <- function(a, b, rcond = NULL) {
  op_call("lstsq", as_py(a), as_py(b), rcond = as_py(rcond))
}

#' @rdname ops-decompositions
#' @export
op_lu_factor <- function(x) {
  out <- op_call("lu_factor", as_py(x))
  out[[2L]] <- out[[2L]] + 1L
  out
}

#' @rdname ops-decompositions
#' @export
op_matrix_rank <- function(x, tol = NULL) {
  op_call("matrix_rank", as_py(x), tol = as_py(tol))
}

#' @rdname ops-decompositions
#' @export
op_pinv <- function(x, rcond = NULL) {
  op_call("pinv", as_py(x), rcond = as_py(rcond))
}

#' @rdname ops-decompositions
#' @export
op_qr <- function(x, mode = "reduced") {
  op_call("qr", as_py(x), mode = as_py(mode))
}

#' @rdname ops-decompositions
#' @export
op_solve_triangular <- function(a, b, lower = FALSE) {
  op_call("solve_triangular", as_py(a), as_py(b), lower = as_py(lower))
}

#' @rdname ops-decompositions
#' @export
op_svd <- function(x, full_matrices = TRUE, compute_uv = TRUE) {
  op_call("svd", as_py(x), full_matrices = as_py(full_matrices),
    compute_uv = as_py(compute_uv))
}

#' @rdname ops-decompositions
#' @export
op_vdot <- function(x1, x2) {
  op_call("vdot", as_py(x1), as_py(x2))
}
