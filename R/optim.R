#' Minimise an R function with `optim()` or `nlminb()` and pycg gradients
#'
#' `pycg_optim_objective(f)` turns `f`, an R function of one 1-D tensor
#' returning a scalar tensor, into the `fn` and `gr` that [stats::optim()]
#' (and `objective` and `gradient` that [stats::nlminb()]) take: R vectors in,
#' R doubles out, computed in float64. The value and the gradient come from
#' one evaluation (one call into Python), and the last one is remembered, so
#' `fn(par)` followed by `gr(par)` at the same `par` evaluates `f` once.
#' `pycg_optim()` is `stats::optim()` with these. Missing observations
#' that `f` leaves out (`sum(ll, na.rm = TRUE)`, `ll[!is.na(y)]`) contribute
#' nothing to the gradient (see [pycg_grad()]). A finite value whose
#' gradient still holds `NaN` (R's `NA`) stops them with an error, where an
#' optimiser would stop at once and report convergence; `optim()` given
#' [pycg_grad()] as its `gr` gets a warning from it.
#'
#' @param f An R function of one tensor (the parameter vector) returning a
#'   scalar tensor, e.g. `function(w) op_sum((w - c(1, 2))^2)`.
#' @param dtype The dtype `f` gets its argument in (`"float64"`).
#' @return `pycg_optim_objective()`: `list(fn, gr, evaluations)`, `fn(par)`
#'   the value, `gr(par)` the gradient (a double vector of the length of
#'   `par`), `evaluations()` how many times `f` has been evaluated.
#' @examplesIf pycg_available()
#' obj <- pycg_optim_objective(function(w) op_sum((w - c(1, 2))^2))
#' fit <- optim(c(0, 0), obj$fn, obj$gr, method = "BFGS")
#' fit$par # c(1, 2)
#' nlminb(c(0, 0), obj$fn, obj$gr)$par
#'
#' pycg_optim(c(-1.2, 1), function(p) {
#'   (1 - p[1])^2 + 100 * (p[2] - p[1]^2)^2
#' })$par # Rosenbrock's minimum, c(1, 1)
#' @export
pycg_optim_objective <- function(f, dtype = "float64") {
  if (!is.function(f))
    stop("pycg_optim_objective: `f` must be an R function, not ",
         describe_r(f), call. = FALSE)
  label <- function_label(substitute(f), f)
  py_f <- r_callable(f, label, signature = py_signature(f),
                     post = differentiable_result("pycg_optim_objective",
                                                  label))
  fun <- core_call("optimize.scipy_objective", py_f, dtype = dtype)
  cache <- new.env(parent = emptyenv())
  cache$count <- 0L
  evaluate <- function(par) {
    if (!is.numeric(par))
      stop("pycg_optim_objective(", label, "): `par` must be a numeric ",
           "vector, not ", describe_input(par), call. = FALSE)
    par <- as.double(par)
    if (!identical(par, cache$par)) {
      res <- py_call(interop()$call_core, "r.grad.objective", fun,
                     r_array(par),
                     .caller = list(name = "pycg_optim_objective",
                                    args = names(formals(f))))
      cache$value <- as.double(res[[1L]])
      cache$grad <- as.vector(raw_to_array(res[[2L]][[1L]], res[[2L]][[2L]],
                                           res[[2L]][[3L]]))
      cache$par <- par
      cache$count <- cache$count + 1L
    }
    cache
  }
  list(fn = function(par) evaluate(par)$value,
       gr = function(par) evaluate(par)$grad,
       evaluations = function() cache$count)
}

#' @rdname pycg_optim_objective
#' @param par The starting values of the parameters.
#' @param method The [stats::optim()] method (`"BFGS"`; any method but
#'   `"Brent"` uses the gradient or ignores it).
#' @param ... Further arguments for [stats::optim()] (`lower`, `upper`,
#'   `control`, `hessian`).
#' @return `pycg_optim()`: what [stats::optim()] returns.
#' @export
pycg_optim <- function(par, f, method = "BFGS", ..., dtype = "float64") {
  # (f's expression, so that messages name f as the caller wrote it)
  obj <- eval(bquote(pycg_optim_objective(.(substitute(f)), dtype = .(dtype))),
              parent.frame())
  stats::optim(par, obj$fn, obj$gr, method = method, ...)
}

#' Save and load variables
#'
#' `pycg_save_variables()` writes the values of variables to a `.npz` file:
#' one array per variable, keyed by its name (the list's names, else the
#' variable's own name, else its position: `variable_0`, `variable_1`, ...),
#' no pickles. `pycg_load_variables()` assigns the saved values back to
#' variables of the same names, shapes and dtypes.
#'
#' A save writes a new file beside `path` and renames it into place once it
#' is complete and on disk, so an error, a full disk or an interrupt during
#' the save leaves the previous file at `path` as it was. Only regular files
#' are read or replaced: a directory, a FIFO, a device or a socket at `path`
#' is an error. Every dtype round-trips, `bfloat16` included (which NumPy's
#' `np.load()` reads as raw 2-byte values).
#'
#' @param path The file, conventionally ending in `.npz`.
#' @param vars The variables ([pycg_variable()]): a list, a named list (the
#'   names are used in the file) or one variable.
#' @return `pycg_save_variables()`: `path`, invisibly.
#'   `pycg_load_variables()`: `vars`, invisibly, now holding the saved values.
#' @examplesIf pycg_available()
#' w <- pycg_variable(c(1, 2), name = "w")
#' path <- tempfile(fileext = ".npz")
#' pycg_save_variables(path, list(w))
#' w$assign(op_zeros(2))
#' pycg_load_variables(path, list(w))
#' as.array(w) # c(1, 2)
#' @export
pycg_save_variables <- function(path, vars) {
  core_call("save_variables", as_file_name(path), as_variables(vars))
  invisible(path)
}

#' @rdname pycg_save_variables
#' @export
pycg_load_variables <- function(path, vars) {
  core_call("load_variables", as_file_name(path), as_variables(vars))
  invisible(vars)
}

# `path` as one file name, `~` expanded.
as_file_name <- function(path) {
  if (!is.character(path) || length(path) != 1L || is.na(path) ||
      !nzchar(path))
    stop_arg("path", "must be one file name (a character string), not ",
             describe_value(path))
  path.expand(path)
}

# A variable or an R list of them for Python: a list when unnamed, a dict
# when every element is named (as_py(), which sends the names whatever the
# session's encoding).
as_variables <- function(vars) {
  if (inherits(vars, "python.builtin.object")) return(list(vars))
  if (!is.list(vars))
    stop(calling_function(), ": `vars` must be a list of variables ",
         "(pycg_variable()), not ", describe_input(vars), call. = FALSE)
  nms <- names(vars)
  as_py(if (!is.null(nms) && all(nzchar(nms))) vars else unname(vars),
        .label = "`vars`")
}
