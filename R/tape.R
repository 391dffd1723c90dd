#' Record operations for automatic differentiation
#'
#' `gradient_tape()` creates a tape; inside `with(gradient_tape() %as% tape,
#' { ... })` every op on a watched tensor (or a trainable variable) is
#' recorded, and afterwards `tape$gradient()` computes gradients. Nest two
#' tapes for second derivatives.
#'
#' The tape is an object with these methods:
#' * `tape$watch(x)`: track a tensor, or a list of tensors.
#' * `tape$gradient(target, sources, output_gradients = NULL,
#'   unconnected_gradients = "none")`: the gradient of the sum of `target`
#'   with respect to `sources`. `sources` may be one tensor (the result is a
#'   tensor) or an R list of tensors (the result is a list with the same
#'   names). A source that `target` does not depend on gets `NULL`, or zeros
#'   with `unconnected_gradients = "zero"`. A tape that is not persistent
#'   can compute one gradient.
#' * `tape$jacobian(target, source)`: the full Jacobian, of shape
#'   `c(dim(target), dim(source))`; `source` may be a list, as above.
#' * `tape$stop_recording()`: a context for [with()]: ops inside are not
#'   recorded.
#' * `tape$watched_variables()`: the variables the tape has recorded.
#' * `tape$reset()`: forget everything recorded.
#' * `tape$explain(target, source)`: why the gradient of `target` with
#'   respect to `source` is `NULL` (or says it is connected), in words.
#'
#' @param persistent If `TRUE`, `gradient()` may be called several times.
#' @param watch_accessed_variables If `TRUE`, trainable variables (see
#'   [pycg_variable()]) read inside the tape are watched automatically.
#' @return A `pycg_gradient_tape` object.
#' @seealso [`%as%`]
#' @examplesIf pycg_available()
#' x <- op_convert_to_tensor(3)
#' with(gradient_tape() %as% tape, {
#'   tape$watch(x)
#'   y <- x * x
#' })
#' tape$gradient(y, x) # 6
#'
#' # second derivative with nested tapes
#' with(gradient_tape() %as% outer, {
#'   outer$watch(x)
#'   with(gradient_tape() %as% inner, {
#'     inner$watch(x)
#'     y <- x^3
#'   })
#'   dy <- inner$gradient(y, x)
#' })
#' outer$gradient(dy, x) # 6 * x = 18
#' @export
gradient_tape <- function(persistent = FALSE, watch_accessed_variables = TRUE) {
  tape <- new.env(parent = emptyenv())
  # The Python tape is made when first needed: by with(), in the call that
  # enters it (one call into Python, not two), or by a method called first.
  py <- NULL
  made <- function() {
    if (is.null(py)) {
      py <<- core_call("GradientTape", persistent = persistent,
                       watch_accessed_variables = watch_accessed_variables)
      tape$py <- py
    }
    py
  }
  tape$.enter <- function() {
    if (!is.null(py))
      return(method_call(py, "__enter__"))
    # (no interrupt between Python's push of the tape and R knowing it)
    suspendInterrupts({
      py <<- py_call(interop()$enter_tape, persistent,
                     watch_accessed_variables)
      tape$py <- py
    })
  }
  tape$.exit <- function() {
    if (!is.null(py)) method_call(py, "__exit__", NULL, NULL, NULL)
  }
  tape$watch <- function(x) {
    method_call(made(), "watch", as_py_sources(x))
    invisible(tape)
  }
  tape$gradient <- function(target, sources, output_gradients = NULL,
                            unconnected_gradients = "none") {
    res <- method_call(made(), "gradient", as_py(target),
                       as_py_sources(sources), as_py(output_gradients),
                       unconnected_gradients)
    like_sources(res, sources)
  }
  tape$jacobian <- function(target, source, unconnected_gradients = "none") {
    res <- method_call(made(), "jacobian", as_py(target),
                       as_py_sources(source),
                       unconnected_gradients = unconnected_gradients)
    like_sources(res, source)
  }
  tape$stop_recording <- function() {
    method_call(made(), "stop_recording")
  }
  tape$watched_variables <- function() {
    method_call(made(), "watched_variables")
  }
  tape$explain <- function(target, source) {
    method_call(made(), "explain", as_py(target), as_py_sources(source))
  }
  tape$reset <- function() {
    method_call(made(), "reset")
    invisible(tape)
  }
  class(tape) <- "pycg_gradient_tape"
  tape
}

# Sources go to Python as a tensor or a plain list (names are put back on
# the result in R, so any R names work).
as_py_sources <- function(x) {
  if (is.list(x) && !is.data.frame(x) &&
      !inherits(x, "python.builtin.object"))
    unname(lapply(x, as_py))
  else
    as_py(x)
}

like_sources <- function(res, sources) {
  if (is.list(res) && is.list(sources))
    names(res) <- names(sources)
  res
}

#' @export
print.pycg_gradient_tape <- function(x, ...) {
  cat("<pycg GradientTape>\n")
  invisible(x)
}

#' Name the value of a context in `with()`
#'
#' `with(gradient_tape() %as% tape, { ... })` enters the tape, binds it to
#' `tape` in the calling environment, evaluates the block, and exits the tape
#' even when the block fails. It works the same way for Python context
#' managers.
#'
#' @param object A context: a [gradient_tape()] or a Python context manager.
#' @param name The name to bind it to (unquoted).
#' @return `object`, marked with the name.
#' @examplesIf pycg_available()
#' with(gradient_tape() %as% tape, {
#'   x <- op_convert_to_tensor(2)
#'   tape$watch(x)
#'   y <- x^2
#' })
#' tape$gradient(y, x)
#' @export
`%as%` <- function(object, name) {
  name <- substitute(name)
  attr(object, "as") <- if (is.symbol(name)) as.character(name) else
    gsub("\"", "", deparse(name))
  attr(object, "as_envir") <- parent.frame()
  object
}

#' @param data A tape marked with [`%as%`].
#' @param expr The block to evaluate while the tape records.
#' @param ... Not used.
#' @return `with()`: the value of `expr`, invisibly.
#' @rdname grapes-as-grapes
#' @export
with.pycg_gradient_tape <- function(data, expr, ...) {
  # registered first, so an interrupt or time limit that lands inside the
  # call that enters the tape still takes it off the thread's stack; and
  # run with interrupts (and so time limits) suspended, so none can cut it
  # short before it reaches Python and leave the tape recording
  on.exit(suspendInterrupts(data$.exit()))
  data$.enter()
  name <- attr(data, "as", exact = TRUE)
  if (!is.null(name))
    assign(name, data,
           envir = attr(data, "as_envir", exact = TRUE) %||% parent.frame())
  invisible(expr)
}
