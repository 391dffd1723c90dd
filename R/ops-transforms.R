# Thin wrappers of pycg.ops: argument conversions live in R/convert.R.

#' Function transforms
#'
#' `op_jvp()` returns `list(output, directional derivative)` of an R function;
#' `op_vectorize()` maps an R function over elements (or over the blocks named
#' by a NumPy `signature`).
#'
#' @param fun An R function of tensors.
#' @param primals A list of the function's arguments.
#' @param tangents A list of tangents, one per argument.
#' @param has_aux If `TRUE`, `fun` returns `list(output, aux)`.
#' @param pyfunc An R function.
#' @param excluded Positions (1-based) of arguments passed through.
#' @param signature A NumPy signature such as `"(n),(n)->()"`, or `NULL`.
#' @return A tensor (a list of tensors where there are several results);
#'   R values for the tensor facts.
#' @examplesIf pycg_available()
#' op_jvp(op_sin, list(0), list(2))
#' op_vectorize(function(a) a * 2)(c(1, 2, 3))
#' @name ops-transforms
NULL

#' @rdname ops-transforms
#' @export
op_jvp <- function(fun, primals, tangents, has_aux = FALSE) {
  op_call("jvp", as_py(fun), as_py(unname(primals)), as_py(unname(tangents)),
    has_aux = as_py(has_aux))
}

#' @rdname ops-transforms
#' @export
op_vectorize <- function(pyfunc, excluded = NULL, signature = NULL) {
  f <- op_call("vectorize", as_py(pyfunc), excluded = as_index(excluded, "excluded"),
    signature = signature)
  function(...) py_apply(guard(f), lapply(list(...), as_py))
}
