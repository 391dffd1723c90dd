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

# The one envelope of R values bound for Python, whichever side started the
# call (an R wrapper calling pycg through reticulate, or pycg.r's Python
# calling R, R/bridge.R); pycg/r/envelope.py decodes it. The rules, pinned
# in tests/testthat/test-convert.R and tests/test_r_bridge.py:
#   NULL -> None; tensors and other Python objects pass as themselves;
#   a length-1 number, integer, logical or complex without dim -> a Python
#     number (weakly typed beside a tensor, as reticulate's r_to_py());
#     NA_real_ -> nan (with R's payload);
#   other vectors and arrays -> tensors (double -> float64, integer -> int32,
#     logical -> bool; column-major layout kept; NA stays R's NA_real_, a
#     NaN with its payload, in doubles);
#   integer or logical NA, and NA strings -> an error (Python has no such
#     value; reticulate would pass True or the text "NA");
#   a string -> str, a character vector or array -> a list of str, each
#     string converted from its declared encoding (UTF-8, latin1 or the
#     session's) to UTF-8 by as_py_strings();
#   an unnamed list -> list, a list whose elements all have distinct names
#     -> dict (its names sent as strings, so converted the same way),
#     tuple() -> tuple; a list named in part or with a repeated name -> an
#     error (a dict would lose elements);
#   a function -> a Python callable (`.fn` makes it: the R package's by
#     default, pycg.r's in R/bridge.R);
#   data frames, factors, environments and the rest -> an error.
# `.label` names the value in errors (default: the expression passed).
# `.staged`: a large array crosses in pieces (staged_array(); FALSE in
# pycg.r's bridge, whose Python reads the envelope once it is whole).
as_py <- function(x, .label = substitute(x), .fn = as_py_function,
                  .staged = TRUE) {
  if (is.null(x) || inherits(x, "python.builtin.object"))
    return(x)
  if (is.function(x))
    return(.fn(x))
  if (is.list(x)) {
    if (is.data.frame(x))
      stop_bad_input(x, .label, "; use as.matrix() for a numeric matrix")
    out <- lapply(unname(x), as_py, .fn = .fn, .staged = .staged)
    if (inherits(x, "pycg_tuple"))
      return(list(`__pycg_r_tuple__` = out))
    keys <- list_names(x, .label)
    if (is.null(keys)) return(out)
    return(list(`__pycg_r_dict__` = as.list(as_py_strings(keys)),
                values = out))
  }
  if (is.character(x)) {
    if (anyNA(x))
      stop_bad_input(x, .label, what = sprintf(paste0(
        " is NA at position %d; Python strings have no NA: remove it or ",
        "use NULL"), which(is.na(x))[1L]))
    x <- as_py_strings(x)
    if (length(x) == 1L && is.null(dim(x))) return(as.vector(x))
    return(as.list(x))
  }
  if (is.factor(x) || !(is.numeric(x) || is.logical(x) || is.complex(x)))
    stop_bad_input(x, .label, if (is.factor(x))
      "; use as.numeric(as.character(x)) for the labels' numbers")
  if (length(x) == 1L && is.null(dim(x)) && !(is.integer(x) && is.na(x)) &&
      !(is.logical(x) && is.na(x)))
    return(x)
  if ((is.integer(x) || is.logical(x)) && anyNA(x))
    stop_bad_input(x, .label, paste0(
      ": pycg tensors have no integer or logical NA; use a double vector ",
      "(which keeps R's NA) or remove the NAs"), what = "")
  r_array(x, .staged)
}

as_py_function <- function(fn) r_callable(fn, function_label(NULL, fn))

# R strings as the UTF-8 text of Python's str, each converted from the
# encoding it declares (enc2utf8()): a latin1 string from a file, a UTF-8
# one from "\u00e9" in a C-locale session. reticulate 1.28 sends a string's
# value as UTF-8 but a list's names as the session's encoding (in a C
# locale, "poids_\u00e9" would arrive as "poids_<U+00E9>"), which is why a
# named list crosses as the dict envelope, its names as strings.
as_py_strings <- function(x) {
  enc2utf8(x)
}

# as_py() of R data that an op makes a tensor of `dtype` from (a name or a
# Python dtype; NULL: the data's own): the dtype travels in each array's
# envelope, so NumPy converts the data to it before the backend sees it, as
# pycg.convert_to_tensor(np.array(...), dtype) does in Python. (Without it,
# R doubles become float64 on the way, which the jax backend refuses with
# JAX's 64-bit mode off.) Length-1 values pass as Python numbers, as before.
as_py_as <- function(x, dtype, .label = substitute(x)) {
  with_dtype(as_py(x, .label), dtype)
}

with_dtype <- function(out, dtype) {
  if (!(is.character(dtype) && length(dtype) == 1L && !is.na(dtype) ||
        inherits(dtype, "python.builtin.object")) || !is.list(out) ||
      inherits(out, "python.builtin.object"))
    return(out)   # (a bad dtype: the op's own error names it)
  if (!is.null(out[["__pycg_r_array__"]]))
    return(c(out, list(dtype = dtype)))
  if (is.null(names(out)))   # (an unnamed list: its elements' arrays)
    return(lapply(out, with_dtype, dtype = dtype))
  out
}

# The names a list keeps in Python: none (a list), or all, distinct (a dict).
list_names <- function(x, label) {
  nms <- names(x)
  if (is.null(nms) || !any(nzchar(nms))) return(NULL)
  if (!all(nzchar(nms)) || anyDuplicated(nms))
    stop_bad_input(x, label, what = sprintf(paste0(
      " is a list with %s; a list goes to Python as a list (no names) or a ",
      "dict (every element named, each name once)"),
      if (!all(nzchar(nms)))
        sprintf("element %d unnamed", which(!nzchar(nms))[1L])
      else
        sprintf("the name `%s` twice", nms[anyDuplicated(nms)])))
  nms
}

# An error naming the R function the user called (the innermost exported
# pycg function on the stack, or a tape method) and the argument.
stop_bad_input <- function(x, expr, hint = NULL, what = NULL) {
  arg <- if (is.character(expr)) expr else
    if (is.symbol(expr)) sprintf("`%s`", as.character(expr)) else
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

# An R list of variables as a Python list, the one made for the same list
# last time when `x` is identical to it (`slot` names the caller): a
# training loop passes the same variables on every step. Other lists are
# converted each time (a cached one would keep its tensors alive).
py_variables <- function(x, slot) {
  last <- .pycg$variable_lists[[slot]]
  if (!is.null(last) && identical(last$r, x))
    return(last$py)
  py <- reticulate::r_to_py(unname(lapply(x, as_py)))
  if (length(x) && all(vapply(x, inherits, NA, "pycg.tensor.Variable")))
    .pycg$variable_lists[[slot]] <- list(r = x, py = py)
  py
}

r_array <- function(x, staged = TRUE) {
  if (staged && length(x) > piece_limit)
    return(staged_array(x))
  stats::setNames(array_to_raw(x), c("__pycg_r_array__", "shape", "kind"))
}

# The most elements an array crosses in at once (2 MiB of doubles): a
# larger one goes in pieces, written straight into the tensor's array
# (codec.Staged), and comes back in pieces into the R vector
# (raw_to_array()), so the whole data is never copied on the way.
piece_limit <- 2^18

# The envelope of a large R array: its data already in Python (a
# codec.Staged filled piece by piece, each piece's bytes a small raw).
staged_array <- function(x) {
  shape <- as.list(dim(x) %||% length(x))
  kind <- typeof(x)
  stage <- py_call(interop()$stage_r, shape, kind, piece_limit)
  at <- 0
  counts <- as.numeric(py_value(stage$counts()))
  for (i in seq_along(counts)) {
    piece <- x[(at + 1):(at + counts[i])]
    stage$fill(i - 1L, array_to_raw(piece)[[1L]])
    at <- at + counts[i]
    piece_done()
  }
  list(`__pycg_r_array__` = stage, shape = shape, kind = kind)
}

# ---- the array codec (pycg/r/codec.py is the Python half) --------------------

# list(bytes, shape, kind) of an R vector or array: the elements' bytes in
# R's (column-major) order, the extents (none for a length-1 vector), and
# R's storage type, one of "double", "integer", "logical", "complex".
array_to_raw <- function(x) {
  shape <- as.list(dim(x) %||% (if (length(x) == 1L) integer() else length(x)))
  if (is.double(x) || is.complex(x)) {
    # NA keeps its bits (R's NA_real_, a NaN with the payload 1954), which
    # pycg/r/codec.py makes a quiet NaN
    return(list(writeBin(as.vector(x), raw(), endian = "little"), shape,
                typeof(x)))
  }
  if (anyNA(x))
    stop("pycg tensors have no integer or logical NA; `NA` found. ",
         "Use a double vector (which keeps R's NA) or remove the NAs",
         call. = FALSE)  # as_py() names the function first
  list(writeBin(as.integer(x), raw(), size = 4L, endian = "little"), shape,
       typeof(x))
}

# The R value of array_to_raw()'s triple: a scalar for no extents, else an
# array of that shape. `bytes` is a raw vector, or a codec.Pieces read
# piece by piece into the vector allocated here.
raw_to_array <- function(bytes, shape, kind) {
  shape <- as.integer(unlist(shape))
  n <- prod(shape)
  if (inherits(bytes, "python.builtin.object"))
    return(pieces_to_array(bytes, shape, kind, n))
  value <- read_raw(bytes, kind, n)
  if (length(shape)) dim(value) <- shape
  value
}

pieces_to_array <- function(pieces, shape, kind, n) {
  value <- vector(if (kind == "double") "numeric" else kind, n)
  at <- 0
  counts <- as.numeric(py_value(pieces$counts()))
  for (i in seq_along(counts)) {
    value[(at + 1):(at + counts[i])] <- read_raw(
      py_value(pieces$piece(i - 1L)), kind, counts[i])
    at <- at + counts[i]
    piece_done()
  }
  dim(value) <- shape
  value
}

# A piece's R copies freed at once (a minor collection, about a
# millisecond): R's collector would otherwise let garbage grow with the heap,
# half the array's size for one that fills a large heap.
piece_done <- function() {
  invisible(gc(verbose = FALSE, full = FALSE))
}

# (a method's result, converted or not as the object came to R)
py_value <- function(x) {
  if (inherits(x, "python.builtin.object")) reticulate::py_to_r(x) else x
}

read_raw <- function(bytes, kind, n) {
  switch(kind,
    double = readBin(bytes, "double", n, size = 8L, endian = "little"),
    integer = readBin(bytes, "integer", n, size = 4L, endian = "little"),
    logical = as.logical(readBin(bytes, "integer", n, size = 4L,
                                 endian = "little")),
    complex = readBin(bytes, "complex", n, size = 16L, endian = "little"),
    stop("pycg: unknown array kind `", kind, "`", call. = FALSE))
}

# 1-based R axes to 0-based Python axes; negative axes count from the end.
# `arg` names the argument in errors, which also name the R function called.
as_axis <- function(axis, arg = "axis") {
  if (is.null(axis) || inherits(axis, "python.builtin.object"))
    return(axis)
  whole <- is.numeric(axis) && length(axis) && !anyNA(axis) &&
    all(is.finite(axis)) && all(axis == trunc(axis))
  if (!whole)
    stop_arg(arg, "must be whole numbers (1-based axes) or NULL, not ",
             describe_value(axis))
  if (any(axis == 0))
    stop_arg(arg, "is 1-based in R (negative counts from the end); got 0")
  if (anyDuplicated(axis))
    stop_arg(arg, "names axis ", axis[anyDuplicated(axis)],
             " twice; each axis may appear once")
  axis <- as.integer(axis)
  axis <- ifelse(axis > 0L, axis - 1L, axis)
  if (length(axis) == 1L) axis else as.list(axis)
}

# A permutation of axes (transpose()): 1-based R axes to a list of Python
# ones, a list even for one axis.
as_axes <- function(axes, arg = "axes") {
  if (is.null(axes) || inherits(axes, "python.builtin.object"))
    return(axes)
  as.list(as_axis(axes, arg))
}

# An option that is TRUE or FALSE (NULL: Python's default). reticulate would
# pass NA as True, and 1 or "yes" on to Python, so they are errors here.
as_flag <- function(x, arg = as.character(substitute(x))) {
  if (is.null(x) || isTRUE(x) || isFALSE(x) ||
      inherits(x, "python.builtin.object"))
    return(x)
  stop_arg(arg, "must be TRUE or FALSE, not ", describe_value(x))
}

# A dtype: its name ("float32", "int32", ...), a Python dtype, or NULL.
as_dtype <- function(dtype, arg = "dtype") {
  if (is.null(dtype) || inherits(dtype, "python.builtin.object") ||
      (is.character(dtype) && length(dtype) == 1L && !is.na(dtype)))
    return(dtype)
  stop_arg(arg, "must be a dtype name such as \"float32\", or NULL; not ",
           describe_value(dtype))
}

# An error about argument `arg` of the R function the user called.
stop_arg <- function(arg, ...) {
  stop(calling_function(), ": `", arg, "` ", ..., call. = FALSE)
}

# A short R rendering of a bad argument: c(1.5, 2), "a", NA, TRUE.
describe_value <- function(x) {
  if (!is.atomic(x) || length(x) > 6L) return(describe_input(x))
  if (!length(x)) return(paste0("an empty ", class(x)[1L]))
  text <- paste(deparse(x), collapse = "")
  if (length(x) == 1L) text else sprintf("`%s`", text)
}

# A shape: R whole numbers to a list of Python ints (NA -> None).
as_shape <- function(shape, arg = "shape") {
  if (is.null(shape) || inherits(shape, "python.builtin.object"))
    return(shape)
  if (is.numeric(shape) && any(is.finite(shape) & shape != trunc(shape)))
    stop_arg(arg, "must be whole numbers, not ", describe_value(shape))
  lapply(shape, function(d) {
    if (inherits(d, "python.builtin.object")) d
    else if (is.na(d)) NULL
    else as.integer(d)
  })
}

# histogram()'s `range`: a pair of numbers, or NULL.
as_range <- function(range) {
  if (is.null(range) || inherits(range, "python.builtin.object"))
    return(range)
  as.list(as.numeric(range))
}

# Lengths per batch element (ctc): a 1-d int32 array even for one element.
as_lengths <- function(x) {
  if (is.null(x) || inherits(x, "python.builtin.object")) return(x)
  r_array(array(as.integer(x)))
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

# 1-based R positions (R numbers, arrays keeping their shape, or tensors)
# to 0-based Python ones. Positions are whole numbers from 1 to `extent`
# (when known); 0, negative, NA and fractional ones are errors naming `arg`:
# an op takes elements, it does not exclude them as `[` does.
as_index <- function(x, arg = "indices", extent = NULL) {
  if (is.null(x)) return(x)
  if (inherits(x, "python.builtin.object"))
    return(list(`__pycg_r_index__` = x, arg = arg))
  check_positions(x, arg, extent)
  shape <- dim(x)
  x <- as.integer(x) - 1L
  dim(x) <- shape
  if (length(x) == 1L && is.null(shape)) x else r_array(x)
}

# Positions and class labels are whole numbers: a Date, a factor or text
# would be read by as.integer() as something else, and NA has no place.
check_positions <- function(x, arg, extent) {
  if (!is.numeric(x) || is.object(x))
    stop_arg(arg, "must be whole numbers (1-based positions), not ",
             if (is.object(x)) describe_input(x) else describe_value(x))
  if (anyNA(x))
    stop_arg(arg, "is NA at position ", which(is.na(x))[1L], "; positions ",
             "and labels must be whole numbers")
  if (any(!is.finite(x)) || any(x != trunc(x)))
    stop_arg(arg, "must be whole numbers (1-based positions); got ",
             describe_value(x[is.na(x) | !is.finite(x) | x != trunc(x)][1L]))
  if (any(x < 1))
    stop_arg(arg, "holds ", min(x), ": positions are 1-based (1 is the ",
             "first); to leave elements out use x[-i]")
  if (!is.null(extent) && any(x > extent))
    stop_arg(arg, "holds ", max(x), ", past the last position (", extent, ")")
}

# The extent that 1-based positions along `axis` (R's, 1-based or negative;
# NULL: the flattened x) may reach, or NULL if unknown.
axis_extent <- function(x, axis) {
  if (!is.numeric(axis) && !is.null(axis)) return(NULL)
  if (is.null(axis)) return(length(x))
  d <- dim(x) %||% length(x)
  k <- if (axis[1L] < 0) length(d) + axis[1L] + 1L else axis[1L]
  if (length(axis) == 1L && k >= 1L && k <= length(d)) d[k]
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

# ---- Python -> R -------------------------------------------------------------

# The result of an interop call: tensors and other objects pass through,
# tuples and lists become R lists, Python numbers, strings and None become R
# values, a Failure becomes an R error, warnings R warnings (R/messages.R).
py_result <- function(res, caller = NULL) {
  if (inherits(res, "pycg.tensor.Tensor"))
    return(res)
  # (what most calls that are not ops return, without py_to_r()'s dispatch)
  if (inherits(res, "python.builtin.NoneType"))
    return(NULL)
  if (inherits(res, "pycg.r.interop.Warned"))
    res <- raise_warnings(res, caller)
  if (inherits(res, "pycg.tensor.Tensor"))
    return(res)
  if (inherits(res, "pycg.r.interop.Failure"))
    raise_failure(res, caller)
  if (inherits(res, "python.builtin.object"))
    utf8_names(py_to_r(res))
  else
    res
}

# reticulate 1.28 makes a dict's keys R names holding UTF-8 without saying
# so (marked as the session's encoding): declared here, so that in a
# C-locale session a name reads as the text Python sent.
utf8_names <- function(x) {
  if (!is.list(x)) return(x)
  if (!is.null(names(x))) names(x) <- `Encoding<-`(names(x), "UTF-8")
  lists <- vapply(x, is.list, NA)
  if (any(lists)) x[lists] <- lapply(x[lists], utf8_names)
  x
}

# A tensor as an R value: 0-d -> scalar, otherwise an array of its shape.
# Where the tensor carries R's NA mask (R/tensor-na.R), NA. `leaving`
# names the R function of a conversion whose R numbers may be computed
# with (as.vector(), as.double(), as.array(), ...): it stops, as PyTorch's
# .numpy() of a tensor that requires grad, where a recording tape
# differentiates through the tensor (floating, tracked: pycg.core.recorder
# carries_gradient). Text, printing, R integers and logicals (a
# derivative of 0: nothing is lost) convert without `leaving`.
tensor_to_r <- function(x, leaving = NULL) {
  parts <- py_call(interop()$to_r, x, !is.null(leaving), piece_limit)
  if (is.null(parts)) {
    at <- sys.parent()   # (the method converting)
    stop_leaving_tape(leaving, at)
  }
  value <- raw_to_array(parts[[1L]], parts[[2L]], parts[[3L]])
  na <- na_of(x)
  if (!is.null(na)) value[as.logical(tensor_to_r(na))] <- NA
  value
}

# Arguments that Python passed to an R function: tuples and lists become R
# lists, None NULL, numbers and strings R values; tensors stay tensors.
py_arg_to_r <- function(x) {
  if (inherits(x, "pycg.tensor.Tensor")) x else py_result(x)
}

# The error of a conversion that would take a tensor off the tape: `who`
# converts, in frame `at` (pycg's: a method, op_convert_to_numpy()). It
# names the call that converts (up from `at` through pycg's frames and
# base R's generic of that name, as.vector(data)) and the call of base R's
# or the user's code that made it (matrix(p, 2, 2)).
stop_leaving_tape <- function(who, at) {
  parents <- sys.parents()
  ours <- function(i) i > 0L &&
    identical(topenv(environment(sys.function(i))), asNamespace("pycg"))
  method <- as.name(paste0(who, ".pycg.tensor.Tensor"))
  generic <- function(i) i > 0L && identical(sys.call(i)[[1L]], as.name(who))
  while (ours(parents[at]) || generic(parents[at])) at <- parents[at]
  conversion <- sys.call(at)
  if (identical(conversion[[1L]], method)) conversion[[1L]] <- as.name(who)
  shown <- function(call) sprintf("`%s`", paste(deparse(call, nlines = 1L,
                                                        width.cutoff = 50L),
                                                collapse = ""))
  within <- if (parents[at] > 0L && is.name(sys.call(parents[at])[[1L]]))
    paste0(" in ", shown(sys.call(parents[at])))
  stop(shown(conversion), within, ": the tensor carries a gradient (a ",
       "recording tape differentiates through it), and its values as R ",
       "numbers would leave the tape, so the gradient would miss every term ",
       "computed from them. Stay on the tape with op_*() functions and the ",
       "base R functions pycg gives tensors (see ?tensor-base), or make the ",
       "constant explicit: as.array(op_stop_gradient(x))", call. = FALSE)
}
