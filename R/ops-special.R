# Thin wrappers of pycg.ops: argument conversions live in R/convert.R.

#' Special functions: the gamma family, beta and binomial coefficients
#'
#' Thin wrappers of `pycg.ops.<name>`, each differentiable: `op_lgamma()`
#' (log |gamma(x)|, whose gradient is `op_digamma()`), `op_digamma()`,
#' `op_polygamma(n, x)` (the n-th derivative of digamma; `n = 1` is the
#' trigamma function; its gradient is `op_polygamma(n + 1, x)`),
#' `op_gamma()`, `op_beta(a, b)`, `op_lbeta(a, b)` (log |beta|, accurate
#' where an argument is large), `op_choose(n, k)` and `op_lchoose(n, k)`
#' (binomial coefficients of any real `n`, `k` rounded to a whole number as
#' base R's [choose()] rounds it; differentiable in `n`). At the poles and
#' infinities they give TensorFlow's answers (SciPy's for `op_gamma()`;
#' see `help(pycg.ops.lgamma)` in Python). Base R's own `lgamma()`,
#' `gamma()`, `digamma()`, `trigamma()`, `psigamma()`, `beta()`, `lbeta()`,
#' `choose()`, `lchoose()` and `atan2()` work on tensors too, with base R's
#' answers and warnings ([tensor-special]).
#'
#' @param x A tensor, or an R number or array.
#' @param n For `op_polygamma()`: the order of the derivative, a whole
#'   number from 0 to 170. For `op_choose()` and `op_lchoose()`: the top of the
#'   coefficient, a tensor or R numbers (any real number).
#' @param a,b Tensors or R numbers (broadcast against each other).
#' @param k The bottom of the coefficient, rounded to a whole number; its
#'   gradient is zero.
#' @return A tensor.
#' @examplesIf pycg_available()
#' x <- op_convert_to_tensor(c(0.5, 1, 4))
#' op_lgamma(x)
#' op_polygamma(1, x)
#' op_lchoose(op_convert_to_tensor(c(10, 20)), 3)
#' @name ops-special
NULL

#' @rdname ops-special
#' @export
op_lgamma <- function(x) {
  op_call("lgamma", as_py(x))
}

#' @rdname ops-special
#' @export
op_digamma <- function(x) {
  op_call("digamma", as_py(x))
}

#' @rdname ops-special
#' @export
op_polygamma <- function(n, x) {
  op_call("polygamma", as_int(n), as_py(x))
}

#' @rdname ops-special
#' @export
op_gamma <- function(x) {
  op_call("gamma", as_py(x))
}

#' @rdname ops-special
#' @export
op_beta <- function(a, b) {
  op_call("beta", as_py(a), as_py(b))
}

#' @rdname ops-special
#' @export
op_lbeta <- function(a, b) {
  op_call("lbeta", as_py(a), as_py(b))
}

#' @rdname ops-special
#' @export
op_choose <- function(n, k) {
  op_call("choose", as_py(n), as_py(k))
}

#' @rdname ops-special
#' @export
op_lchoose <- function(n, k) {
  op_call("lchoose", as_py(n), as_py(k))
}
