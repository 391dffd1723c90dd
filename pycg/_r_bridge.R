# The R half of pycg.r (pycg/_r_convert.py is the Python half). Sourced once
# into an environment of its own in the R that rpy2 embeds, before Python is
# attached (see pycg/_r_session.py).
#
# Every R function that Python can call is a "bridged" closure handed to
# Python by reticulate::r_to_py(convert = FALSE): Python calls it holding the
# GIL, which is what keeps R's garbage collector safe on reticulate 1.25-1.30
# (its finalizers of Python objects run without taking the GIL).
#
# Python calls a bridged closure as f(spec, leaf1, leaf2, ...). The leaves are
# the Python objects of the call (tensors, callables, others), which arrive
# untouched; `spec` is None when the call is exactly f(leaf1, leaf2, ...),
# otherwise list(args, kwargs) in the tagged form below, converted by
# reticulate in one step. No NumPy array goes through reticulate's own
# conversion (1.28 refuses NumPy 2): arrays travel as raw bytes.
#
#   Python -> R (decode)                 R -> Python (encode)
#   list("l", items)  list, tuple        list("l", items, names)  list
#   list("d", keys, values)  dict        list("a", raw, dim, kind)  vector,
#   list("a", raw, shape, kind)  array     array
#   list("o", i)  leaf i                 list("c", strings)  character
#   list("p", i)  leaf i, a callable     list("f", bridged, name, formals)
#   numbers, strings, None  as is        list("o", object)  Python object
#                                        strings, NULL  as is
#
# A call replies list("v", value, warnings); an R error list("e", message,
# classes); a Python exception that crossed R unhandled list("pe", key).

# Python -> R ---------------------------------------------------------------

decode <- function(node, leaves) {
  if (!is.list(node)) return(node)
  switch(node[[1L]],
    l = lapply(node[[2L]], decode, leaves),
    d = stats::setNames(lapply(node[[3L]], decode, leaves),
                        unlist(node[[2L]])),
    o = leaves[[node[[2L]]]],
    a = decode_array(node[[2L]], unlist(node[[3L]]), node[[4L]]),
    p = python_function(leaves[[node[[2L]]]]),
    stop("pycg.r: unknown value tag `", node[[1L]], "`", call. = FALSE))
}

decode_array <- function(bytes, shape, kind) {
  n <- prod(shape)
  value <- switch(kind,
    double = readBin(bytes, "double", n, size = 8L, endian = "little"),
    integer = readBin(bytes, "integer", n, size = 4L, endian = "little"),
    logical = as.logical(readBin(bytes, "integer", n, size = 4L,
                                 endian = "little")),
    complex = readBin(bytes, "complex", n, size = 16L, endian = "little"))
  if (length(shape) > 1L) dim(value) <- shape
  value
}

# A Python callable (wrapped by pycg.r in an adapter) as an R function. The
# adapter answers a tensor or other object as itself, any other value as
# list("r", tagged value, leaves...), and an exception as list("x", message,
# key), which becomes an R error of class pycg_bridge_python_error; pycg.r
# raises the original exception again if it reaches Python.
python_function <- function(adapter) {
  force(adapter)
  function(...) {
    res <- reticulate::py_call(adapter, encode(list(...)))
    if (!inherits(res, "python.builtin.list"))
      return(res)
    res <- reticulate::py_to_r(res)
    if (identical(res[[1L]], "x"))
      stop(structure(class = c("pycg_bridge_python_error", "error",
                               "condition"),
                     list(message = res[[2L]], call = NULL, key = res[[3L]])))
    decode(res[[2L]], res[-(1:2)])
  }
}

# R -> Python ---------------------------------------------------------------

encode <- function(x) {
  if (is.null(x)) return(x)
  if (inherits(x, "python.builtin.object")) return(list("o", x))
  if (is.function(x))
    return(list("f", bridged(x), NULL, formals_of(x)))
  if (is.list(x) && !is.object(x) ||
      inherits(x, c("pycg_tuple", "data.frame")))
    return(list("l", lapply(unname(unclass(x)), encode), as.list(names(x))))
  if (is.character(x) && !is.object(x)) {
    if (length(x) == 1L && is.null(dim(x)) && !is.na(x)) return(x)
    return(list("c", as.list(x)))
  }
  if ((is.numeric(x) || is.logical(x) || is.complex(x)) && !is.factor(x))
    return(encode_array(x))
  stop("pycg.r cannot hand an R ", class(x)[1L], " to Python; convert it ",
       "in R to numbers, strings, a list or a function first", call. = FALSE)
}

encode_array <- function(x) {
  shape <- as.list(dim(x) %||% (if (length(x) == 1L) integer() else length(x)))
  if (is.double(x))
    return(list("a", writeBin(as.vector(x), raw(), endian = "little"), shape,
                "double"))
  if (is.complex(x))
    return(list("a", writeBin(as.vector(x), raw(), endian = "little"), shape,
                "complex"))
  if (anyNA(x))
    stop("pycg.r: an R integer or logical `NA` has no tensor value; use a ",
         "double vector (NA becomes NaN) or remove the NAs", call. = FALSE)
  list("a", writeBin(as.integer(x), raw(), size = 4L, endian = "little"),
       shape, if (is.logical(x)) "logical" else "integer")
}

# R formals as list(name, kind, has_default) for an inspect.Signature, or
# NULL when Python cannot name them all.
formals_of <- function(fn) {
  f <- formals(if (is.primitive(fn)) args(fn) else fn)
  names <- names(f)
  if (!all(grepl("^[A-Za-z_][A-Za-z0-9_]*$", names[names != "..."])))
    return(NULL)
  after_dots <- FALSE
  seen_default <- FALSE
  out <- vector("list", length(names))
  for (i in seq_along(names)) {
    if (names[i] == "...") {
      after_dots <- TRUE
      out[[i]] <- list("args", "var", FALSE)
      next
    }
    seen_default <- seen_default || !identical(f[[i]], quote(expr = ))
    out[[i]] <- list(names[i], if (after_dots) "keyword" else "positional",
                     seen_default)
  }
  out
}

`%||%` <- function(x, y) if (is.null(x)) y else x

# Calls ----------------------------------------------------------------------

# `fn` as a Python callable, called as described at the top of this file.
bridged <- function(fn) {
  force(fn)
  reticulate::r_to_py(function(spec, ...) {
    warned <- list()
    tryCatch(withCallingHandlers({
      value <- if (inherits(spec, "python.builtin.NoneType")) fn(...) else {
        spec <- reticulate::py_to_r(spec)
        leaves <- list(...)
        do.call(fn, c(decode(spec[[1L]], leaves), decode(spec[[2L]], leaves)))
      }
      list("v", encode(value), warned)
    }, warning = function(w) {
      warned[[length(warned) + 1L]] <<- conditionMessage(w)
      invokeRestart("muffleWarning")
    }),
    pycg_bridge_python_error = function(e) list("pe", e$key),
    error = function(e) list("e", conditionMessage(e), class(e)))
  }, convert = FALSE)
}

# The one entry point Python receives at start-up: op(...) for the few
# operations that are not calls of a bridged function.
dispatch <- function(op, ...) {
  switch(op,
    eval = eval_code(...),
    lookup = lookup(...),
    source = source_file(...),
    exit = at_exit(),
    stop("pycg.r: unknown operation `", op, "`", call. = FALSE))
}

eval_code <- function(code) {
  value <- NULL
  for (expr in parse(text = code, keep.source = FALSE))
    value <- eval(expr, globalenv())
  value
}

lookup <- function(name) {
  parts <- strsplit(name, ":::?")[[1L]]
  if (length(parts) == 2L) {
    if (grepl(":::", name, fixed = TRUE))
      return(utils::getFromNamespace(parts[2L], parts[1L]))
    return(getExportedValue(parts[1L], parts[2L]))
  }
  get(name, envir = globalenv(), mode = "function")
}

# Runs `path` in a fresh environment (its parent the global one) and returns
# the functions it defined, by name.
source_file <- function(path) {
  env <- new.env(parent = globalenv())
  sys.source(path, envir = env, keep.source = FALSE, toplevel.env = env)
  funs <- Filter(function(n) is.function(get(n, envir = env)),
                 ls(env, sorted = TRUE))
  mget(funs, envir = env)
}

# What R does at the end of a session that matters outside the process
# (.Last, graphics devices flushed to their files, the session's temporary
# directory removed), without R's exit finalizers: see pycg/_r_session.py.
at_exit <- function() {
  last <- get0(".Last", envir = globalenv(), mode = "function",
               inherits = FALSE)
  if (!is.null(last)) try(last(), silent = TRUE)
  try(grDevices::graphics.off(), silent = TRUE)
  unlink(tempdir(), recursive = TRUE, force = TRUE)
  NULL
}

# Start-up, the only code run through plain rpy2 calls after Python is
# attached: hands the bridged dispatcher to Python (pycg/_r_session.py).
start <- function() {
  session <- reticulate::import("pycg._r_session", convert = FALSE)
  reticulate::py_call(reticulate::py_get_attr(session, "receive"),
                      bridged(dispatch))
  invisible(NULL)
}
