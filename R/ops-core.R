# Thin wrappers of pycg.ops: argument conversions live in R/convert.R.

#' Converting tensors
#'
#' `op_convert_to_tensor()` makes a tensor from an R value: R scalars follow
#' Python's rules (a double becomes float32, an integer int32), R vectors and
#' arrays keep R's types (double -> float64, integer -> int32, logical -> bool)
#' and layout. `op_convert_to_numpy()` is the way back: an R array of the
#' tensor's shape (a scalar for 0-d tensors). `op_cast()` changes the dtype,
#' `op_shape()` gives the shape as an integer vector and `op_stop_gradient()` a
#' value that gradients do not flow through.
#'
#' @param x A tensor, or an R number, vector or array.
#' @param dtype A dtype name such as `"float32"`, `"float64"`, `"int32"`,
#'   `"bool"`; `NULL` keeps the default.
#' @param sparse Not supported; must be `NULL` or `FALSE`.
#' @param variable A tensor.
#' @return A tensor; an R array for `op_convert_to_numpy()`, an integer vector
#'   for `op_shape()`.
#' @examplesIf pycg_available()
#' x <- op_convert_to_tensor(matrix(1:6, 2))
#' op_shape(x)
#' op_convert_to_numpy(x)
#' op_cast(x, "float32")
#' @name ops-core
NULL

#' @rdname ops-core
#' @export
op_convert_to_tensor <- function(x, dtype = NULL, sparse = NULL) {
  op_call("convert_to_tensor", as_py_as(x, dtype),
          dtype = as_dtype(dtype),
          sparse = as_flag(sparse))
}

#' @rdname ops-core
#' @export
op_convert_to_numpy <- function(x) {
  if (!inherits(x, "pycg.tensor.Tensor"))
    x <- op_convert_to_tensor(x)
  tensor_to_r(x, "op_convert_to_numpy")
}

#' @rdname ops-core
#' @export
op_cast <- function(x, dtype) {
  op_call("cast", as_py(x), as_dtype(dtype))
}

#' @rdname ops-core
#' @export
op_shape <- function(x) {
  as.integer(unlist(op_call("shape", as_py(x))))
}

#' @rdname ops-core
#' @export
op_stop_gradient <- function(variable) {
  op_call("stop_gradient", as_py(variable))
}
