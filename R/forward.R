#' Forward-mode derivatives, Jacobians and Hessians of R functions
#'
#' `pycg_jvp(f, primals, tangents)` computes `f`'s value and its
#' directional derivative along `tangents` (the Jacobian times the
#' tangents, as `jax.jvp`); `pycg_jacfwd(f)` returns a function computing
#' the Jacobian of `f` by forward mode (`jax.jacfwd`); `pycg_hessian(f)`
#' one computing the Hessian of a scalar `f` (`jax.hessian`), the matrix of
#' second derivatives: for a negative log-likelihood at its minimum, the
#' observed information, whose inverse estimates the covariance of the
#' estimates (`solve(pycg_hessian(nll)(fit))` as `vcov()`).
#'
#' They go through every rule: an [op_custom_jvp()] rule is used as it is
#' (for an `f` made by [op_custom_jvp()], the rule alone is called), an
#' [op_custom_gradient()] rule transposed.
#'
#' @param f An R function of tensors. For `pycg_hessian()`, returning a
#'   scalar.
#' @param primals A list of `f`'s arguments (tensors, R numbers or arrays).
#' @param tangents A list of tangents, one per argument, of its shape.
#' @param argnums Which arguments to differentiate with respect to, 1-based:
#'   one number (the result is a tensor) or several (a list).
#' @param has_aux If `TRUE`, `f` returns `tuple(value, aux)`; `aux` is
#'   returned alongside, not differentiated.
#' @return `pycg_jvp()`: `list(value, tangent)` (with `has_aux`,
#'   `list(value, tangent, aux)`). `pycg_jacfwd()` and `pycg_hessian()`: a
#'   function taking `f`'s arguments and returning the Jacobian (for an
#'   output of shape `o` and an argument of shape `a`, an array of shape
#'   `c(o, a)`) or the Hessian (`c(a, a)`; a list of lists of blocks for
#'   several `argnums`). Given R numbers or arrays (no tensor), the results
#'   are R arrays; given a tensor, tensors.
#' @seealso [pycg_grad()] for gradients (reverse mode).
#' @examplesIf pycg_available()
#' pycg_jvp(function(x) x^3, list(2), list(1))   # 8 and 3 * 2^2
#'
#' pycg_jacfwd(function(x) x^2)(c(1, 2, 3))      # diag(2 * x)
#'
#' # The observed information of a logistic regression, by its Hessian
#' X <- cbind(1, c(-1, 0.5, 2, -0.3, 1.2, 0.1))
#' y <- c(0, 1, 0, 0, 1, 1)
#' nll <- function(beta) {
#'   eta <- X %*% beta
#'   op_sum(op_log(1 + op_exp(eta)) - y * eta)
#' }
#' beta <- coef(glm(y ~ X - 1, family = binomial))
#' solve(pycg_hessian(nll)(beta))   # vcov(glm(y ~ X - 1, family = binomial))
#' @export
pycg_jvp <- function(f, primals, tangents, has_aux = FALSE) {
  label <- function_label(substitute(f), f)
  py_f <- forward_callable(f, label, "pycg_jvp")
  if (!is.list(primals) || !is.list(tangents))
    stop("pycg_jvp(", label, "): `primals` and `tangents` must be lists, ",
         "one element per argument of `f`", call. = FALSE)
  plain <- !any(vapply(c(primals, tangents), is_python, NA))
  caller <- list(name = "pycg_jvp", args = names(formals(f)))
  args <- c(list("jvp", py_f, r_arguments(unname(primals), caller),
                 r_arguments(unname(tangents), caller)),
            has_aux = isTRUE(has_aux))
  out <- py_apply(interop()$call_core, args, caller)
  if (plain) r_values(out) else out
}

#' @rdname pycg_jvp
#' @export
pycg_jacfwd <- function(f, argnums = 1L, has_aux = FALSE) {
  forward_transform("jacfwd", f, function_label(substitute(f), f), argnums,
                    has_aux)
}

#' @rdname pycg_jvp
#' @export
pycg_hessian <- function(f, argnums = 1L) {
  forward_transform("hessian", f, function_label(substitute(f), f), argnums,
                    FALSE)
}

# pycg.<transform>(f, argnums, has_aux) as an R function of f's arguments.
forward_transform <- function(transform, f, label, argnums, has_aux) {
  who <- paste0("pycg_", transform)
  py_f <- forward_callable(f, label, who, scalar = transform == "hessian")
  if (!is.numeric(argnums) || !length(argnums) || anyNA(argnums) ||
      any(argnums < 1) || any(argnums != trunc(argnums)))
    stop(who, "(): `argnums` must be 1-based argument positions, e.g. 1 or ",
         "1:2, not ", describe_r(argnums), call. = FALSE)
  nums <- as_int(argnums - 1L)
  if (length(argnums) > 1L) nums <- as.list(nums)
  transformed <- guard(if (transform == "jacfwd")
    core_call("jacfwd", py_f, argnums = nums, has_aux = isTRUE(has_aux)) else
    core_call("hessian", py_f, argnums = nums, has_aux = isTRUE(has_aux)))
  caller <- list(name = who, args = names(formals(f)))
  function(...) {
    args <- list(...)
    plain <- !any(vapply(args, is_python, NA))
    out <- py_apply(transformed, r_arguments(args, caller), caller)
    if (plain) r_values(out) else out
  }
}

# f as Python calls it: the Python custom_jvp of a function made by
# op_custom_jvp() (so that its rule is called as it is), else f.
forward_callable <- function(f, label, who, scalar = FALSE) {
  if (!is.function(f))
    stop(who, "(): `f` must be an R function, not ", describe_r(f),
         call. = FALSE)
  attr(f, "pycg_custom_jvp") %||%
    r_callable(f, label, signature = py_signature(f),
               post = if (scalar) differentiable_result(who, label) else
                 identity)
}

# A result's tensors as R arrays (a scalar an R number, a 1-d one a vector).
r_values <- function(x) {
  if (is_python(x) && inherits(x, "pycg.tensor.Tensor")) {
    value <- tensor_to_r(x)
    return(if (length(dim(value)) <= 1L) as.vector(value) else value)
  }
  if (is.list(x)) return(lapply(x, r_values))
  x
}
