#' Base R's special functions on tensors
#'
#' `lgamma()`, `gamma()`, `digamma()` and `trigamma()` (R's Math group),
#' `psigamma(x, deriv)`, `beta(a, b)`, `lbeta(a, b)`, `choose(n, k)`,
#' `lchoose(n, k)` and `atan2(y, x)` work on tensors with base R's values
#' and warnings ("NaNs produced", "'k' (2.50) must be integer, rounded to
#' 2", ...), and record on gradient tapes, so a likelihood written with
#' them (a negative binomial's `lchoose()` or `lgamma()`, a beta
#' distribution's `lbeta()`) has gradients from [pycg_grad()]. Base R does
#' not make `psigamma()`, `beta()`, `lbeta()`, `choose()`, `lchoose()` and
#' `atan2()` generic: pycg gives them S4 methods for tensors (on either
#' argument), which library(pycg) lists as masking base's; every other
#' value keeps base R's function. R's rules live in one place, the Python
#' module `pycg.r.base.special`: NaN for a negative argument of `beta()` and
#' `lbeta()`, `gamma()` NaN at 0 and 0 below -170.57, `psigamma()` NaN where
#' R's algorithm gives up (digamma below 1e-304, trigamma below 1e-152),
#' `deriv` rounded, at most 100. `psigamma()` takes one `deriv` for the
#' whole tensor. The `op_*()` functions ([ops-special]) give TensorFlow's
#' and SciPy's answers instead.
#'
#' @param x,y,a,b,n,k Tensors or R numbers, as for the base R functions
#'   (`x` of `psigamma()` a tensor).
#' @param deriv For `psigamma()`: the order of the derivative, one whole
#'   number from 0 to 100.
#' @return A tensor.
#' @name tensor-special
#' @examplesIf pycg_available()
#' x <- op_convert_to_tensor(c(0.5, 3, 10))
#' lgamma(x)
#' trigamma(x)
#' lchoose(x + 5, 2)
#' # a negative binomial log-likelihood with its gradient in (log mu, log size)
#' y <- c(0, 3, 7, 2)
#' loglik <- function(p) {
#'   mu <- exp(p[1]); size <- exp(p[2])
#'   sum(lgamma(y + size) - lgamma(size) - lgamma(y + 1) +
#'         size * log(size / (size + mu)) + y * log(mu / (size + mu)))
#' }
#' pycg_grad(loglik)(c(1, 0.5))
NULL

# The Math generics that pycg.r.base.special computes (Math.pycg.tensor.Tensor
# sends them there).
r_special_math <- c("lgamma", "gamma", "digamma", "trigamma")

# A method of two arguments calling the entry `entry` (pycg/r/entries.py).
special_pair <- function(entry) {
  force(entry)
  function(a, b) core_call(entry, as_py(na_as_nan(a)), as_py(na_as_nan(b)))
}

#' @rdname tensor-special
#' @export
setMethod("psigamma", "pycg.tensor.Tensor", function(x, deriv = 0L) {
  if (!is.numeric(deriv) || length(deriv) != 1L || is.na(deriv))
    stop("`deriv` must be one whole number from 0 to 100 for a tensor `x`; ",
         "got ", describe_value(deriv), call. = FALSE)
  core_call("r.special.psigamma", as_py(na_as_nan(x)), as.double(deriv))
})

#' @rdname tensor-special
#' @export
setMethod("beta", c("pycg.tensor.Tensor", "ANY"),
          special_pair("r.special.beta"))

#' @rdname tensor-special
#' @export
setMethod("beta", c("ANY", "pycg.tensor.Tensor"),
          special_pair("r.special.beta"))

#' @rdname tensor-special
#' @export
setMethod("lbeta", c("pycg.tensor.Tensor", "ANY"),
          special_pair("r.special.lbeta"))

#' @rdname tensor-special
#' @export
setMethod("lbeta", c("ANY", "pycg.tensor.Tensor"),
          special_pair("r.special.lbeta"))

#' @rdname tensor-special
#' @export
setMethod("choose", c("pycg.tensor.Tensor", "ANY"), function(n, k)
  core_call("r.special.choose", as_py(na_as_nan(n)), as_py(na_as_nan(k))))

#' @rdname tensor-special
#' @export
setMethod("choose", c("ANY", "pycg.tensor.Tensor"), function(n, k)
  core_call("r.special.choose", as_py(na_as_nan(n)), as_py(na_as_nan(k))))

#' @rdname tensor-special
#' @export
setMethod("lchoose", c("pycg.tensor.Tensor", "ANY"), function(n, k)
  core_call("r.special.lchoose", as_py(na_as_nan(n)), as_py(na_as_nan(k))))

#' @rdname tensor-special
#' @export
setMethod("lchoose", c("ANY", "pycg.tensor.Tensor"), function(n, k)
  core_call("r.special.lchoose", as_py(na_as_nan(n)), as_py(na_as_nan(k))))

#' @rdname tensor-special
#' @export
setMethod("atan2", c("pycg.tensor.Tensor", "ANY"), function(y, x)
  op_call("arctan2", as_py(na_as_nan(y)), as_py(na_as_nan(x))))

#' @rdname tensor-special
#' @export
setMethod("atan2", c("ANY", "pycg.tensor.Tensor"), function(y, x)
  op_call("arctan2", as_py(na_as_nan(y)), as_py(na_as_nan(x))))
