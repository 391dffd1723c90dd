# The tape border's conformance harness: every function of base and stats
# that gives numbers for a numeric vector or matrix, applied to a tensor
# that pycg_grad() differentiates, beside another term of that tensor:
#   f(p) = sum(g(p)) + sum(p^2).
# pycg's gradient of f must equal central differences of f computed in
# plain R on plain numbers (base R's own g), or pycg_grad() must stop with
# an error: never a different gradient (what a tensor silently turned into
# R numbers gives: the g term lost). Outcomes:
#   "equal"      the gradient is the finite differences';
#   "error"      pycg_grad() stopped (of which "refused": pycg's message for
#                a tensor that carries a gradient becoming R numbers);
#   "different"  any other gradient.
#
# The functions are read from the namespaces (ls(baseenv()),
# getNamespaceExports("stats")), less `tape_border_denied` (what acts on
# the session, files, connections, devices or the random number stream,
# or controls evaluation), and kept where base R's g gives finite numbers
# for the plain input within a time limit, the same twice.

# Functions never called: they end or change the session (q, options,
# gctorture, enableJIT, setTimeLimit, library, detach, ...), read input or
# wait (readline, scan, menu, browser), write or remove files (write,
# dump, save.image, sink, unlink, Rprof), open connections or sockets,
# draw (acf(), qqnorm() and the plot functions), draw random numbers
# (sample, jitter; stats' r* generators fall to the same-twice check), or
# control evaluation (return, repeat, Recall, on.exit, invokeRestart).
tape_border_denied <- c(
  "q", "quit", "readline", "readLines", "readRDS", "scan", "menu", "browser",
  "Recall", "return", "repeat", "while", "for", "if", "break", "next",
  "function", "on.exit", "standardGeneric", "UseMethod", "NextMethod",
  "invokeRestart", "invokeRestartInteractively", "gctorture", "gctorture2",
  "gc", "gcinfo", "mem.maxVSize", "mem.maxNSize", "enableJIT", "compilePKGS",
  "setTimeLimit", "setSessionTimeLimit", "set.seed", "RNGkind", "RNGversion",
  "sample", "sample.int", "jitter", "unlink", "setwd", "sink", "options",
  "trace", "untrace", "debug", "debugonce", "undebug", "detach", "attach",
  "library", "require", "requireNamespace", "loadNamespace",
  "unloadNamespace", "attachNamespace", "save", "save.image", "saveRDS",
  "load", "source", "sys.source", "dump", "write", "dget", "system",
  "system2", "shell", "Rprof", "Rprofmem", "reg.finalizer", "lockBinding",
  "unlockBinding", "lockEnvironment", "makeActiveBinding", "rm", "remove",
  "assign", "delayedAssign", "closeAllConnections", "suspendInterrupts",
  "allowInterrupts", "registerS3method", "registerS3methods",
  "addTaskCallback", "removeTaskCallback", "taskCallbackManager",
  "tracemem", "retracemem", "untracemem")
tape_border_denied_pattern <- paste0(
  "^\\.|<-$|^Sys\\.|^sys\\.|^file|^dir\\.|^dyn\\.|^library\\.|^socket|",
  "^server|[cC]onnection|^open|^close|^seek|^truncate|^flush|^pipe|^fifo|",
  "^url$|^[gbx]zfile|^zstdfile|^unz$|^gzcon|^write|plot|^qq|heatmap|",
  "^biplot|^cpgram|^acf$|^pacf$|^ccf$|^spectrum|^spec\\.|^tsdiag|",
  "^identify|^lines|^points|^text$|^print\\.")

# The plain inputs, away from kinks, ties and integers: a vector and a
# square matrix (positive definite, for solve(), chol(), det()) of odd
# lengths (the two middle values of an even number tie in mad()), and a
# vector of 4 for the templates (matrix(p, 2) and friends).
tape_border_inputs <- list(
  vec5 = c(0.31, 0.73, 0.47, 0.29, 0.61),
  mat3 = matrix(c(0.9, 0.2, 0.1, 0.3, 0.8, 0.25, 0.05, 0.15, 0.7), 3L),
  vec4 = c(0.31, 0.73, 0.47, 0.22))

# Calls with more than the tensor, of the functions a statistician's code
# uses with a second argument; `p` is the vec4 input, Y and S R data.
tape_border_templates <- alist(
  matrix(p, 2), matrix(p, 2, byrow = TRUE), matrix(p, ncol = 4),
  array(p, c(2, 2)), array(p, c(2, 2, 2)), sweep(Y, 2, p),
  sweep(Y, 2, p, "*"), sweep(Y, 2, p, "/"), sweep(S, 1, p, "+"),
  mahalanobis(Y, p, S), mahalanobis(p, c(0.1, 0.2, 0.3, 0.4), S),
  outer(p, p), p %o% Y[1, ], rep(p, 2), rep(p, each = 2), rep_len(p, 6),
  aperm(array(p, c(2, 2))), drop(array(p, c(1, 4))), apply(S * p, 1, sum),
  apply(array(p, c(2, 2)), 2, prod), sapply(p, exp), vapply(p, exp, 1),
  lapply(p, sqrt), Reduce(`+`, p), do.call(sum, list(p)), Y %*% p,
  crossprod(p, S), solve(S, p), backsolve(chol(S), p), ifelse(p > 0.4, p, 0),
  pmax(p, 0.4), weighted.mean(p, 1:4), quantile(p, 0.3), cor(p, 1:4),
  cov(p, c(1, 3, 2, 4)), scale(p), cbind(p, p), rbind(p, 1), diag(p),
  `dim<-`(p, c(2, 2)), `mode<-`(p, "double"), `storage.mode<-`(p, "double"),
  unclass(p), as.vector(p), as.numeric(p), as.double(p), as.array(p),
  as.matrix(p), unlist(as.list(p)), p[order(p)], p[rank(p)], sort(p),
  rev(p), Map(`*`, p, 2)[[1]], mapply(function(a, b) a * b, p, 1:4),
  vapply(seq_along(p), function(i) p[[i]]^2, 1), tcrossprod(p),
  colSums(S * p), prop.table(p), cumsum(p) / sum(p), max(p) - min(p),
  diff(range(p)), kronecker(S, p), det(S * p), norm(S * p, "F"))

tape_border_data <- list(
  Y = matrix(c(1, 2, 3, 0.5, -1, 2, 0.25, 4, -2, 1.5, 0.75, -0.5), 3L),
  S = matrix(c(2, 0.3, 0.1, 0, 0.3, 1.5, 0.2, 0.1, 0.1, 0.2, 1, 0.3, 0, 0.1,
               0.3, 1.2), 4L))

# The candidate functions, by name, from the namespaces.
tape_border_functions <- function() {
  names <- unique(c(ls(baseenv()), getNamespaceExports("stats")))
  names <- setdiff(names, tape_border_denied)
  names <- names[!grepl(tape_border_denied_pattern, names)]
  env <- base_env()
  names[vapply(names, function(n) is.function(get0(n, envir = env)), NA)]
}

# expr evaluated with `p` bound: base R's own functions (`base`), or as a
# user writes it, library(pycg) attached (pycg's matrix(), sweep(), ...).
tape_border_eval <- function(expr, p, base) {
  env <- list2env(c(list(p = p), tape_border_data),
                  parent = if (base) base_env() else globalenv())
  eval(expr, env)
}

# sum(expr) + sum(p^2) on plain R numbers, in base R: NULL where it is not
# finite numbers, takes over `limit` seconds, or differs between two runs.
tape_border_objective <- function(expr, x, limit = 0.5) {
  once <- function(p) {
    setTimeLimit(elapsed = limit, transient = TRUE)
    on.exit(setTimeLimit(elapsed = Inf))
    out <- tape_border_eval(expr, p, base = TRUE)
    if (!is.numeric(out) || !length(out) || !all(is.finite(out)))
      return(NULL)
    sum(out) + sum(p^2)
  }
  quietly <- function(p) tryCatch(suppressMessages(suppressWarnings({
    utils::capture.output(value <- once(p))
    value
  })), error = function(e) NULL)
  first <- quietly(x)
  if (is.null(first) || !identical(first, quietly(x))) return(NULL)
  function(p) quietly(p) %||% NA_real_
}

# Whether f_r is smooth at x: one-sided differences agree with the
# central ones `want` (not at a kink: median(), abs()) and so do central
# differences with a step of 1e-8 (not a staircase: signif(p) keeps 6
# digits, steps of 1e-6).
smooth_at <- function(f_r, x, want, h = 1e-6) {
  close <- function(a) all(is.finite(a)) &&
    all(abs(a - want) <= 1e-3 * pmax(1, abs(want)))
  f0 <- f_r(x)
  one_sided <- function(sign) vapply(seq_along(x), function(i) {
    step <- x
    step[i] <- step[i] + sign * h
    sign * (f_r(step) - f0) / h
  }, 1)
  close(one_sided(1)) && close(one_sided(-1)) && close(fd_grad(f_r, x, 1e-8))
}

# One case: pycg_grad() of sum(expr) + sum(p^2) against central differences
# of base R's; NULL where base R gives no smooth numbers there.
tape_border_case <- function(expr, x) {
  f_r <- tape_border_objective(expr, x)
  if (is.null(f_r)) return(NULL)
  want <- fd_grad(f_r, x)
  if (!all(is.finite(want)) || !smooth_at(f_r, x, want)) return(NULL)
  f <- function(p) sum(tape_border_eval(expr, p, base = FALSE)) + sum(p^2)
  got <- tryCatch(suppressMessages(suppressWarnings({
    utils::capture.output(g <- pycg_grad(f)(x))
    g
  })), error = function(e) e)
  if (inherits(got, "error")) {
    refused <- grepl("the tensor carries a gradient", conditionMessage(got))
    return(c(if (refused) "refused" else "error", conditionMessage(got)))
  }
  g <- tryCatch(as.vector(as.array(got)), error = function(e) NULL)
  if (length(g) != length(want) || anyNA(g) ||
      any(abs(g - want) > 1e-5 * pmax(1, abs(want))))
    return(c("different", sprintf("got %s, finite differences %s",
                                  paste(format(g, digits = 4), collapse = " "),
                                  paste(format(want, digits = 4), collapse = " "))))
  c("equal", "")
}

# The cases: each function called as g(p) on each input, and the
# templates on the vector; `every` > 1 keeps one case in `every`.
tape_border_cases <- function(every = 1L, offset = 0L) {
  calls <- lapply(tape_border_functions(), function(n) call(n, quote(p)))
  cases <- c(
    unlist(lapply(calls, function(expr) lapply(c("vec5", "mat3"),
      function(input) list(expr = expr, input = input)))
      , recursive = FALSE),
    lapply(tape_border_templates, function(expr)
      list(expr = expr, input = "vec4")))
  cases[seq_along(cases) %% every == offset %% every]
}

# Run the cases: a data frame (call, input, outcome, detail).
run_tape_border <- function(cases) {
  grDevices::pdf(NULL)   # (a function that draws draws nowhere)
  on.exit(grDevices::dev.off())
  rows <- lapply(cases, function(case) {
    result <- tape_border_case(case$expr, tape_border_inputs[[case$input]])
    if (!is.null(result))
      c(paste(deparse(case$expr, width.cutoff = 500L), collapse = " "),
        case$input, result)
  })
  rows <- do.call(rbind, rows)
  data.frame(call = rows[, 1L], input = rows[, 2L], outcome = rows[, 3L],
             detail = rows[, 4L])
}

report_tape_border <- function(results, backend, started) {
  n <- function(what) sum(results$outcome %in% what)
  cat(sprintf(paste0("\ntape border [%s]: %d cases: %d equal, %d error (%d ",
                     "refused conversions), %d different (%.0f s)\n"),
              backend, nrow(results), n("equal"), n(c("error", "refused")),
              n("refused"), n("different"),
              proc.time()[["elapsed"]] - started))
  diff <- results[results$outcome == "different", ]
  for (k in seq_len(nrow(diff)))
    cat(sprintf("  different: %s on %s: %s\n", diff$call[k], diff$input[k],
                diff$detail[k]))
}
