# Calls into Python and back: each wrapper's one call to pycg/r/interop.py,
# Python errors as R errors, and R functions as Python callables (with the
# one description of R formals for Python, python_signature()).

# ---- calls and errors --------------------------------------------------------
# Each is one Python call; arguments are already converted (as_py() & co).

# fn(...) for a guarded Python function fn (see pycg/r/interop.py), with R's
# interrupts and time limits held back until it returns: one taken in R code
# that Python called, while Python frames are on the stack, can leave the
# interpreter broken. The arguments are forced first, so R code in them
# stays interruptible.
py_call <- function(fn, ..., .caller = NULL) {
  check_live(list(...))
  res <- suspendInterrupts(fn(...))
  if (length(.pycg$deferred)) signal_deferred()
  py_result(res, .caller)
}

# py_call(fn, <the arguments in the list args>, .caller = caller), for the
# functions made by pycg_grad() & co.
py_apply <- function(fn, args, caller = NULL) {
  force(fn)
  check_live(args)
  res <- suspendInterrupts(do.call(fn, args))
  if (length(.pycg$deferred)) signal_deferred()
  py_result(res, caller)
}

# pycg.ops.<name>(...): py_call() written out, as every op goes through it.
op_call <- function(.op, ...) {
  check_live(list(...))
  res <- suspendInterrupts(interop()$call_op(.op, ...))
  if (length(.pycg$deferred)) signal_deferred()
  py_result(res)
}

# The warnings of R code that Python called (r_shim() holds them back: an
# exiting handler, tryCatch(warning = ), must not unwind Python's frames),
# signalled once Python has returned.
signal_deferred <- function() {
  warned <- .pycg$deferred
  .pycg$deferred <- NULL
  for (w in warned) warning(w)
}

# pycg.ops.<name>(...) for ops that return 0-based indices: R gets 1-based
# ones.
op_call_index <- function(.op, ...) {
  py_call(interop()$call_op_index, .op, ...)
}

# The Python function that pycg/r/entries.py lists as `.name`, of `...`:
# pycg's public API by its path ("config.backend"), or the R package's own
# ("r.linalg.matprod": R's meaning on tensors, pycg/r/base/). A name not
# listed there is an R error naming it.
core_call <- function(.name, ...) {
  py_call(interop()$call_core, .name, ...)
}

# obj.<name>(...) for a Python object R holds.
method_call <- function(.obj, .method, ...) {
  py_call(interop()$call_method, .obj, .method, ...)
}

# A Python callable R holds, wrapped so that py_call() can call it:
# arguments decoded, exceptions returned as Failures.
guard <- function(fn) {
  py_call(interop()$guard, fn)
}

# pycg objects need no conversion: answering reticulate's r_to_py()
# dispatch here saves it a search along the class vector for every argument.
#' @rawNamespace S3method(reticulate::r_to_py, pycg.tensor.Tensor)
#' @rawNamespace S3method(reticulate::r_to_py, pycg.api.tape.GradientTape)
r_to_py.pycg.tensor.Tensor <- function(x, convert = FALSE) {
  x
}

r_to_py.pycg.api.tape.GradientTape <- r_to_py.pycg.tensor.Tensor

# Nor the other way: reticulate's py_to_r() would give a tensor or a tape
# back as it is, after trying each class of its class vector and converting
# it twice (py_ref_to_r(), py_to_r_wrapper()): 45 us a tensor on a loaded
# machine, for each element of the gradients tape$gradient() returns.
#' @rawNamespace S3method(reticulate::py_to_r, pycg.tensor.Tensor)
#' @rawNamespace S3method(reticulate::py_to_r, pycg.api.tape.GradientTape)
py_to_r.pycg.tensor.Tensor <- function(x) {
  x
}

py_to_r.pycg.api.tape.GradientTape <- py_to_r.pycg.tensor.Tensor

# ---- R functions called from Python ------------------------------------------

# An R function as a Python callable with `signature` (py_signature(); NULL
# for (*args, **kwargs)). `kind = "forward"` makes the forward function of
# op_custom_gradient(), which returns list(output, grad shim, grad signature).
# `shim_name` and `...`: the `name` and more arguments of r_shim().
r_callable <- function(fn, name, signature = NULL, kind = "function",
                       shim_name = call_name(name), ...) {
  py_call(interop()$r_function, r_shim(fn, name = shim_name, ...),
          signature, name, kind)
}

# The name an R function is called by in error calls: its label when that
# is a name, else f.
call_name <- function(label) {
  if (identical(make.names(label), label)) label else "f"
}

# The R side of a call from Python: arguments arrive as R values (tensors
# stay tensors), the result goes back marshalled by as_py() and is decoded
# in Python (RCallable.__call__). Python calls it with R's interrupts held
# back (py_call()); the user's code alone runs with them allowed, so Ctrl-C
# and setTimeLimit() reach a runaway rule. No R condition crosses Python's
# frames: an error, interrupt or time limit is caught here and returned as a
# marker that Python raises (RCallbackError, RCallbackInterrupt:
# pycg/r/conditions.py); Python unwinds, its tapes exit, and
# raise_failure() signals the condition again in R. `where()`
# gives the prefix of an error's message, e.g. "in the gradient of f".
# `name`: the name `fn` is called by (or a function giving it); `inputs`:
# names for arguments that land in `fn`'s `...` (a rule's inputs); `post`:
# applied to the result, with interrupts held back; `explain`: applied to
# an R error's condition before it is returned; `pack`: the arguments, unless
# there is one, arrive as one list (a rule function(upstream) of several
# outputs). Warnings are held back until Python returns (signal_deferred()).
r_shim <- function(fn, where = NULL, name = "f", inputs = NULL,
                   post = identity, explain = identity, pack = FALSE) {
  name_now <- if (is.function(name)) name else function() name
  interop()  # Python must be started by pycg before r_to_py() starts it
  # called by name with its arguments as variables, so that an error's call
  # reads g(x, upstream = upstream), as the user would have written it; the
  # names are worked out once per way of calling
  home <- new.env(parent = baseenv())
  given <- vars <- call_args <- NULL
  shim <- function(...) {
    args <- lapply(list(...), py_arg_to_r)
    if (pack && length(args) != 1L) args <- list(args)
    now <- names(args) %||% rep("", length(args))
    if (!identical(now, given)) {
      given <<- now
      vars <<- argument_names(fn, given, inputs)
      call_args <<- lapply(vars, as.name)
      names(call_args) <<- given
    }
    name <- name_now()
    if (!exists(name, envir = home, inherits = FALSE))
      assign(name, fn, envir = home)
    names(args) <- vars
    frame <- list2env(args, parent = home)
    tryCatch(withCallingHandlers(
      as_py(post(allowInterrupts(withCallingHandlers(
        do.call(name, call_args, envir = frame),
        error = function(e) .pycg$r_calls <- sys.calls())))),
      warning = defer_warning),
      interrupt = function(cond) r_condition(cond, "interrupt", where),
      error = function(cond) r_condition(explain(cond), "error", where))
  }
  r_to_py(shim, convert = FALSE)
}

defer_warning <- function(w) {
  .pycg$deferred <- c(.pycg$deferred, list(w))
  invokeRestart("muffleWarning")
}

# Variable names for the arguments of a call to `fn` (`given`: the names
# they were passed by, "" for positional ones): a named argument keeps its
# name, a positional one takes the parameter it binds to, or, in `...`, the
# next of `inputs` (else input1, input2, ...).
argument_names <- function(fn, given, inputs = NULL) {
  params <- if (is.primitive(fn)) character() else names(formals(fn))
  before_dots <- params[seq_len(match("...", params, length(params) + 1L) - 1L)]
  free <- setdiff(before_dots, given)
  positional <- which(!nzchar(given))
  dots <- c(inputs, paste0("input", seq_along(positional)))
  vars <- given
  vars[positional] <- c(free, setdiff(dots, c(given, free)))[
    seq_along(positional)]
  make.unique(vars, sep = "_")
}

# The marker Python raises for an R condition; the condition itself is kept
# for raise_failure() (with its message prefixed by `where()`, and the calls
# active when it was signalled).
r_condition <- function(cond, kind, where) {
  if (kind == "interrupt") {
    cond <- structure(
      class = c("pycg_interrupt", "interrupt", "condition"),
      list(message = "interrupted while pycg was running R code", call = NULL))
  } else if (!is.null(where)) {
    cond$message <- paste0(where(), ": ", conditionMessage(cond))
  }
  cond$pycg_calls <- .pycg$r_calls
  .pycg$r_calls <- NULL
  .pycg$r_error <- cond
  list(`__pycg_r_condition__` = kind, message = conditionMessage(cond),
       where = if (!is.null(where)) where(), classes = as.list(class(cond)))
}

# R formals as the data of pycg.with_signature: list(name, kind) per
# argument, list(name, kind, NULL) for one defaulting to None. `...` becomes
# *args (named args_ when an argument is named args, and so on), followed,
# when `kwargs = TRUE`, by **args_kw; an argument with a default, and every
# one after it up to `...`, defaults to None (R evaluates its own defaults);
# arguments after `...` are keyword-only. A primitive takes (*args,
# **kwargs). The one description of R formals for Python: op_custom_gradient()
# and the other wrappers use it through py_signature(), pycg.r's bridge
# directly (R/bridge.R).
python_signature <- function(fn, kwargs = FALSE) {
  if (is.primitive(fn))
    return(list(list("args", "var_positional"), list("kwargs", "var_keyword")))
  names <- names(formals(fn))
  bad <- setdiff(names[!grepl("^[A-Za-z_][A-Za-z0-9_]*$", names) |
                         names %in% python_keywords], "...")
  if (length(bad))
    stop("pycg passes R functions to Python, which cannot name an argument `",
         bad[1L], "`; rename it (letters, digits and _ only)", call. = FALSE)
  defaults <- !vapply(formals(fn), identical, NA, quote(expr = ))
  star <- "args"
  while (star %in% names) star <- paste0(star, "_")
  params <- vector("list", length(names))
  seen_default <- FALSE
  after_dots <- FALSE
  for (i in seq_along(names)) {
    if (names[i] == "...") {
      params[[i]] <- list(star, "var_positional")
      seen_default <- FALSE
      after_dots <- TRUE
      next
    }
    seen_default <- seen_default || defaults[i]
    kind <- if (after_dots) "keyword" else "positional"
    params[[i]] <- if (seen_default) list(names[i], kind, NULL) else
      list(names[i], kind)
  }
  if (kwargs && after_dots)
    params <- c(params, list(list(paste0(star, "_kw"), "var_keyword")))
  params
}

# python_signature(fn, kwargs) as a Python inspect.Signature, made once per
# set of formals.
py_signature <- function(fn, kwargs = FALSE) {
  key <- if (is.primitive(fn)) "primitive" else {
    f <- formals(fn)
    defaults <- !vapply(f, identical, NA, quote(expr = ))
    paste0(kwargs, ":", paste0(names(f), ifelse(defaults, "=", ""),
                               collapse = ","))
  }
  .pycg$signatures[[key]] %||% {
    .pycg$signatures[[key]] <- py_call(interop()$r_signature,
                                       python_signature(fn, kwargs))
  }
}

python_keywords <- c(
  "False", "None", "True", "and", "as", "assert", "async", "await", "break",
  "class", "continue", "def", "del", "elif", "else", "except", "finally",
  "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal",
  "not", "or", "pass", "raise", "return", "try", "while", "with", "yield")

# A label for an R function in messages: its name when the caller passed a
# name, else "R function(<its arguments>)".
function_label <- function(expr, fn) {
  if (is.symbol(expr))
    return(as.character(expr))
  if (!is.function(fn) || is.primitive(fn))
    return("an R function")
  sprintf("R function(%s)", paste(names(formals(fn)), collapse = ", "))
}
