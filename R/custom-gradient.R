#' Decorator to define a function with a custom gradient
#'
#' Wraps an R function `f` so that pycg uses the gradient you give instead of
#' differentiating the ops inside `f`. This is useful for a more efficient or
#' numerically stable gradient of a sequence of operations.
#'
#' The grad function receives pycg tensors (not converted R values), so it can
#' use `op_*()` functions and closures over values computed in `f`. It can be
#' written in any of these forms, and pycg calls each correctly on every
#' backend (it reads `formals(grad)`):
#' * `function(..., upstream = NULL)`: the portable keras3 form; called with
#'   the inputs of `f` and `upstream`;
#' * `function(x, y, upstream)`: the inputs by name, then `upstream`;
#' * `function(upstream)`: only the upstream gradient (where `f` has
#'   several outputs, the list of their upstream gradients);
#' * `function(dy)`: any single argument not named `upstream`, called with
#'   the upstream gradient (TensorFlow style; one argument per output, so
#'   `function(dy1, dy2)` for two outputs).
#'
#' A grad that cannot take what pycg passes (`function(dy)` for a forward
#' with two outputs, `function(x, upstream)` for a forward of `x` and `y`)
#' is an error, as it is in Python: pycg never drops an upstream gradient.
#' An error in `grad` reads `in the gradient of <name>: <message>`; its call
#' is the rule's, named as `f` names it (`g(upstream)` for
#' `tuple(y, g)`, else `grad(...)`), with the arguments it received, and
#' [traceback()] ends in the calls of `grad` where it failed. Ctrl-C and
#' [setTimeLimit()] stop a `grad` or `f` that runs too long.
#'
#' It returns one gradient per input of `f`: a tensor, an R number or array,
#' or an R list of them (in the order of the inputs, or named by argument).
#' `NULL` means no gradient for that input; a list named by argument may
#' hold `NULL` for an optional argument the call did not give
#' (`list(input = ..., weight = ..., bias = NULL)` of a call `lin(x, w)`).
#'
#' @param f An R function `f(...)` returning `tuple(output, grad)` (or
#'   `list(output, grad)`): `output` is a tensor, an R number or array (or a
#'   list of them) computed from the inputs, and `grad` the function computing
#'   the gradients, in one of the forms listed under Details. `upstream` is a
#'   tensor (or, when `f` has several outputs, a list of tensors) holding the
#'   gradient arriving at `output`.
#' @return A function `h(...)` that returns the value `f(...)[[1]]` does and
#'   whose gradient is computed by the rule `f(...)[[2]]` returns. Named
#'   arguments (`h(x = a, y = b)`) bind by name and keep the custom rule.
#' @examplesIf pycg_available()
#' log1pexp <- op_custom_gradient(\(x) {
#'   e <- op_exp(x)
#'   grad <- function(..., upstream = NULL) {
#'     upstream <- upstream %||% ..1
#'     op_multiply(upstream, 1.0 - 1.0 / op_add(1, e))
#'   }
#'   tuple(op_log(1 + e), grad)
#' })
#'
#' # In float32, exp(100) overflows to Inf, so differentiating
#' # log(1 + exp(x)) op by op gives 0 * Inf = NaN; the rule gives 1.
#' # (R numbers are float64, where exp(100) still fits and both give 1:
#' # the example asks for float32.)
#' x <- op_convert_to_tensor(100, dtype = "float32")
#' with(gradient_tape() %as% tape, {
#'   tape$watch(x)
#'   y <- log1pexp(x)
#' })
#' as.numeric(tape$gradient(y, x))   # the rule: 1
#'
#' naive <- pycg_grad(\(x) op_log(1 + op_exp(x)))
#' as.numeric(naive(x))              # op by op: NaN
#' @family custom derivative rules
#' @export
op_custom_gradient <- function(f) {
  label <- function_label(substitute(f), f)
  if (!is.function(f))
    stop("`f` must be an R function returning tuple(output, grad), not ",
         describe_r(f), call. = FALSE)
  in_gradient <- function() paste("in the gradient of", label)
  rule <- rule_name(f)
  inputs <- setdiff(names(formals(f)), "...")
  # the signature of the last rule's formals: each call of f makes a new
  # rule, nearly always with the same formals
  rule_formals <- rule_signature <- NULL
  signature_of <- function(grad) {
    now <- list(formals(grad))
    if (!identical(now, rule_formals)) {
      rule_signature <<- py_signature(grad)
      rule_formals <<- now
    }
    rule_signature
  }
  # what f returned, checked, with its rule as a Python callable
  forward_result <- function(res) {
    if (inherits(res, "python.builtin.tuple"))
      res <- py_to_r(res)
    grad <- if (is.list(res) && length(res) == 2L) res[[2L]]
    if (!is.function(grad) && !inherits(grad, "python.builtin.object"))
      stop(sprintf(paste0("the R function %s given to op_custom_gradient() ",
                          "must return tuple(output, grad), where grad is a ",
                          "function; it returned %s"), label, describe_r(res)),
           call. = FALSE)
    if (!is.function(grad))
      return(list(res[[1L]], grad, NULL))
    # function(upstream): Python passes one upstream gradient per output
    # (grad(*grad_ys)), which it gets as one tensor or the list of them
    packed <- identical(names(formals(grad)), "upstream")
    list(res[[1L]], r_shim(grad, in_gradient, rule, inputs, pack = packed),
         signature_of(if (packed) function(...) NULL else grad))
  }
  py_forward <- r_callable(f, label,
                           signature = py_signature(f, kwargs = TRUE),
                           kind = "forward",
                           shim_name = function() call_name(label),
                           post = forward_result)
  wrapped <- guard(core_call("custom_gradient", py_forward))
  named <- is.symbol(substitute(f))
  function(...) {
    if (!named) {
      # an anonymous f takes the name it is called by, for error messages
      caller <- sys.call()[[1L]]
      if (is.symbol(caller)) {
        label <<- as.character(caller)
        reticulate::py_set_attr(py_forward, "__name__", label)
      }
      named <<- TRUE
    }
    py_apply(wrapped, lapply(list(...), as_py))
  }
}

#' Tuples and defaults
#'
#' `tuple(...)` groups values, e.g. the `(output, grad)` pair returned by the
#' function given to [op_custom_gradient()]; it is an R list that pycg hands to
#' Python as a tuple. `x %||% y` is `y` when `x` is `NULL`, else `x`.
#'
#' @param ... Values.
#' @param x,y Any R values.
#' @return `tuple()`: a list of class `pycg_tuple`. `%||%`: `x` or `y`.
#' @examples
#' t <- tuple(1, "a")
#' t[[2]]
#' NULL %||% 2
#' @export
tuple <- function(...) {
  structure(list(...), class = "pycg_tuple")
}

#' @rdname tuple
#' @export
`%||%` <- function(x, y) if (is.null(x)) y else x

#' @export
print.pycg_tuple <- function(x, ...) {
  cat("<tuple>\n")
  print(unclass(x), ...)
  invisible(x)
}

# The name f's body gives its rule, `g` in `tuple(y, g)`, so that an error
# in the rule reads g(upstream); "grad" for a function written in place.
rule_name <- function(f) {
  found <- character()
  walk <- function(e) {
    if (!is.call(e)) return()
    if (length(e) == 3L && is.symbol(e[[3L]]) &&
        (identical(e[[1L]], quote(tuple)) || identical(e[[1L]], quote(list))))
      found <<- c(found, as.character(e[[3L]]))
    parts <- as.list(e)[-1L]
    for (i in seq_along(parts))
      if (!identical(parts[[i]], quote(expr = ))) walk(parts[[i]])
  }
  if (!is.primitive(f)) walk(body(f))
  found <- unique(found[make.names(found) == found])
  if (length(found) == 1L) found else "grad"
}

describe_r <- function(x) {
  if (is.null(x)) return("NULL")
  if (is.list(x)) return(sprintf("a list of length %d", length(x)))
  sprintf("an object of class %s", class(x)[1L])
}
