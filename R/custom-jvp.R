#' Define a function with a custom forward-mode (JVP) rule
#'
#' The forward-mode companion of [op_custom_gradient()], in the form of
#' JAX's `jax.custom_jvp`: you give `f` and its Jacobian-vector product
#' `jvp`, and pycg uses that rule wherever `f` is differentiated. Forward
#' mode ([pycg_jvp()], [pycg_jacfwd()]) calls it as it is, `J %*% t`;
#' reverse mode ([pycg_grad()], [gradient_tape()], [pycg_hessian()],
#' [pycg_optim()]) uses it transposed, so one rule gives gradients,
#' Jacobians and Hessians. A rule of R code is called with pycg tensors and
#' can use `op_*()` functions and the base R functions pycg gives tensors.
#'
#' `jvp` must be linear in the tangents (as JAX requires): `tangent` a sum
#' of terms, each one tangent times factors computed from the primals. In
#' reverse mode pycg checks this at tangents of ones (for real values,
#' outside traced graphs): a rule with a term without a tangent, or a
#' product or power of tangents, is an error naming the rule and `f`, not a
#' wrong gradient. Forward mode calls the rule as it is, so there it need
#' not be linear (as in JAX).
#'
#' The rule's results are checked as JAX checks them, each an error that
#' names the rule and `f`: `tuple(value, tangent)` (or a list of the two)
#' of the same structure, each tangent of its value's shape and dtype (an R
#' number or array becomes a tensor of that dtype).
#'
#' @param f An R function of tensors, `f(...)`, returning a tensor, an R
#'   number or array, or a list of them.
#' @param jvp An R function `function(primals, tangents)`: `primals` is the
#'   list of the arguments `f` was called with, in order; `tangents` the
#'   list of their tangents (`NULL` for an argument without one: an integer
#'   tensor). It returns `tuple(value, tangent)`: `value` is `f(...)`'s
#'   value (the rule may call the function made here), and `tangent` the
#'   directional derivative, of the same structure.
#' @return A function `h(...)` that returns `f(...)`'s value and whose
#'   derivatives are those of `jvp`. Named arguments bind by `f`'s formals.
#' @seealso [pycg_jvp()], [pycg_jacfwd()], [pycg_hessian()].
#' @family custom derivative rules
#' @examplesIf pycg_available()
#' log1pexp <- op_custom_jvp(
#'   function(x) op_log(1 + op_exp(x)),
#'   function(primals, tangents) {
#'     x <- primals[[1]]
#'     tuple(log1pexp(x), tangents[[1]] * op_sigmoid(x))
#'   })
#'
#' # In float32 the rule's derivative at 100 is 1 in both modes, where
#' # differentiating log(1 + exp(x)) op by op gives NaN
#' x <- op_convert_to_tensor(100, dtype = "float32")
#' pycg_jvp(log1pexp, list(x), list(1))[[2]]
#' pycg_grad(log1pexp)(x)
#' @export
op_custom_jvp <- function(f, jvp) {
  label <- function_label(substitute(f), f)
  if (!is.function(f))
    stop("op_custom_jvp(): `f` must be an R function, not ", describe_r(f),
         call. = FALSE)
  if (!is.function(jvp))
    stop("op_custom_jvp(): `jvp` must be an R function(primals, tangents) ",
         "returning tuple(value, tangent), not ", describe_r(jvp),
         call. = FALSE)
  rule_label <- if (is.symbol(substitute(jvp)))
    as.character(substitute(jvp)) else paste0(call_name(label), "_jvp")
  py_f <- r_callable(f, label, signature = py_signature(f))
  py_rule <- r_callable(jvp, rule_label,
                        signature = py_signature(jvp),
                        where = function() paste("in the JVP rule of", label),
                        post = rule_result)
  reticulate::py_set_attr(py_rule, "__name__", rule_label)
  cj <- core_call("custom_jvp", py_f)
  method_call(cj, "defjvp", py_rule)
  wrapped <- guard(cj)
  h <- function(...) py_apply(wrapped, lapply(list(...), as_py))
  attr(h, "pycg_custom_jvp") <- cj
  h
}

# The rule's result as Python reads it: a pair (list or tuple of two).
rule_result <- function(res) {
  if (inherits(res, "pycg_tuple")) res <- unclass(res)
  res
}
