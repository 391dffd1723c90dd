# What pycg_grad() & co. replay without R (pycg/r/replay.py; the design in
# docs/r-replay.md): a record of f is a record of its calls into pycg, so
# it holds only while the R values f reads stay the ones it read. Those are
# the variables f's body names that live in its environments (not base R's
# or a package's), and those of the R functions among them, found when the
# gradient is made and compared with identical() at each call (the same
# object: one pointer compared); a change makes a new record.

# list(list(name, env, value), ...) for f, with attribute "why_not" where
# no record of f can be trusted (f reads an R environment, whose contents
# change without a new value).
function_reads <- function(f) {
  reads <- list()
  todo <- list(f)
  done <- list()
  while (length(todo)) {
    g <- todo[[1L]]
    todo <- todo[-1L]
    if (!is.function(g) || is.primitive(g) ||
        any(vapply(done, identical, NA, g))) next
    done[[length(done) + 1L]] <- g
    env <- environment(g)
    for (name in setdiff(unique(all.names(body(g))), names(formals(g)))) {
      where <- user_environment(name, env)
      if (is.null(where) || any(vapply(reads, function(r)
        identical(r$name, name) && identical(r$env, where), NA))) next
      value <- get(name, envir = where, inherits = FALSE)
      if (is.environment(value) && !inherits(value, "python.builtin.object"))
        return(structure(list(), why_not = sprintf(paste0(
          "it reads the R environment `%s`, whose contents can change ",
          "between calls without R making a new value"), name)))
      reads[[length(reads) + 1L]] <- list(name = name, env = where,
                                          value = value)
      if (is.function(value)) todo[[length(todo) + 1L]] <- value
    }
  }
  reads
}

# The environment along env's parents, before base R's and the packages',
# that holds `name`; NULL if none does.
user_environment <- function(name, env) {
  while (!is.null(env) && !identical(env, emptyenv()) &&
         !identical(env, baseenv()) && !isNamespace(env) &&
         !startsWith(environmentName(env), "package:")) {
    if (exists(name, envir = env, inherits = FALSE)) return(env)
    env <- parent.env(env)
  }
  NULL
}

reads_unchanged <- function(reads) {
  for (r in reads) {
    now <- get0(r$name, envir = r$env, inherits = FALSE, ifnotfound = reads)
    if (!identical(now, r$value)) return(FALSE)
  }
  TRUE
}

#' How a gradient function runs
#'
#' A function made by [pycg_grad()], [pycg_value_and_grad()] or
#' [check_gradients()] runs the R function once for each signature of its
#' arguments (their shapes and types) while recording its calls into pycg,
#' and later calls replay the record in Python, compiled where the backend
#' compiles: no R code runs then, as `jax.jit` replays a trace. Where a
#' record cannot be trusted the R function runs at every call, as without
#' replay; `pycg_explain()` says which, and why: the function converts a
#' tensor computed from its arguments to R values (to branch on it with
#' `if`), draws R's random numbers, reads an R environment, warns, or calls
#' something pycg cannot record. The R variables the function reads are
#' compared at each call: a change makes a new record.
#'
#' What a replay does not do: run the R function's side effects again
#' (`cat()`, `print()`, assignments with `<<-` happen when a record is
#' made). The design: `docs/r-replay.md`.
#'
#' @param g A function made by [pycg_grad()] or [pycg_value_and_grad()].
#' @return A character vector of class `pycg_explanation`, one line per
#'   signature seen (printed one per line).
#' @examplesIf pycg_available()
#' f <- function(p) sum(exp(p) - p)
#' g <- pycg_grad(f)
#' g(c(0.5, 1))
#' g(c(1, 2))          # replayed: f does not run
#' pycg_explain(g)
#' @export
pycg_explain <- function(g) {
  replayed <- if (is.function(g) && !is.null(environment(g)))
    get0("replayed", envir = environment(g), inherits = FALSE)
  if (is.null(replayed))
    stop("pycg_explain(): `g` must be a function made by pycg_grad() or ",
         "pycg_value_and_grad(), not ", describe_r(g), call. = FALSE)
  structure(unlist(method_call(replayed, "explain")),
            class = "pycg_explanation")
}

#' @export
print.pycg_explanation <- function(x, ...) {
  cat(paste0(unclass(x), "\n"), sep = "")
  invisible(x)
}
