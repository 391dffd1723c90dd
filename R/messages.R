# Python's failures and warnings in R's terms. Every Failure from
# pycg/r/interop.py becomes an R error in raise_failure(), and every message
# (warnings too) is translated once, by translate_message(): Python names to
# the R functions a user calls (python_names), 0-based numbers to 1-based.

# Fixed replacements, applied in order (longer names first).
python_names <- c(
  # pycg/compile/trace_values.py's advice after five float values
  "a Python float argument; a Python float is a constant of the trace" =
    "an R number argument; an R number is a constant of the trace",
  "(pycg.constant(value, dtype=...))" = "(op_convert_to_tensor(value))",
  "`with pycg.GradientTape() as tape:`" =
    "`with(gradient_tape() %as% tape, { ... })`",
  "pycg.GradientTape()" = "gradient_tape()",
  "pycg.GradientTape(persistent=True)" = "gradient_tape(persistent = TRUE)",
  "pycg.GradientTape" = "gradient_tape()",
  "GradientTape.gradient" = "tape$gradient",
  "GradientTape.jacobian" = "tape$jacobian",
  "GradientTape.watch" = "tape$watch",
  "GradientTape.explain" = "tape$explain",
  "GradientTape" = "gradient_tape()",
  "a pycg.Tensor or Variable" = "a tensor or pycg_variable()",
  "pycg.Tensor" = "tensor",
  "pycg.Variable.assign" = "v$assign",
  "pycg.Variable" = "pycg_variable()",
  "pycg.check_gradients" = "check_gradients",
  "pycg.config.set_floatx" = "config_set_floatx",
  "pycg.config.backend" = "config_backend()",
  "pycg.config.set_backend('jax')" = "config_set_backend(\"jax\")",
  "pycg.config.set_backend('torch')" = "config_set_backend(\"torch\")",
  "pycg.to_jax" = "pycg_to_jax",
  "pycg.to_torch" = "pycg_to_torch",
  "pycg.custom_gradient" = "op_custom_gradient",
  "pycg.function" = "pycg_function",
  "pycg.save_variables" = "pycg_save_variables",
  "pycg.load_variables" = "pycg_load_variables",
  "pycg.jacobian" = "tape$jacobian",
  "pycg.value_and_grad" = "pycg_value_and_grad",
  "pycg.grad" = "pycg_grad",
  "pycg.debug.check_numerics" = "check_numerics()",
  "pycg.ops." = "op_",
  "pycg.random.SeedGenerator" = "random_seed_generator()",
  "pycg.random." = "random_",
  "grad_fn" = "grad",
  "pycg.convert_to_tensor" = "op_convert_to_tensor",
  "got NoneType None" = "got NULL",
  "got NoneType" = "got NULL",
  "every sources" = "every source",
  "got str " = "got the string ",
  "(write 2.0, not 2)" = paste0(
    "(an R integer vector such as 1:3 is int32: use c(1, 2, 3) or ",
    "as.double())"))
# the jax backend's 64-bit error (pycg/backends/jax/core.py): its advice in
# R's syntax
python_names[[paste0(
  "call jax.config.update('jax_enable_x64', True) at start-up (or set ",
  "JAX_ENABLE_X64=1), or use a 32-bit dtype")]] <- paste0(
  "call reticulate::import(\"jax\")$config$update(\"jax_enable_x64\", ",
  "TRUE) at start-up (or Sys.setenv(JAX_ENABLE_X64 = \"1\") before Python ",
  "starts), or use a 32-bit dtype")

# 0-based numbers in messages, as patterns whose number R adds 1 to: axes
# (of ops only; negative ones count from the end and stay), argument
# positions and 0-based indices.
zero_based <- c("(?<=\\baxis )\\d+", "(?<=\\bargument )\\d+",
                "(?<=\\bargnums )\\d+", "(?<=\\bindex )\\d+(?= is out of)",
                "(?<=\\bfor input )\\d+(?= of the op)")

# `caller`: NULL, or list(name = the R function called, args = the names of
# the arguments of the user's function, for "argument 1 (`x`)").
translate_message <- function(message, caller = NULL) {
  from_op <- startsWith(message, "pycg.ops.")
  for (i in seq_along(python_names))
    message <- gsub(names(python_names)[i], python_names[[i]], message,
                    fixed = TRUE)
  if (!is.null(caller$name)) {
    message <- gsub("pycg_value_and_grad", caller$name, message, fixed = TRUE)
    if (!startsWith(message, caller$name))
      message <- paste0(caller$name, ": ", message)
  }
  message <- r_shapes(message)
  message <- r_strings(message)
  message <- gsub("\\bTrue\\b", "TRUE", message, perl = TRUE)
  message <- gsub("\\bFalse\\b", "FALSE", message, perl = TRUE)
  message <- gsub("\\bNone\\b", "NULL", message, perl = TRUE)
  for (pattern in zero_based[if (from_op) 1:5 else 2:5])
    message <- one_based(message, pattern, caller$args)
  # an element of a list argument, 'xs[0]' in Python, is xs[[1]] in R
  message <- one_based(message, "(?<=\\w\\[)\\d+(?=\\]')", NULL)
  message <- gsub("'([A-Za-z_.][\\w.]*)\\[(\\d+)\\]'", "`\\1[[\\2]]`", message,
                  perl = TRUE)
  message <- gsub("the op '(\\w+)'", "op_\\1()", message)
  message <- gsub("\\bops\\.(\\w+)", "op_\\1()", message, perl = TRUE)
  message <- sub(
    "^module 'pycg.ops' has no attribute '(\\w+)'$",
    paste0("op_\\1: the Python module pycg has no ops.\\1; update it ",
           "(install_pycg()) to the version of this R package"), message)
  message
}

# A message of pycg/_errors.py in R's terms, from its template and its
# typed facts (kind, value): an op is op_<name>, axes and positions are
# 1-based, a shape is c(2, 3), a Python type an R one, a value R code. A
# message that does not start with the function is prefixed with the R
# function called.
render_facts <- function(template, facts, caller = NULL) {
  head <- caller$name
  if (is.null(head) && !grepl("^\\{(op|api)\\}", template))
    head <- calling_function()
  for (word in names(r_literals))
    template <- gsub(word, r_literals[[word]], template, perl = TRUE)
  for (name in names(facts)) {
    text <- paste(r_fact(facts[[name]][[1L]], facts[[name]][[2L]]),
                  collapse = ", ")
    template <- gsub(paste0("{", name, "}"), text, template, fixed = TRUE)
  }
  if (!is.null(head) && !startsWith(template, head))
    template <- paste0(head, ": ", template)
  template
}

r_fact <- function(kind, value) {
  switch(kind,
    op = paste0("op_", value),
    api = optimizer_r_name(value) %||%
      translate_message(paste0("pycg.", value)),
    arg = sprintf("`%s`", value),
    axis = , position = one_based_code(unlist(value)),
    shape = if (length(value)) sprintf("c(%s)", paste(vapply(value,
      function(d) if (is.null(d)) "NA" else as.character(d), ""),
      collapse = ", ")) else "c() (a scalar)",
    type = r_type_names[[value]] %||% value,
    repr = if (is.null(value)) "NULL" else r_code(unlist(value)),
    array = paste0("    ", utils::capture.output(print(fact_array(value))),
                   collapse = "\n"),
    if (length(value) == 1L && !is.list(value)) as.character(value) else
      r_code(unlist(value)))   # several values: one text, as R code
}

# 0-based axes or positions, one or several, 1-based as R code (negative
# ones count from the end and stay): 3, or c(1, 2) for Python's [0, 1].
one_based_code <- function(value) {
  value <- as.numeric(value)
  r_code(ifelse(value >= 0, value + 1, value))
}

# A value as R code, whole numbers without R's L (c(3, 1), not c(3L, 1L)).
r_code <- function(value) {
  if (is.integer(value)) value <- as.numeric(value)
  paste(deparse(value), collapse = "")
}

# An Array fact, list(shape, values in row-major order), as an R array.
fact_array <- function(value) {
  shape <- as.integer(unlist(value[[1L]]))
  values <- as.numeric(unlist(value[[2L]]))
  if (length(shape) < 2L)
    return(if (length(shape)) array(values, shape) else values)
  aperm(array(values, rev(shape)))
}

r_literals <- list("\\bNone\\b" = "NULL", "\\bTrue\\b" = "TRUE",
                   "\\bFalse\\b" = "FALSE")

r_type_names <- list(str = "character string", float = "double",
                     int = "integer", bool = "logical", NoneType = "NULL",
                     list = "list", tuple = "list", dict = "named list",
                     `function` = "function",
                     pycg.tensor.Tensor = "tensor")

# Python's shapes after "shape"/"shapes" (and the "and" between two) as R
# writes them: (2, 3) -> c(2, 3), (3,) -> c(3), () -> c() (a scalar).
r_shapes <- function(message) {
  tuple <- "\\(((?:None|\\d+)(?:, (?:None|\\d+))*),?\\)|\\(\\)"
  at <- gregexpr(paste0("(?<=shape |shapes |\\) and )(", tuple, ")"), message,
                 perl = TRUE)
  regmatches(message, at) <- list(vapply(regmatches(message, at)[[1L]],
    function(t) {
      inner <- gsub("None", "NA", sub(",?\\)$", "", sub("^\\(", "", t)))
      if (nzchar(inner)) sprintf("c(%s)", inner) else "c() (a scalar)"
    }, ""))
  message
}

# A Python list of strings where numbers were expected is, from R, a
# character vector (as_py() sends one as a list of str): "got list ['a',
# 'b']" -> got a character vector c("a", "b"), and what to do.
r_strings <- function(message) {
  at <- regexpr("got list \\['[^]]*\\]?", message, perl = TRUE)
  if (at == -1L) return(message)
  inner <- sub("\\]$", "", sub("^got list \\[", "", regmatches(message, at)))
  regmatches(message, at) <- paste0(
    "got a character vector c(", gsub("'", "\"", inner, fixed = TRUE),
    if (endsWith(inner, "'")) ")" else "...)",
    "; use as.numeric() for numbers written as text")
  message
}

one_based <- function(message, pattern, args) {
  at <- gregexpr(pattern, message, perl = TRUE)
  if (at[[1L]][1L] == -1L) return(message)
  regmatches(message, at) <- list(vapply(
    regmatches(message, at)[[1L]], function(n) {
      n <- as.integer(n) + 1L
      named <- grepl("argument", pattern, fixed = TRUE) &&
        !grepl("argnums", pattern, fixed = TRUE) && n <= length(args) &&
        nzchar(args[n]) && args[n] != "..."
      if (named) sprintf("%d (`%s`)", n, args[n]) else as.character(n)
    }, ""))
  message
}

# Re-raise a Python exception caught in pycg/r/interop.py as an R error. If it
# came from an R function that Python called, the original R condition is
# signalled again (an interrupt as a `pycg_interrupt` condition), so the R
# caller sees the R message.
raise_failure <- function(failure, caller = NULL) {
  r_error <- .pycg$r_error
  .pycg$r_error <- NULL
  message <- py_to_r(py_get_attr(failure, "message"))
  if (!is.null(r_error) && grepl(conditionMessage(r_error), message,
                                 fixed = TRUE)) {
    calls <- r_error$pycg_calls
    r_error$pycg_calls <- NULL
    signal_in_user_code <- replay_calls(r_error, user_calls(calls))
    signal_in_user_code()
  }
  template <- py_to_r(py_get_attr(failure, "template", silent = TRUE))
  message <- if (is.null(template)) translate_message(message, caller) else
    render_facts(template, py_to_r(py_get_attr(failure, "facts")), caller)
  if (startsWith(message, "pycg (jax backend)"))
    message <- jax_backend_message(message)
  if (isTRUE(getOption("pycg.traceback")))
    message <- paste0(message, "\n\nPython traceback:\n",
                      py_to_r(py_get_attr(failure, "traceback")))
  cond <- structure(
    class = c("pycg_python_error", "error", "condition"),
    list(message = message, call = NULL,
         python_type = py_to_r(py_get_attr(failure, "type"))))
  stop(cond)
}

# The jax backend's own message (64-bit mode off) names the R function
# called and, for float64, says how R data gets a 32-bit dtype.
jax_backend_message <- function(message) {
  if (startsWith(message, "pycg (jax backend): float64 "))
    message <- sub("use a 32-bit dtype", paste0(
      "use a 32-bit dtype (R numbers are float64: ask for float32, e.g. ",
      "op_convert_to_tensor(x, dtype = \"float32\"))"), message, fixed = TRUE)
  who <- calling_function()
  if (who == "pycg") message else paste0(who, ": ", message)
}

# The calls of the user's R function when it failed: those below r_shim()'s
# do.call(), up to the error's handler (a last stop() is dropped).
user_calls <- function(calls) {
  heads <- vapply(calls, function(cl) paste(deparse(cl[[1L]]), collapse = ""),
                  "")
  start <- which(heads == "do.call" & vapply(calls, function(cl)
    identical(cl[2L][[1L]], quote(name)), NA))
  if (!length(start)) return(list())
  start <- max(start)
  after <- seq_along(calls) > start
  end <- which(after & heads %in% c(".handleSimpleError", "h"))
  end <- if (length(end)) min(end) - 1L else length(calls) - 1L
  user <- if (end > start) calls[(start + 1L):end] else list()
  n <- length(user)
  if (n && identical(user[[n]][[1L]], quote(stop))) user <- user[-n]
  user
}

# A function that signals `cond` from inside frames called like `calls`
# (each head bound to a function that makes the next call), so that
# traceback() ends in the user's function that failed, under pycg's own
# frames.
replay_calls <- function(cond, calls) {
  calls <- Filter(function(cl) is.symbol(cl[[1L]]), calls)
  env <- new.env(parent = baseenv())
  env$cond <- cond
  body <- quote(stop(cond))
  for (cl in rev(calls)) {
    fn <- eval(call("function", as.pairlist(alist(... = )), body))
    environment(fn) <- env
    env <- new.env(parent = baseenv())
    assign(as.character(cl[[1L]]), fn, envir = env)
    body <- cl
  }
  fn <- eval(call("function", NULL, body))
  environment(fn) <- env
  fn
}

# The warnings Python raised during a call, as R warnings; returns the
# call's result.
raise_warnings <- function(warned, caller = NULL) {
  for (w in py_to_r(py_get_attr(warned, "warnings")))
    warning(if (is.character(w)) translate_message(w, caller) else
              render_facts(w[[1L]], w[[2L]], caller), call. = FALSE)
  py_get_attr(warned, "value")
}

# A Python object restored by readRDS() or load() is an empty shell:
# reticulate then raises "object is from previous session". Its message,
# rewritten here at no cost to calls that succeed, says what to do instead.
#' @rawNamespace S3method(conditionMessage, "Rcpp::exception", rcpp_exception_message)
rcpp_exception_message <- function(c) {
  if (!grepl("from previous session", c$message, fixed = TRUE))
    return(c$message)
  paste0(
    "this pycg tensor, Variable or function was saved with saveRDS() or ",
    "save() and restored in another session; Python objects do not survive ",
    "that. Save as.array(x) instead and rebuild it with ",
    "op_convert_to_tensor() or pycg_variable(); recreate functions from ",
    "their R code")
}
