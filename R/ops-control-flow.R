# Thin wrappers of pycg.ops: argument conversions live in R/convert.R.

#' Control flow
#'
#' Keras' control flow ops with R functions as branches and bodies. Eagerly
#' they run as R control flow over tensor ops, and gradients flow through
#' whatever ran. Inside a compiled function (tensorflow backend) a tensor
#' predicate, index or trip count makes them TensorFlow control flow.
#' `op_switch()` takes a 1-based `index` (clipped to the branches);
#' `op_fori_loop()` calls `body_fun(i, val)` for `i` from `lower` to
#' `upper - 1`, as given. `op_scan()` returns `list(carry, ys)`.
#'
#' @param pred A logical scalar (R or tensor).
#' @param true_fn,false_fn Functions of no arguments.
#' @param index The 1-based branch number.
#' @param branches A list of functions of `...`.
#' @param ... Operands of the branches.
#' @param cond,body Functions of the loop variables: `cond` returns a
#'   logical scalar, `body` new loop variables (a list if there are several).
#' @param loop_vars The initial loop variables: a tensor, or a list of them.
#' @param maximum_iterations An upper bound on the trip count, or `NULL`.
#' @param lower,upper The range of `op_fori_loop()`.
#' @param body_fun A function `(i, val)` returning the next `val`.
#' @param init_val,init The initial value or carry.
#' @param f For `op_scan()`, a function `(carry, x)` returning
#'   `list(carry, y)`; for `op_map()`, a function of one slice; for
#'   `op_associative_scan()`, an associative function of two slices.
#' @param xs,elements,elems Tensors (or lists of them) sliced along their
#'   first axis (`axis` for `op_associative_scan()`).
#' @param length The number of steps when `xs` is `NULL`.
#' @param reverse If `TRUE`, run from the last slice to the first.
#' @param unroll Ignored.
#' @param function A function of one slice.
#' @param axis The axis (1-based) of `op_associative_scan()`.
#' @return The loop variables, branch result, or stacked results.
#' @examplesIf pycg_available()
#' x <- op_convert_to_tensor(c(1, 2, 3))
#' op_cond(op_sum(x) > 5, function() x * 2, function() x)
#' op_while_loop(function(v) op_sum(v) < 100, function(v) v * 2, x)
#' op_scan(function(c, xi) list(c + xi, c), 0, x)
#' op_associative_scan(op_add, x)
#' @name ops-control-flow
NULL

#' @rdname ops-control-flow
#' @export
op_cond <- function(pred, true_fn, false_fn) {
  op_call("cond", as_py(pred), as_py(true_fn), as_py(false_fn))
}

#' @rdname ops-control-flow
#' @export
op_switch <- function(index, branches, ...) {
  do.call(op_call, c(list("switch", as_index(index, "index"), as_py(branches)),
                     lapply(list(...), as_py)))
}

#' @rdname ops-control-flow
#' @export
op_while_loop <- function(cond, body, loop_vars, maximum_iterations = NULL) {
  op_call("while_loop", as_py(cond), as_py(body), as_py(loop_vars),
          maximum_iterations = as_int(maximum_iterations))
}

#' @rdname ops-control-flow
#' @export
op_fori_loop <- function(lower, upper, body_fun, init_val) {
  op_call("fori_loop", as_int(lower), as_int(upper), as_py(body_fun),
          as_py(init_val))
}

#' @rdname ops-control-flow
#' @export
op_scan <- function(f, init, xs = NULL, length = NULL, reverse = FALSE,
                    unroll = 1L) {
  op_call("scan", as_py(f), as_py(init), as_py(xs), length = as_int(length),
          reverse = as_flag(reverse), unroll = as_int(unroll))
}

#' @rdname ops-control-flow
#' @export
op_map <- function(f, xs) {
  op_call("map", as_py(f), as_py(xs))
}

#' @rdname ops-control-flow
#' @export
op_vectorized_map <- function(`function`, elements) {
  op_call("vectorized_map", as_py(`function`), as_py(elements))
}

#' @rdname ops-control-flow
#' @export
op_associative_scan <- function(f, elems, reverse = FALSE, axis = 1L) {
  op_call("associative_scan", as_py(f), as_py(elems),
          reverse = as_flag(reverse),
          axis = as_axis(axis))
}
