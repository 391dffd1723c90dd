# R inside Python: the R half of pycg.r (pycg/r/_bridge.py is the Python
# half). Used only in an R that rpy2 embeds in a Python process: pycg.r
# attaches this package there and calls bridge_start() (pycg/r/_session.py).
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
# conversion (1.28 refuses NumPy 2): arrays travel as raw bytes, written and
# read by the package's codec (array_to_raw() and raw_to_array() in
# R/convert.R, pycg/r/codec.py in Python).
#
# Python -> R (decode), tagged by pycg/r/_bridge.py:
#   list("l", items)  list, tuple      list("d", keys, values)  dict
#   list("a", raw, shape, kind)  array  list("o", i)  leaf i
#   list("p", i)  leaf i, a callable   numbers, strings, None  as is
# R -> Python: the package's one envelope, as_py() (R/convert.R, whose
# header holds the rules; pycg/r/envelope.py decodes it), with R functions
# as list(`__pycg_r_function__` = bridged closure, signature = its formals
# as python_signature() (R/calls.R) describes them).
#
# A call replies list("v", value, warnings); an R error list("e", message,
# classes); an interrupt list("i") (a KeyboardInterrupt in Python); a Python
# exception that crossed R unhandled list("pe", key).

# Python -> R ---------------------------------------------------------------

bridge_decode <- function(node, leaves) {
  if (!is.list(node)) return(node)
  switch(node[[1L]],
    l = lapply(node[[2L]], bridge_decode, leaves),
    d = stats::setNames(lapply(node[[3L]], bridge_decode, leaves),
                        unlist(node[[2L]])),
    o = leaves[[node[[2L]]]],
    a = bridge_decode_array(node[[2L]], node[[3L]], node[[4L]]),
    p = bridge_python_function(leaves[[node[[2L]]]]),
    stop("pycg.r: unknown value tag `", node[[1L]], "`", call. = FALSE))
}

# A 1-d NumPy array is an R vector (no dim), others arrays or scalars.
bridge_decode_array <- function(bytes, shape, kind) {
  value <- raw_to_array(bytes, shape, kind)
  if (length(shape) == 1L) as.vector(value) else value
}

# A Python callable (wrapped by pycg.r in an adapter) as an R function. The
# adapter answers a tensor or other object as itself, any other value as
# list("r", tagged value, leaves...), and an exception as list("x", message,
# key), which becomes an R error of class pycg_bridge_python_error; pycg.r
# raises the original exception again if it reaches Python.
bridge_python_function <- function(adapter) {
  force(adapter)
  function(...) {
    args <- list(...)
    res <- reticulate::py_call(adapter, bridge_encode(unname(args)),
                               as.list(names(args)))
    if (!inherits(res, "python.builtin.list"))
      return(res)
    res <- reticulate::py_to_r(res)
    if (identical(res[[1L]], "x"))
      stop(structure(class = c("pycg_bridge_python_error", "error",
                               "condition"),
                     list(message = res[[2L]], call = NULL, key = res[[3L]])))
    bridge_decode(res[[2L]], res[-(1:2)])
  }
}

# R -> Python ---------------------------------------------------------------

bridge_encode <- function(x) {
  as_py(x, .label = "the R value bound for Python", .fn = bridge_function,
        .staged = FALSE)
}

bridge_function <- function(fn) {
  list(`__pycg_r_function__` = bridge_closure(fn),
       signature = bridge_signature(fn))
}

# python_signature(fn), or NULL (Python then shows (*args, **kwargs)) when
# an argument has no Python name, as `na.rm` in sd().
bridge_signature <- function(fn) {
  tryCatch(python_signature(fn), error = function(e) NULL)
}

# Calls ----------------------------------------------------------------------

# `fn` as a Python callable, called as described at the top of this file.
bridge_closure <- function(fn) {
  force(fn)
  reticulate::r_to_py(function(spec, ...) {
    warned <- list()
    tryCatch(withCallingHandlers({
      # Python calls with R's interrupts held back: an interrupt outside
      # this tryCatch would unwind through reticulate's C++ frames
      value <- allowInterrupts(if (inherits(spec, "python.builtin.NoneType"))
        fn(...) else {
          spec <- reticulate::py_to_r(spec)
          leaves <- list(...)
          do.call(fn, c(bridge_decode(spec[[1L]], leaves),
                        bridge_decode(spec[[2L]], leaves)))
        })
      list("v", bridge_encode(value), warned)
    }, warning = function(w) {
      warned[[length(warned) + 1L]] <<- conditionMessage(w)
      invokeRestart("muffleWarning")
    }),
    pycg_bridge_python_error = function(e) list("pe", e$key),
    interrupt = function(e) list("i"),
    error = function(e) list("e", conditionMessage(e), class(e)))
  }, convert = FALSE)
}

# The entry point Python receives at start-up: op(...) for the few
# operations that are not calls of a bridged function.
bridge_dispatch <- function(op, ...) {
  switch(op,
    eval = bridge_eval(...),
    lookup = bridge_lookup(...),
    source = bridge_source(...),
    stop("pycg.r: unknown operation `", op, "`", call. = FALSE))
}

bridge_eval <- function(code) {
  value <- NULL
  for (expr in parse(text = code, keep.source = FALSE))
    value <- eval(expr, globalenv())
  value
}

bridge_lookup <- function(name) {
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
bridge_source <- function(path) {
  env <- new.env(parent = globalenv())
  sys.source(path, envir = env, keep.source = FALSE, toplevel.env = env)
  funs <- Filter(function(n) is.function(get(n, envir = env)),
                 ls(env, sorted = TRUE))
  mget(funs, envir = env)
}

# What R does at the end of a session that matters outside the process
# (.Last, graphics devices flushed to their files, the session's temporary
# directory removed), without R's exit finalizers: see pycg/r/_session.py.
bridge_at_exit <- function() {
  last <- get0(".Last", envir = globalenv(), mode = "function",
               inherits = FALSE)
  if (!is.null(last)) try(last(), silent = TRUE)
  try(grDevices::graphics.off(), silent = TRUE)
  unlink(tempdir(), recursive = TRUE, force = TRUE)
  NULL
}

# q() and quit() in the R that pycg.r embeds would end the Python process
# at once (no atexit handlers, unflushed files lost): there they signal an
# error instead, of class pycg_r_quit, which pycg.r raises naming the R
# function. trace() puts the check into base's own q and quit, so that every
# caller meets it (base::q(), a package's code), not only code that finds
# them along the search path.
bridge_refuse_quit <- function() {
  for (what in c("q", "quit"))
    suppressMessages(trace(what, tracer = bquote(.(stop_quit)(.(what))),
                           where = baseenv(), print = FALSE))
}

stop_quit <- function(what) {
  stop(structure(class = c("pycg_r_quit", "error", "condition"), list(
    message = paste0(
      what, "() was called inside an R function run by pycg.r, where it ",
      "would end the Python process at once (no atexit handlers, unflushed ",
      "files lost); return a value, or stop() with a message, instead"),
    call = NULL)))
}

# Start-up, the only code run through plain rpy2 calls after Python is
# attached: hands Python the bridged dispatcher and exit function
# (pycg/r/_session.py).
bridge_start <- function() {
  bridge_refuse_quit()
  session <- reticulate::import("pycg.r._session", convert = FALSE)
  reticulate::py_call(reticulate::py_get_attr(session, "receive"),
                      bridge_closure(bridge_dispatch),
                      bridge_closure(bridge_at_exit))
  invisible(NULL)
}
