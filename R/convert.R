# The one place where R values and Python values meet.
#
# reticulate 1.28 refuses NumPy 2 for its own array conversion, so no R array
# is ever handed to reticulate as an array: an R vector or array travels as a
# tagged list (raw column-major bytes + shape + dtype) that pycg/_rinterop.py
# decodes inside the same Python call, and a tensor comes back as
# (raw bytes, shape, kind) read with readBin(). Every wrapper makes one call
# to a function of pycg/_rinterop.py, which returns a Failure object instead
# of raising, so errors reach R as short R errors.

# ---- R -> Python -------------------------------------------------------------

# An R value as a Python argument: tensors and other Python objects pass
# through, R scalars become Python numbers (weakly typed, like Python floats),
# vectors and arrays become tensors (double -> float64, integer -> int32,
# logical -> bool), lists become lists (dicts when named), functions become
# Python callables, tuple() becomes a Python tuple.
as_py <- function(x) {
  if (is.null(x) || inherits(x, "python.builtin.object"))
    return(x)
  if (is.function(x))
    return(r_callable(x, function_label(NULL, x)))
  if (is.list(x)) {
    out <- lapply(x, as_py)
    if (!any(nzchar(names(out) %||% "")))
      names(out) <- NULL
    if (inherits(x, "pycg_tuple"))
      return(list(`__pycg_r_tuple__` = unname(out)))
    return(out)
  }
  if (is.character(x)) {
    if (length(x) == 1L && is.null(dim(x))) return(x)
    return(as.list(x))
  }
  if (is.factor(x) || !(is.numeric(x) || is.logical(x) || is.complex(x)))
    stop("pycg cannot convert an R ", class(x)[1L], " to a tensor; ",
         "expected numbers, logicals or arrays of them", call. = FALSE)
  if (length(x) == 1L && is.null(dim(x)) && !(is.integer(x) && is.na(x)) &&
      !(is.logical(x) && is.na(x)))
    return(x)
  r_array(x)
}

r_array <- function(x) {
  shape <- as.list(dim(x) %||% length(x))
  if (is.double(x)) {
    list(`__pycg_r_array__` = writeBin(as.vector(x), raw(), endian = "little"),
         shape = shape, dtype = "float64")
  } else if (is.complex(x)) {
    list(`__pycg_r_array__` = writeBin(as.vector(x), raw(), endian = "little"),
         shape = shape, dtype = "complex128")
  } else {
    if (anyNA(x))
      stop("pycg tensors have no integer or logical NA; `NA` found. ",
           "Use a double vector (NA becomes NaN) or remove the NAs",
           call. = FALSE)
    list(`__pycg_r_array__` = writeBin(as.integer(x), raw(), size = 4L,
                                       endian = "little"),
         shape = shape, dtype = if (is.logical(x)) "bool" else "int32")
  }
}

# 1-based R axes to 0-based Python axes; negative axes count from the end.
as_axis <- function(axis) {
  if (is.null(axis) || inherits(axis, "python.builtin.object"))
    return(axis)
  if (!is.numeric(axis) || anyNA(axis))
    stop("`axis` must be a whole number (1-based) or NULL", call. = FALSE)
  axis <- as.integer(axis)
  if (any(axis == 0L))
    stop("`axis` is 1-based in R (negative counts from the end); got 0",
         call. = FALSE)
  axis <- ifelse(axis > 0L, axis - 1L, axis)
  if (length(axis) == 1L) axis else as.list(axis)
}

# A shape: R numbers to a list of Python ints (NA -> None).
as_shape <- function(shape) {
  if (is.null(shape) || inherits(shape, "python.builtin.object"))
    return(shape)
  lapply(shape, function(d) {
    if (inherits(d, "python.builtin.object")) d
    else if (is.na(d)) NULL
    else as.integer(d)
  })
}

# tensordot's `axes`: a count, or two vectors of 1-based axes.
as_tensordot_axes <- function(axes) {
  if (is.list(axes))
    lapply(axes, function(a) as.list(as.integer(as_axis(a))))
  else
    as_int(axes)
}

# pad()'s `pad_width`: an n x 2 matrix (before, after per axis), a pair, or
# one number.
as_pad_width <- function(pad_width) {
  if (is.matrix(pad_width))
    return(lapply(seq_len(nrow(pad_width)),
                  function(i) as.list(as.integer(pad_width[i, ]))))
  if (is.list(pad_width))
    return(lapply(pad_width, function(p) as.list(as.integer(p))))
  as_int(pad_width)
}

# Whole numbers (sizes, counts, seeds) as Python ints.
as_int <- function(x) {
  if (is.null(x) || inherits(x, "python.builtin.object")) return(x)
  if (length(x) == 1L) as.integer(x) else as.list(as.integer(x))
}

# 1-based R indices to 0-based Python indices (R numbers, arrays keeping
# their shape, or tensors).
as_index <- function(x) {
  if (is.null(x)) return(x)
  if (inherits(x, "python.builtin.object"))
    return(list(`__pycg_r_index__` = x))
  shape <- dim(x)
  x <- as.integer(x) - 1L
  dim(x) <- shape
  if (length(x) == 1L && is.null(shape)) x else r_array(x)
}

# ---- Python -> R -------------------------------------------------------------

# The result of an interop call: tensors and other objects pass through,
# tuples and lists become R lists, Python numbers, strings and None become R
# values, a Failure becomes an R error.
py_result <- function(res) {
  if (inherits(res, "pycg.tensor.Tensor"))
    return(res)
  if (inherits(res, "pycg._rinterop.Failure"))
    raise_failure(res)
  if (inherits(res, "python.builtin.object"))
    py_to_r(res)
  else
    res
}

# A tensor as an R value: 0-d -> scalar, otherwise an array of its shape.
tensor_to_r <- function(x) {
  parts <- py_call(interop()$to_r, x)
  bytes <- parts[[1L]]
  shape <- as.integer(unlist(parts[[2L]]))
  n <- prod(shape)
  value <- switch(parts[[3L]],
    double = readBin(bytes, "double", n, size = 8L, endian = "little"),
    integer = readBin(bytes, "integer", n, size = 4L, endian = "little"),
    logical = as.logical(readBin(bytes, "integer", n, size = 4L,
                                 endian = "little")),
    complex = readBin(bytes, "complex", n, size = 16L, endian = "little"))
  if (length(shape)) dim(value) <- shape
  value
}

# Arguments that Python passed to an R function: tuples and lists become R
# lists, None NULL, numbers and strings R values; tensors stay tensors.
py_arg_to_r <- function(x) {
  if (inherits(x, "pycg.tensor.Tensor")) x else py_result(x)
}

# ---- calls and errors --------------------------------------------------------
# Each is one Python call; arguments are already converted (as_py() & co).

# fn(...) for a guarded Python function fn (see pycg/_rinterop.py), with R's
# interrupts and time limits held back until it returns: one taken in R code
# that Python called, while Python frames are on the stack, can leave the
# interpreter broken. The arguments are forced first, so R code in them
# stays interruptible.
py_call <- function(fn, ...) {
  list(...)
  suspendInterrupts(py_result(fn(...)))
}

# pycg.ops.<name>(...): py_call() written out, as every op goes through it.
op_call <- function(.op, ...) {
  list(...)
  suspendInterrupts(py_result(interop()$call_op(.op, ...)))
}

# pycg.ops.<name>(...) for ops that return 0-based indices: R gets 1-based
# ones.
op_call_index <- function(.op, ...) {
  py_call(interop()$call_op_index, .op, ...)
}

# pycg.<name>(...), e.g. core_call("config.backend").
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

# Re-raise a Python exception caught in _rinterop as an R error. If it
# came from an R function that Python called, the original R condition is
# signalled again, so the R caller sees the R message.
raise_failure <- function(failure) {
  r_error <- .pycg$r_error
  .pycg$r_error <- NULL
  message <- py_to_r(py_get_attr(failure, "message"))
  if (!is.null(r_error) && grepl(conditionMessage(r_error), message,
                                 fixed = TRUE))
    stop(r_error)
  if (isTRUE(getOption("pycg.traceback")))
    message <- paste0(message, "\n\nPython traceback:\n",
                      py_to_r(py_get_attr(failure, "traceback")))
  cond <- structure(
    class = c("pycg_python_error", "error", "condition"),
    list(message = message, call = NULL,
         python_type = py_to_r(py_get_attr(failure, "type"))))
  stop(cond)
}

# pycg objects need no conversion: answering reticulate's r_to_py()
# dispatch here saves it a search along the class vector for every argument.
#' @rawNamespace S3method(reticulate::r_to_py, pycg.tensor.Tensor)
#' @rawNamespace S3method(reticulate::r_to_py, pycg.tape.GradientTape)
r_to_py.pycg.tensor.Tensor <- function(x, convert = FALSE) {
  x
}

r_to_py.pycg.tape.GradientTape <- r_to_py.pycg.tensor.Tensor

# ---- R functions called from Python ------------------------------------------

# An R function as a Python callable with signature `spec` (see
# signature_spec()). `kind = "forward"` makes the forward function of
# op_custom_gradient(), which returns list(output, grad shim, grad spec).
r_callable <- function(fn, name, spec = "(*args, **kwargs)",
                       kind = "function") {
  py_call(interop()$r_function, r_shim(fn), spec, name, kind)
}

# The R side of a call from Python: arguments arrive as R values (tensors
# stay tensors), the result goes back marshalled by as_py() and is decoded
# in Python (RFunction.__call__). An R error is remembered so that
# raise_failure() can re-signal it with its R message. Interrupts and time
# limits wait until R is back on top: one taken while Python frames are on
# the stack can leave Python's interpreter state broken. With `fit_args`,
# unnamed arguments that `fn` has no room for are dropped (a grad written
# function(upstream) is called with the inputs too).
r_shim <- function(fn, fit_args = FALSE) {
  force(fn)
  room <- if (fit_args && !"..." %in% names(formals(fn))) length(formals(fn))
  interop()  # Python must be started by pycg before r_to_py() starts it
  shim <- function(...) suspendInterrupts({
    args <- lapply(list(...), py_arg_to_r)
    if (!is.null(room)) args <- fit_to_formals(args, room)
    withCallingHandlers(
      as_py(do.call(fn, args)),
      error = function(e) .pycg$r_error <- e)
  })
  r_to_py(shim, convert = FALSE)
}

fit_to_formals <- function(args, room) {
  named <- nzchar(names(args) %||% rep("", length(args)))
  positional <- which(!named)
  extra <- length(positional) - (room - sum(named))
  if (extra > 0L) args[utils::tail(positional, extra)] <- NULL
  args
}

# The Python signature string for an R function's formals: `...` becomes
# `*args` (plus `**kwargs` when `kwargs = TRUE`), an argument with a default
# becomes `name=None`, arguments after `...` are keyword-only.
signature_spec <- function(fn, kwargs = FALSE) {
  if (is.primitive(fn))
    return("(*args, **kwargs)")
  names <- names(formals(fn))
  defaults <- !vapply(formals(fn), identical, NA, quote(expr = ))
  key <- paste0(kwargs, ":", paste0(names, ifelse(defaults, "=", ""),
                                    collapse = ","))
  .pycg$specs[[key]] %||% {
    .pycg$specs[[key]] <- make_spec(names, defaults, kwargs)
  }
}

make_spec <- function(names, defaults, kwargs) {
  bad <- setdiff(names[!grepl("^[A-Za-z_][A-Za-z0-9_]*$", names) |
                         names %in% python_keywords], "...")
  if (length(bad))
    stop("pycg passes R functions to Python, which cannot name an argument `",
         bad[1L], "`; rename it (letters, digits and _ only)", call. = FALSE)
  star <- "args"
  while (star %in% names) star <- paste0(star, "_")
  parts <- character()
  seen_default <- FALSE
  for (i in seq_along(names)) {
    if (names[i] == "...") {
      parts <- c(parts, paste0("*", star))
      seen_default <- FALSE
      next
    }
    seen_default <- seen_default || defaults[i]
    parts <- c(parts, if (seen_default) paste0(names[i], "=None") else names[i])
  }
  if (kwargs && "..." %in% names)
    parts <- c(parts, paste0("**", star, "_kw"))
  paste0("(", paste(parts, collapse = ", "), ")")
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
