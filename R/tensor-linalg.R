#' Base R's matrix functions on tensors
#'
#' Base R's linear algebra works on pycg tensors with base R's answer
#' (values, dims, type, and its errors) as a tensor recorded on gradient
#' tapes, so a likelihood written with them can be differentiated:
#'
#' * products: `%*%`, `crossprod()`, `tcrossprod()` read a vector as a row
#'   or a column as base R does (`A %*% b` is `nrow(A)` x 1, `v %*% v` 1 x 1,
#'   `tcrossprod(v)` n x n), and compute in doubles (integers and logicals
#'   too); `t()` of a vector is a one-row matrix; `outer()` and `%o%` (any
#'   `FUN`; dims `c(dim(X), dim(Y))`) and `kronecker()`;
#' * `solve(a, b)` (no `b`: the inverse; a vector `b` gives a vector),
#'   `chol()` (from the upper triangle, as base R), `chol2inv()`, `det()`,
#'   `determinant()` (its `modulus` a tensor, its `sign` an R integer),
#'   `backsolve()`, `forwardsolve()`, `norm()` (types "O", "I", "F", "M",
#'   "2").
#'
#' Where base R refuses (a singular matrix in `solve()`, a matrix that is
#' not positive definite in `chol()`, non-conformable arguments), so does
#' pycg, in base R's words. Base R makes `solve()`, `chol()` and
#' `determinant()` generic; `chol2inv()`, `det()`, `outer()`, `%o%`, `kronecker()`,
#' `backsolve()`, `forwardsolve()`, `norm()`, `crossprod()` and
#' `tcrossprod()` get S4 methods for tensors (as the Matrix package gives
#' its matrices), so every other value keeps base R's function. `%*%` is
#' pycg's own function before R 4.3 (which dispatches it to tensors itself),
#' passing base matrices to base R.
#'
#' @param x,y,a,b,r,X,Y,l Tensors, or R values beside a tensor.
#' @param tol For `solve()`: the smallest reciprocal condition number
#'   accepted, as in base R.
#' @param logarithm For `determinant()`: return log |det| (`TRUE`) or |det|.
#' @param k,upper.tri,transpose For `backsolve()` and `forwardsolve()`: as in
#'   base R.
#' @param FUN For `outer()` and `kronecker()`: the function of pairs of
#'   elements (`"*"` by default).
#' @param make.dimnames For `kronecker()`: unused (tensors have no
#'   dimnames).
#' @param type For `norm()`: as in base R.
#' @param pivot,LINPACK For `chol()`: `pivot = TRUE` stops, naming
#'   `chol(as.array(x), pivot = TRUE)`; `LINPACK` is unused.
#' @param size For `chol2inv()`: as in base R.
#' @param ... Passed to `FUN`, or unused.
#' @return Tensors, except `determinant()`'s list.
#' @name tensor-linalg
#' @examplesIf pycg_available()
#' a <- op_convert_to_tensor(matrix(c(4, 2, 2, 3), 2))
#' solve(a, c(1, 2))
#' chol(a)
#' det(a)
#' v <- op_convert_to_tensor(c(1, 2))
#' a %*% v      # 2 x 1, as base R
#' v %o% c(1, 10)
#' pycg_grad(function(a) log(det(a)))(a)   # t(solve(a))
NULL

# ---- products -------------------------------------------------------------------

# An operand of %*%, crossprod(), tcrossprod(), outer() or kronecker() as
# as_py() makes it, where base R takes it: a tensor, or numbers or logicals
# (a vector or a matrix); a list, strings, a factor or a data frame stop in
# base R's words (its matprod's), naming the function and the argument.
as_product <- function(x, who, arg) {
  if (is.null(x) || is_tensor(x) ||
      ((is.numeric(x) || is.logical(x) || is.complex(x)) && !is.object(x)))
    return(as_py(x))
  stop(sprintf(paste0("%s: requires numeric/complex matrix/vector arguments ",
                      "(`%s` is %s)"), who, arg, describe_product(x)),
       call. = FALSE)
}

describe_product <- function(x) {
  if (is.data.frame(x)) return("a data.frame")
  if (is.factor(x)) return("a factor")
  sprintf("a %s of length %d", if (is.list(x)) "list" else typeof(x),
          length(x))
}

matrixOps.pycg.tensor.Tensor <- function(x, y) {
  core_call("r.linalg.matprod", "matmul", as_product(x, "%*%", "x"),
            as_product(y, "%*%", "y"))
}

# R >= 4.3 dispatches %*% on the matrixOps group; before that, pycg's own %*%
# (not exported) serves the package's code and tests, and is put on the
# search path when the package is attached (see .onAttach); it sends base
# matrices straight to base R.
#' @rdname tensor-linalg
`%*%` <- function(x, y) {
  if (is_tensor(x) || is_tensor(y))
    core_call("r.linalg.matprod", "matmul", as_product(x, "%*%", "x"),
              as_product(y, "%*%", "y"))
  else
    masked("%*%")(x, y)
}

#' @rdname tensor-linalg
#' @export
setMethod("crossprod", "pycg.tensor.Tensor", function(x, y = NULL) {
  core_call("r.linalg.matprod", "crossprod",
            as_product(x, "crossprod()", "x"),
            as_product(y, "crossprod()", "y"))
})

#' @rdname tensor-linalg
#' @export
setMethod("crossprod", c("ANY", "pycg.tensor.Tensor"), function(x, y = NULL) {
  core_call("r.linalg.matprod", "crossprod",
            as_product(x, "crossprod()", "x"),
            as_product(y, "crossprod()", "y"))
})

#' @rdname tensor-linalg
#' @export
setMethod("tcrossprod", "pycg.tensor.Tensor", function(x, y = NULL) {
  core_call("r.linalg.matprod", "tcrossprod",
            as_product(x, "tcrossprod()", "x"),
            as_product(y, "tcrossprod()", "y"))
})

#' @rdname tensor-linalg
#' @export
setMethod("tcrossprod", c("ANY", "pycg.tensor.Tensor"), function(x, y = NULL) {
  core_call("r.linalg.matprod", "tcrossprod",
            as_product(x, "tcrossprod()", "x"),
            as_product(y, "tcrossprod()", "y"))
})

# R's t(): a vector is a one-row matrix; more than two axes stop.
r_transpose <- function(x) {
  na_through(x, function(t) core_call("r.linalg.transpose", t))
}

# outer(X, Y, FUN) as base R computes it: FUN of the paired elements
# (through the tensor methods, so R's types and recycling hold), given the
# dims c(dim(X), dim(Y)); "*" multiplies as doubles, as base R's matrix
# product does.
tensor_outer <- function(X, Y, FUN = "*", ...) {
  pairs <- paired(X, Y, FUN, "outer()", ...)
  out <- pairs[[1L]]
  dims <- as.integer(unlist(pairs[[2L]]))
  if (!is_tensor(out)) {
    dim(out) <- dims
    return(out)
  }
  core_call("r.linalg.with_r_dims", out, as.list(dims))
}

# list(FUN(X', Y'), the dims of outer()'s result): X' and Y' are outer()'s
# pairs of elements (R's rep()).
paired <- function(X, Y, FUN, who, ...) {
  product <- is.character(FUN) && identical(FUN, "*")
  parts <- core_call("r.linalg.outer_operands",
                     as_product(na_as_nan(X), who, "X"),
                     as_product(na_as_nan(Y), who, "Y"), product)
  list(match.fun(FUN)(parts[[1L]], parts[[2L]], ...), parts[[3L]])
}

#' @rdname tensor-linalg
#' @export
setMethod("outer", "pycg.tensor.Tensor", function(X, Y, FUN = "*", ...) {
  tensor_outer(X, Y, FUN, ...)
})

#' @rdname tensor-linalg
#' @export
setMethod("outer", c("ANY", "pycg.tensor.Tensor"),
          function(X, Y, FUN = "*", ...) {
  tensor_outer(X, Y, FUN, ...)
})

#' @rdname tensor-linalg
#' @export
setMethod("%o%", "pycg.tensor.Tensor", function(X, Y) tensor_outer(X, Y))

#' @rdname tensor-linalg
#' @export
setMethod("%o%", c("ANY", "pycg.tensor.Tensor"),
          function(X, Y) tensor_outer(X, Y))

# base R's .kronecker(): outer()'s pairs, its axes interleaved, then dims
# dX * dY (pycg/r/base/linalg.py).
tensor_kronecker <- function(X, Y, FUN = "*", ...) {
  values <- paired(X, Y, FUN, "kronecker()", ...)[[1L]]
  core_call("r.linalg.kronecker_layout", as_py(values), as_py(X), as_py(Y))
}

#' @rdname tensor-linalg
#' @export
setMethod("kronecker", "pycg.tensor.Tensor",
          function(X, Y, FUN = "*", make.dimnames = FALSE, ...) {
  tensor_kronecker(X, Y, FUN, ...)
})

#' @rdname tensor-linalg
#' @export
setMethod("kronecker", c("ANY", "pycg.tensor.Tensor"),
          function(X, Y, FUN = "*", make.dimnames = FALSE, ...) {
  tensor_kronecker(X, Y, FUN, ...)
})

# ---- solving and factorising ------------------------------------------------------

tensor_solve <- function(a, b, tol = .Machine$double.eps, ...) {
  core_call("r.square.solve", as_py(a), if (!missing(b)) as_py(b), as_py(tol))
}

#' @rdname tensor-linalg
#' @export
setMethod("solve", "pycg.tensor.Tensor", tensor_solve)

#' @rdname tensor-linalg
#' @export
setMethod("solve", c("ANY", "pycg.tensor.Tensor"), tensor_solve)

#' @rdname tensor-linalg
#' @export
chol.pycg.tensor.Tensor <- function(x, pivot = FALSE, LINPACK = FALSE, ...) {
  if (!isFALSE(pivot))
    stop("chol() of a tensor: pivot = TRUE is not taken; use ",
         "chol(as.array(x), pivot = TRUE) for base R's answer", call. = FALSE)
  core_call("r.square.chol", x)
}

#' @rdname tensor-linalg
#' @export
setMethod("chol2inv", "pycg.tensor.Tensor",
          function(x, size = NCOL(x), LINPACK = FALSE) {
  if (!is.numeric(size) || length(size) != 1L || is.na(size))
    stop("chol2inv(): 'size' argument must be a positive integer",
         call. = FALSE)
  core_call("r.square.chol2inv", x, as.integer(size))
})

#' @rdname tensor-linalg
#' @export
determinant.pycg.tensor.Tensor <- function(x, logarithm = TRUE, ...) {
  if (!isTRUE(logarithm) && !isFALSE(logarithm))
    stop("determinant(): `logarithm` must be TRUE or FALSE", call. = FALSE)
  parts <- core_call("r.square.determinant", x, logarithm)
  modulus <- parts[[1L]]
  attr(modulus, "logarithm") <- logarithm
  sign <- tryCatch(as.integer(tensor_to_r(parts[[2L]])),
                   error = function(e) parts[[2L]])  # (traced: a tensor)
  structure(list(modulus = modulus, sign = sign), class = "det")
}

#' @rdname tensor-linalg
#' @export
setMethod("det", "pycg.tensor.Tensor",
          function(x, ...) core_call("r.square.det", x))

tensor_backsolve <- function(r, x, k = ncol(r), upper.tri = TRUE,
                             transpose = FALSE) {
  k <- if (missing(k)) NULL else as_int(k)
  core_call("r.square.backsolve", as_py(r), as_py(x), k, as_flag(upper.tri),
            as_flag(transpose))
}

#' @rdname tensor-linalg
#' @export
setMethod("backsolve", "pycg.tensor.Tensor", tensor_backsolve)

#' @rdname tensor-linalg
#' @export
setMethod("backsolve", c("ANY", "pycg.tensor.Tensor"), tensor_backsolve)

tensor_forwardsolve <- function(l, x, k = ncol(l), upper.tri = FALSE,
                                transpose = FALSE) {
  k <- if (missing(k)) NULL else as_int(k)
  core_call("r.square.backsolve", as_py(l), as_py(x), k, as_flag(upper.tri),
            as_flag(transpose))
}

#' @rdname tensor-linalg
#' @export
setMethod("forwardsolve", "pycg.tensor.Tensor", tensor_forwardsolve)

#' @rdname tensor-linalg
#' @export
setMethod("forwardsolve", c("ANY", "pycg.tensor.Tensor"), tensor_forwardsolve)

#' @rdname tensor-linalg
#' @export
setMethod("norm", "pycg.tensor.Tensor", function(x, type, ...) {
  if (missing(type)) type <- "O"
  if (!is.character(type) || !length(type) || is.na(type[1L]))
    stop("norm(): `type` must be one of \"O\", \"I\", \"F\", \"M\", \"2\"",
         call. = FALSE)
  core_call("r.linalg.norm", x, type[1L])
})
