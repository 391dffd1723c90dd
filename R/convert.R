# The one place where R values and Python values meet.
#
# reticulate 1.28 refuses NumPy 2 for its own array conversion, so no R array
# is ever handed to reticulate as an array: an R vector or array travels as
# (raw column-major bytes, shape, kind), written by array_to_raw() and read
# back by raw_to_array(), the R half of the codec in pycg/r/codec.py (pycg.r's
# bridge, R/bridge.R, uses the same two). Every wrapper makes one call to a
# function of pycg/r/interop.py, which returns a Failure object instead of
# raising, so errors reach R as short R errors.

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
    if (is.data.frame(x))
      stop_bad_input(x, substitute(x), "; use as.matrix() for a numeric matrix")
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
    stop_bad_input(x, substitute(x), if (is.factor(x))
      "; use as.numeric(as.character(x)) for the labels' numbers")
  if (length(x) == 1L && is.null(dim(x)) && !(is.integer(x) && is.na(x)) &&
      !(is.logical(x) && is.na(x)))
    return(x)
  if ((is.integer(x) || is.logical(x)) && anyNA(x))
    stop_bad_input(x, substitute(x), paste0(
      ": pycg tensors have no integer or logical NA; use a double vector ",
      "(NA becomes NaN) or remove the NAs"), what = "")
  r_array(x)
}

# An error naming the R function the user called (the innermost exported
# pycg function on the stack, or a tape method) and the argument.
stop_bad_input <- function(x, expr, hint = NULL, what = NULL) {
  arg <- if (is.symbol(expr)) sprintf("`%s`", as.character(expr)) else
    "an argument"
  what <- what %||% sprintf(
    " must be numbers, logicals, arrays of them or a tensor, not %s",
    describe_input(x))
  stop(sprintf("%s: %s%s%s", calling_function(), arg, what, hint %||% ""),
       call. = FALSE)
}

describe_input <- function(x) {
  if (is.data.frame(x)) return("a data.frame")
  if (is.factor(x)) return("a factor")
  if (is.environment(x)) return("an R environment")
  paste("an R", class(x)[1L])
}

calling_function <- function() {
  exported <- getNamespaceExports("pycg")
  calls <- sys.calls()
  for (i in rev(seq_along(calls))) {
    # a function made by pycg_grad() & co. knows its maker's name
    made_by <- environment(sys.function(i))$caller$name
    if (is.character(made_by)) return(made_by)
    head <- calls[[i]][[1L]]
    if (is.call(head) && identical(head[[1L]], as.name("$")) &&
        as.character(head[[3L]]) %in% c("gradient", "jacobian", "watch",
                                        "explain"))
      return(paste0("tape$", as.character(head[[3L]])))
    if (is.call(head) && as.character(head[[1L]])[1L] %in% c("::", ":::"))
      head <- head[[3L]]
    if (is.symbol(head) && as.character(head) %in% exported)
      return(as.character(head))
  }
  "pycg"
}

r_array <- function(x) {
  stats::setNames(array_to_raw(x), c("__pycg_r_array__", "shape", "kind"))
}

# ---- the array codec (pycg/r/codec.py is the Python half) --------------------

# list(bytes, shape, kind) of an R vector or array: the elements' bytes in
# R's (column-major) order, the extents (none for a length-1 vector), and
# R's storage type, one of "double", "integer", "logical", "complex".
array_to_raw <- function(x) {
  shape <- as.list(dim(x) %||% (if (length(x) == 1L) integer() else length(x)))
  if (is.double(x) || is.complex(x))
    return(list(writeBin(as.vector(x), raw(), endian = "little"), shape,
                typeof(x)))
  if (anyNA(x))
    stop("pycg tensors have no integer or logical NA; `NA` found. ",
         "Use a double vector (NA becomes NaN) or remove the NAs",
         call. = FALSE)  # as_py() names the function first
  list(writeBin(as.integer(x), raw(), size = 4L, endian = "little"), shape,
       typeof(x))
}

# The R value of array_to_raw()'s triple: a scalar for no extents, else an
# array of that shape.
raw_to_array <- function(bytes, shape, kind) {
  shape <- as.integer(unlist(shape))
  n <- prod(shape)
  value <- switch(kind,
    double = readBin(bytes, "double", n, size = 8L, endian = "little"),
    integer = readBin(bytes, "integer", n, size = 4L, endian = "little"),
    logical = as.logical(readBin(bytes, "integer", n, size = 4L,
                                 endian = "little")),
    complex = readBin(bytes, "complex", n, size = 16L, endian = "little"),
    stop("pycg: unknown array kind `", kind, "`", call. = FALSE))
  if (length(shape)) dim(value) <- shape
  value
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
  check_positions(x, substitute(x))
  shape <- dim(x)
  x <- as.integer(x) - 1L
  dim(x) <- shape
  if (length(x) == 1L && is.null(shape)) x else r_array(x)
}

# Positions and class labels are whole numbers: a Date, a factor or text
# would be read by as.integer() as something else, and NA has no place.
check_positions <- function(x, expr) {
  values <- if (is.list(x) && !is.object(x)) unlist(x) else x
  if (!(is.numeric(values) || is.logical(values)) || is.object(values))
    stop_bad_input(x, expr, what = sprintf(
      " must be whole numbers (1-based positions or labels), not %s",
      describe_input(x)))
  if (anyNA(values))
    stop_bad_input(x, expr, what = sprintf(
      " is NA at position %d; positions and labels must be whole numbers",
      which(is.na(values))[1L]))
}

# A condition from R: NA (and NaN) is neither TRUE nor FALSE, as in `if`.
check_condition <- function(x) {
  if (!inherits(x, "python.builtin.object") && anyNA(x))
    stop_bad_input(x, substitute(x), what = sprintf(
      paste0(" is NA at position %d; a condition must be TRUE or FALSE ",
             "(base R's ifelse() gives NA there): replace the NAs first, ",
             "e.g. with `!is.na(condition) & condition`"),
      which(is.na(unlist(x)))[1L]))
}

# 1-based R positions to 0-based ones, keeping the shape of a matrix or
# array (rows of coordinates, as scatter takes them).
as_index_array <- function(x) {
  if (is.null(x) || inherits(x, "python.builtin.object") || is.null(dim(x)))
    return(as_index(x))
  shape <- dim(x)
  x <- as.integer(x) - 1L
  dim(x) <- shape
  r_array(x)
}

# ---- Python -> R -------------------------------------------------------------

# The result of an interop call: tensors and other objects pass through,
# tuples and lists become R lists, Python numbers, strings and None become R
# values, a Failure becomes an R error, warnings R warnings (R/messages.R).
py_result <- function(res, caller = NULL) {
  if (inherits(res, "pycg.tensor.Tensor"))
    return(res)
  if (inherits(res, "pycg.r.interop.Warned"))
    res <- raise_warnings(res, caller)
  if (inherits(res, "pycg.tensor.Tensor"))
    return(res)
  if (inherits(res, "pycg.r.interop.Failure"))
    raise_failure(res, caller)
  if (inherits(res, "python.builtin.object"))
    py_to_r(res)
  else
    res
}

# A tensor as an R value: 0-d -> scalar, otherwise an array of its shape.
tensor_to_r <- function(x) {
  parts <- py_call(interop()$to_r, x)
  raw_to_array(parts[[1L]], parts[[2L]], parts[[3L]])
}

# Arguments that Python passed to an R function: tuples and lists become R
# lists, None NULL, numbers and strings R values; tensors stay tensors.
py_arg_to_r <- function(x) {
  if (inherits(x, "pycg.tensor.Tensor")) x else py_result(x)
}
