#' Optimizers
#'
#' Keras 3's optimizers on pycg variables, with keras3's names, arguments
#' and defaults: `optimizer_sgd()`, `optimizer_adam()`, `optimizer_adamw()`,
#' `optimizer_rmsprop()` and `optimizer_adagrad()` create a Python
#' `pycg.optimizers` object. Update variables with
#' `optimizer_apply(opt, grads, vars)`, or as in keras3 with
#' `opt$apply_gradients(list(list(grad, var), ...))` or
#' `opt$apply(grads, vars)` (the gradients must then be tensors).
#'
#' Every hyper-parameter is checked when the optimizer is made, by name:
#' a finite number in its range (`learning_rate`, `epsilon`, `weight_decay`,
#' the clipping norms and `initial_accumulator_value` >= 0; `momentum` and
#' `rho` in \[0, 1\]; `beta_1` and `beta_2` in \[0, 1)), `TRUE` or `FALSE`
#' for the flags. `NA`, `NaN` and `Inf` are errors: they would turn every
#' weight into `NaN` at the first step.
#'
#' @param learning_rate The step size (a number).
#' @param momentum SGD and RMSprop: the momentum, in \[0, 1\].
#' @param nesterov SGD: use Nesterov momentum.
#' @param beta_1,beta_2 Adam and AdamW: the decay rates of the moving
#'   averages of the gradient and of its square.
#' @param epsilon A small constant added to the denominator.
#' @param amsgrad Adam and AdamW: use the AMSGrad variant.
#' @param rho RMSprop: the decay rate of the moving average of the squared
#'   gradient.
#' @param centered RMSprop: normalise by the estimated variance of the
#'   gradient.
#' @param initial_accumulator_value Adagrad: the starting value of the
#'   accumulators.
#' @param weight_decay Decay the weights by `weight_decay * learning_rate`
#'   before each step (`NULL`: none).
#' @param clipnorm,clipvalue,global_clipnorm Clip each gradient's norm, each
#'   gradient's values, or the norm of all gradients together (at most one).
#' @param name An optional name.
#' @param ... Further arguments for the Python optimizer.
#' @return A `pycg.optimizers` optimizer (a Python object).
#' @examplesIf pycg_available()
#' w <- pycg_variable(c(3, -2))
#' opt <- optimizer_sgd(learning_rate = 0.1, momentum = 0.9)
#' for (i in 1:50) {
#'   g <- pycg_grad(function(w) op_sum(w^2))(w)
#'   optimizer_apply(opt, list(g), list(w))
#' }
#' as.array(w)
#' @name optimizers
NULL

#' @rdname optimizers
#' @export
optimizer_sgd <- function(learning_rate = 0.01, momentum = 0, nesterov = FALSE,
                          weight_decay = NULL, clipnorm = NULL,
                          clipvalue = NULL, global_clipnorm = NULL,
                          name = NULL, ...) {
  new_optimizer("optimizers.SGD", environment(), ...)
}

#' @rdname optimizers
#' @export
optimizer_adam <- function(learning_rate = 0.001, beta_1 = 0.9, beta_2 = 0.999,
                           epsilon = 1e-7, amsgrad = FALSE,
                           weight_decay = NULL, clipnorm = NULL,
                           clipvalue = NULL, global_clipnorm = NULL,
                           name = NULL, ...) {
  new_optimizer("optimizers.Adam", environment(), ...)
}

#' @rdname optimizers
#' @export
optimizer_adamw <- function(learning_rate = 0.001, weight_decay = 0.004,
                            beta_1 = 0.9, beta_2 = 0.999, epsilon = 1e-7,
                            amsgrad = FALSE, clipnorm = NULL,
                            clipvalue = NULL, global_clipnorm = NULL,
                            name = NULL, ...) {
  new_optimizer("optimizers.AdamW", environment(), ...)
}

#' @rdname optimizers
#' @export
optimizer_rmsprop <- function(learning_rate = 0.001, rho = 0.9, momentum = 0,
                              epsilon = 1e-7, centered = FALSE,
                              weight_decay = NULL, clipnorm = NULL,
                              clipvalue = NULL, global_clipnorm = NULL,
                              name = NULL, ...) {
  new_optimizer("optimizers.RMSprop", environment(), ...)
}

#' @rdname optimizers
#' @export
optimizer_adagrad <- function(learning_rate = 0.001,
                              initial_accumulator_value = 0.1, epsilon = 1e-7,
                              weight_decay = NULL, clipnorm = NULL,
                              clipvalue = NULL, global_clipnorm = NULL,
                              name = NULL, ...) {
  new_optimizer("optimizers.Adagrad", environment(), ...)
}

# The optimizer the entry `entry` makes (pycg.optimizers.<class>(...),
# pycg/r/entries.py) with the R function's arguments (`args`, its
# environment) and `...`: an NA becomes NaN, which Python refuses by the
# argument's name (reticulate would pass a logical NA as True).
new_optimizer <- function(entry, args, ...) {
  args <- lapply(as.list(args), function(x)
    if (is.atomic(x) && length(x) == 1L && !is.character(x) && is.na(x))
      NaN else x)
  do.call(core_call, c(list(entry), args, list(...)))
}

# The R function an optimizer's error names: optimizer_sgd() for
# pycg.optimizers.SGD, optimizer_apply() for its apply; NULL for others.
optimizer_r_name <- function(api) {
  if (grepl("^optimizers\\.\\w+\\.apply$", api)) return("optimizer_apply")
  if (grepl("^optimizers\\.\\w+$", api))
    return(paste0("optimizer_", tolower(sub("^optimizers\\.", "", api))))
  NULL
}

#' Apply gradients with an optimizer
#'
#' One step of `optimizer`: each variable in `vars` is updated in place from
#' its gradient in `grads` (the same order; names are ignored).
#'
#' @param optimizer An optimizer from [optimizer_sgd()] and the like.
#' @param grads An R list of gradients: tensors, R numbers or arrays
#'   (`NULL` leaves that variable unchanged, with a warning).
#' @param vars An R list of variables ([pycg_variable()]), or one variable.
#' @return `optimizer`, invisibly.
#' @examplesIf pycg_available()
#' w <- pycg_variable(c(1, 2))
#' opt <- optimizer_adam(learning_rate = 0.1)
#' optimizer_apply(opt, list(c(3, -1)), list(w))
#' as.array(w) # c(0.9, 2.1): Adam's first step is learning_rate * sign(grad)
#' @export
optimizer_apply <- function(optimizer, grads, vars) {
  if (inherits(vars, "python.builtin.object")) vars <- list(vars)
  if (!is.list(grads) || inherits(grads, "python.builtin.object"))
    grads <- list(grads)
  if (length(grads) != length(vars))
    stop("optimizer_apply: `grads` has ", length(grads), " gradients but ",
         "`vars` has ", length(vars), " variables; pass one gradient per ",
         "variable, in the same order", call. = FALSE)
  method_call(optimizer, "apply", lapply(unname(grads), as_py),
              py_variables(vars, "optimizer_apply"))
  invisible(optimizer)
}
