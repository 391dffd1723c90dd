#' Gradients of R functions
#'
#' `pycg_grad(f)` returns a function computing the gradient of `f` with
#' respect to the arguments `argnums`; `pycg_value_and_grad(f)` returns one
#' computing both. `f` is an R function of tensors returning a scalar tensor
#' (or `tuple(value, aux)` with `has_aux = TRUE`).
#'
#' While `f` runs, its arguments are watched: a tensor computed from them
#' never becomes R numbers silently (those numbers would leave the tape,
#' and the gradient would miss every term computed from them, as with
#' PyTorch's `.numpy()` of a tensor that requires grad). Base R's
#' `matrix()`, `array()`, `rep()`, `sweep()`, `mahalanobis()`, `drop()`,
#' `aperm()` and the other functions of [tensor-base], [tensor-linalg] and
#' [tensor-stats] keep them on the tape; `as.vector()`, `as.numeric()`,
#' `as.array()` and the base R code that calls them (`lapply()`,
#' `sapply()`, ...) stop with an error naming the call and the ways out:
#' an `op_*()` function, or an explicit constant,
#' `as.array(op_stop_gradient(x))`. Printing, comparisons
#' (`if (as.logical(any(x > 0)))`), integer and boolean tensors and
#' tensors made inside `f` from data convert as elsewhere; so does
#' anything inside the forward of an [op_custom_gradient()] rule, where
#' the rule gives the gradient.
#'
#' *Missing observations.* A likelihood that leaves out its missing
#' observations, by `sum(ll, na.rm = TRUE)` or by `ll[!is.na(y)]`, has the
#' gradient of its observed part, as if the `NA` rows had been dropped from
#' the data first. The rule: a position whose value never reaches the
#' result contributes nothing. Its value is `NA` (`NaN`) and its upstream
#' gradient exactly 0 (the `na.rm` sum and the index pass none back to it),
#' and pycg's gradients in R take that as "not reached" whatever the
#' derivative there (`NaN`), rather than computing 0 * `NaN` = `NaN`. (A 0
#' upstream at a finite or infinite value, such as `log(1 + exp(1000))`'s,
#' keeps `NaN`.) It
#' holds for elementwise arithmetic and functions, `max()`, `min()` and
#' `prod()` over an axis, and the rows (columns) of a matrix product whose
#' upstream is all 0, such as `X %*% beta` with `NA` in a row of `X`; on
#' every backend, and for every gradient computed from R (these functions,
#' a [gradient_tape()]'s `gradient()` and `jacobian()`, [pycg_optim()] and
#' [pycg_optim_objective()]). An `NA` that does reach the
#' value (a `sum()` without `na.rm`) gives `NA` in the value and in the
#' gradient. TensorFlow, PyTorch and JAX give `NaN` here, and so does pycg
#' called from Python (it answers as TensorFlow does); a rule of your own
#' ([op_custom_gradient()]) gets the upstream as it is.
#'
#' Where the value is finite but the gradient still holds `NaN` (R's `NA`),
#' both warn: an optimiser given that gradient stops at once and reports
#' convergence. A derivative that is `NaN` or infinite on the way to the
#' value is the cause, such as `sqrt()` of a sum of squares at 0.
#'
#' @param f An R function of tensors.
#' @param argnums Which arguments to differentiate with respect to, 1-based:
#'   one number (the result is a tensor) or several (the result is a list).
#' @param has_aux If `TRUE`, `f` returns `tuple(value, aux)`; `aux` is
#'   returned alongside, not differentiated.
#' The function returned runs `f` once for each signature of its arguments
#' (shapes and types) and replays what `f` did without running R at later
#' calls, as `jax.jit` does; where that cannot be trusted (`f` branches on a
#' computed value, draws R's random numbers, ...) it runs `f` at every
#' call. [pycg_explain()] says which, and why; `options(pycg.replay =
#' FALSE)` turns replay off.
#'
#' @return A function taking the arguments of `f`. `pycg_grad()`: it returns
#'   the gradient (with `has_aux`, `list(grad, aux)`). `pycg_value_and_grad()`:
#'   it returns `list(value, grad)` (with `has_aux`,
#'   `list(list(value, aux), grad)`). Given R numbers or arrays (no tensor)
#'   its results are R arrays, a vector for a vector (what
#'   `optim(par, fn, gr = pycg_grad(fn))` needs); given a tensor, tensors.
#' @examplesIf pycg_available()
#' grad_f <- pycg_grad(function(x) op_sum(x^2))
#' grad_f(op_convert_to_tensor(c(1, 2, 3))) # 2 * x
#'
#' vg <- pycg_value_and_grad(function(x, y) op_sum(x * y), argnums = 1:2)
#' vg(op_convert_to_tensor(c(1, 2)), op_convert_to_tensor(c(3, 4)))
#' @export
pycg_grad <- function(f, argnums = 1L, has_aux = FALSE) {
  transform_r_function("grad", f, function_label(substitute(f), f), argnums,
                       has_aux)
}

#' @rdname pycg_grad
#' @export
pycg_value_and_grad <- function(f, argnums = 1L, has_aux = FALSE) {
  transform_r_function("value_and_grad", f, function_label(substitute(f), f),
                       argnums, has_aux)
}

transform_r_function <- function(transform, f, label, argnums, has_aux) {
  if (!is.function(f))
    stop("`f` must be an R function, not ", describe_r(f), call. = FALSE)
  if (!is.numeric(argnums) || !length(argnums) || anyNA(argnums) ||
      any(argnums < 1) || any(argnums != trunc(argnums)))
    stop("`argnums` must be 1-based argument positions, e.g. 1 or 1:2",
         call. = FALSE)
  argnums <- as_int(argnums - 1L)
  py_f <- r_callable(f, label, signature = py_signature(f),
                     post = differentiable_result(paste0("pycg_", transform),
                                                  label, isTRUE(has_aux)))
  reads <- if (isFALSE(getOption("pycg.replay")))
    structure(list(), why_not = "options(pycg.replay = FALSE)") else
    function_reads(f)
  # (pycg.value_and_grad, warning where a finite value has a NaN gradient,
  # replayed without R where a record of f is sound: pycg/r/replay.py)
  run <- core_call("r.grad.checked_value_and_grad", py_f,
                   argnums = argnums, has_aux = isTRUE(has_aux),
                   value = transform == "value_and_grad",
                   replay = attr(reads, "why_not") %||% TRUE)
  replayed <- py_attr(run, "replayed")
  transformed <- guard(run)
  transformed_r <- guard(py_attr(run, "r_values"))
  caller <- list(name = paste0("pycg_", transform), args = names(formals(f)))
  function(...) {
    if (!reads_unchanged(reads)) {
      reads <<- function_reads(f)
      method_call(replayed, "forget")
    }
    seed <- get0(".Random.seed", envir = globalenv(), inherits = FALSE)
    args <- list(...)
    # (R data in, R arrays out: a gradient function for optim())
    plain <- !any(vapply(args, is_python, NA))
    fn <- if (plain) transformed_r else transformed
    out <- py_apply(fn, r_arguments(args, caller), caller)
    if (plain) out <- r_arrays(out)
    if (!identical(seed, get0(".Random.seed", envir = globalenv(),
                              inherits = FALSE)))
      method_call(replayed, "not_replayable", paste0(
        "the R function draws R's random numbers (runif(), rnorm(), ",
        "sample(), ...), which a replay would not draw again"))
    out
  }
}

is_python <- function(x) inherits(x, "python.builtin.object")

# The arrays of a result that Python sent as R data (pycg/r/grad.py
# run_r), a 1-d one as an R vector.
r_arrays <- function(x) {
  if (!is.list(x)) return(x)
  parts <- x[["__pycg_r_array__"]]
  if (is.null(parts)) return(lapply(x, r_arrays))
  value <- raw_to_array(parts[[1L]], parts[[2L]], parts[[3L]])
  if (length(dim(value)) == 1L) as.vector(value) else value
}

# What f returned, for a transform that differentiates it (applied in R,
# before the result reaches Python): a tensor with one element is the
# scalar it is in R (diff(range(x)) has dims c(1)); an R number or array
# means a base R function took the tensor off the tape, which would give a
# gradient of 0, so it is an error that says how to stay on the tape.
differentiable_result <- function(who, label, has_aux = FALSE) {
  force(who)
  force(label)
  function(out) {
    if (!has_aux) return(scalar_result(out, who, label))
    if (is.list(out) && length(out) == 2L)
      out[[1L]] <- scalar_result(out[[1L]], who, label)
    out
  }
}

scalar_result <- function(value, who, label) {
  if (is_tensor(value)) {
    if (length(tensor_dim(value)) && length(value) == 1L)
      return(op_call("reshape", value, list()))
    return(value)
  }
  if (is.numeric(value) || is.logical(value))
    stop(who, "(", label, "): the function returned an R ", typeof(value),
         if (length(value) == 1L) paste0(" (", format(value), ")"),
         ", not a tensor: a base R function (such as as.array() or ",
         "as.numeric()) converted the tensor to R values, which no tape ",
         "records, so the gradient would be 0. Stay on the tape with op_*() ",
         "functions and the base R functions pycg gives tensors (see ",
         "?tensor-base, ?tensor-linalg, ?tensor-stats); where R values are ",
         "needed, give the computation an op_custom_gradient() rule",
         call. = FALSE)
  value
}

# The arguments of a function made by pycg_grad() & co. as Python values;
# errors name each by position and by the name of f's parameter.
r_arguments <- function(args, caller) {
  given <- names(args) %||% rep("", length(args))
  out <- lapply(seq_along(args), function(i) {
    name <- if (nzchar(given[i])) given[i] else caller$args[i]
    label <- if (!is.na(name %||% NA) && name != "...")
      sprintf("argument %d (`%s`)", i, name) else sprintf("argument %d", i)
    if (is.null(args[[i]]))
      stop(caller$name, ": ", label, " is NULL; pass numbers, an array or ",
           "a tensor", call. = FALSE)
    as_py(args[[i]], .label = label)
  })
  names(out) <- names(args)
  out
}

#' Check gradients against finite differences
#'
#' Compares the gradients pycg computes for `f` at the given arguments with
#' central finite differences (and, for `order = 2`, the second
#' derivatives). Use it to test your own [op_custom_gradient()] rules.
#'
#' @param f An R function of tensors returning a tensor.
#' @param ... The arguments at which to check (tensors, R numbers or arrays).
#' @param order 1 to check first derivatives, 2 for second derivatives too.
#' @param eps,rtol,atol Finite-difference step and tolerances; `NULL` picks
#'   defaults suited to the narrowest floating dtype computed inside `f` (a
#'   function that casts to float32 gets a float32 step).
#' @return `TRUE`, invisibly, when the gradients agree; otherwise an error
#'   naming the argument, saying what was compared and the largest
#'   difference, and printing, as R prints arrays, the gradient
#'   [pycg_grad()] gives and its finite differences. For a non-scalar output
#'   the values compared are the gradient of `sum(f(...) * v)` for a fixed
#'   random `v` (every entry of the Jacobian counts); the gradients printed
#'   are then those of the sum of `f`'s output. For `order = 2`, what is
#'   compared and printed is a Hessian-vector product.
#' @examplesIf pycg_available()
#' check_gradients(function(x) op_sum(op_tanh(x)),
#'                 op_convert_to_tensor(c(0.5, -1), dtype = "float64"))
#' @export
check_gradients <- function(f, ..., order = 1L, eps = NULL, rtol = NULL,
                            atol = NULL) {
  if (!is.function(f))
    stop("`f` must be an R function, not ", describe_r(f), call. = FALSE)
  label <- function_label(substitute(f), f)
  py_f <- r_callable(f, label, signature = py_signature(f),
                     post = differentiable_result("check_gradients", label))
  args <- c(list("check_gradients", py_f), lapply(list(...), as_py),
            list(order = as.integer(order), eps = eps, rtol = rtol,
                 atol = atol))
  py_apply(interop()$call_core, args,
           list(name = "check_gradients", args = names(formals(f))))
  invisible(TRUE)
}

#' Create a variable
#'
#' A variable is a tensor whose value can change; trainable variables read
#' inside a [gradient_tape()] are watched automatically.
#'
#' @param initial_value The value: a tensor, an R number or array.
#' @param trainable If `TRUE` (a floating dtype is then required), tapes
#'   watch the variable when it is read.
#' @param name An optional name.
#' @param dtype An optional dtype, e.g. `"float64"`.
#' @return A `pycg.tensor.Variable` (a tensor). Change its value with
#'   `v$assign(op_convert_to_tensor(...))`, `v$assign_add()` and
#'   `v$assign_sub()`.
#' @examplesIf pycg_available()
#' v <- pycg_variable(2)
#' with(gradient_tape() %as% tape, y <- v * v)
#' tape$gradient(y, v) # 4
#' @export
pycg_variable <- function(initial_value, trainable = TRUE, name = NULL,
                          dtype = NULL) {
  core_call("Variable", as_py_as(initial_value, dtype),
            trainable = trainable,
            name = name, dtype = dtype)
}

#' Compile an R function into a TensorFlow graph or a jax.jit function
#'
#' `pycg_function(f)` traces `f` into one `tf.function` graph on the
#' tensorflow backend, or one `jax.jit` function on the jax backend, tapes,
#' [pycg_grad()] and [op_custom_gradient()] rules included; later calls with
#' tensors of the same shapes and dtypes run the compiled function without
#' calling back into R. So the R code of `f` (and of any custom-gradient
#' rule inside it) runs at trace time only: it must build its result from
#' `op_*()` calls, and converting a traced tensor to R (`as.array()`,
#' `if (x > 0)`) fails with an error that says so. On the numpy backend `f`
#' runs eagerly, with a warning. On the jax backend with JAX's 64-bit mode
#' off (see [config_set_backend()]), pass float32 tensors
#' (`op_convert_to_tensor(c(1, 2), dtype = "float32")`): R numbers are
#' float64.
#'
#' A single R number passed to the compiled function is a constant of the
#' trace, as a Python number is to `tf.function`: it keeps its weak type
#' (`x * 0.1` of a float16 `x` is float16, as eagerly), and each new value
#' traces again. Pass a number that changes, such as a learning rate, as a
#' tensor (`op_convert_to_tensor(lr)`).
#'
#' @param f An R function of tensors that returns a tensor.
#' @param jit_compile Ask TensorFlow to compile the graph with XLA (the jax
#'   backend always compiles with XLA).
#' @return An R function; `attr(g, "trace_count")()` says how many times it
#'   was traced (once per new input signature).
#' @examplesIf pycg_available()
#' old <- config_backend()
#' config_set_backend("tensorflow")
#' slope <- pycg_function(pycg_grad(function(x) op_sum(x^3)))
#' slope(op_convert_to_tensor(c(1, 2)))
#' attr(slope, "trace_count")()
#' config_set_backend(old)
#' @export
pycg_function <- function(f, jit_compile = FALSE) {
  if (!is.function(f))
    stop("`f` must be an R function, not ", describe_r(f), call. = FALSE)
  py_f <- r_callable(f, function_label(substitute(f), f),
                     signature = py_signature(f),
                     explain = explain_traced_condition)
  compiled <- core_call("function", py_f, jit_compile = isTRUE(jit_compile))
  call <- guard(compiled)
  g <- function(...) {
    py_apply(call, lapply(list(...), as_py))
  }
  attr(g, "trace_count") <- function() {
    reticulate::py_to_r(reticulate::py_get_attr(compiled, "trace_count"))
  }
  g
}

# `if (x > 0)` or `while` on a tensor, as happens while pycg_function()
# traces f (a traced comparison has no R value, so it stays a tensor, which
# R's `if` cannot read): the error says so and names the way out.
explain_traced_condition <- function(cond) {
  call <- conditionCall(cond)
  heads <- list(as.name("if"), as.name("while"))
  base_messages <- vapply(c("the condition has length > 1",
                            "argument is not interpretable as logical",
                            "argument is of length zero"),
                          gettext, "", domain = "R")
  if (!is.call(call) || !any(vapply(heads, identical, NA, call[[1L]])) ||
      !conditionMessage(cond) %in% base_messages)
    return(cond)
  cond$message <- paste0(
    "`", as.character(call[[1L]]), " (", paste(deparse(call[[2L]]),
                                               collapse = " "),
    ")`: the condition is a tensor (", conditionMessage(cond), "); while ",
    "pycg_function() traces f a tensor has no R value, so R's `",
    as.character(call[[1L]]), "` cannot read it. Branch on tensors with ",
    "op_where(condition, yes, no) or op_cond(condition, true_fn, false_fn), ",
    "or decide from R values outside f")
  cond
}
