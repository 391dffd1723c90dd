#' Tensors as R values
#'
#' pycg tensors (class `pycg.tensor.Tensor`) work with R's generics:
#' `as.array()`, `as.numeric()`/`as.double()`, `as.integer()`, `as.logical()`,
#' `dim()`, `length()`, `print()`, `format()`, `t()`, `mean()`; the arithmetic
#' and comparison operators (`+ - * / ^ %% %/% == != < <= > >= & | !`) with a
#' tensor or an R number on either side; the Math generics (`exp()`, `log()`,
#' `sqrt()`, `abs()`, `tanh()`, ...); `sum()`, `prod()`, `max()`, `min()`,
#' `any()`, `all()`; `%*%` for matrix products; and `[` with R's 1-based
#' rules (positive, negative and logical indices, `drop`). All of them record
#' on gradient tapes like the `op_*()` functions they call.
#'
#' A tensor holds its values in row-major order in Python, but converting
#' keeps R's layout: `as.array(op_convert_to_tensor(m))` is identical to `m`.
#'
#' @param x,e1,e2 Tensors (or R numbers, for the operators).
#' @param ... Further tensors (Summary) or ignored.
#' @param i,j Indices, as for R arrays.
#' @param name For `$`: a method or attribute of the tensor; methods that
#'   take arrays (such as a Variable's `assign()`) take R arrays.
#' @param drop If `TRUE`, drop extents of length 1 from the result.
#' @param na.rm If `TRUE`, `sum()`, `prod()`, `max()` and `min()` skip
#'   `NaN` (an R `NA` becomes `NaN` in a tensor).
#' @return R values for the conversions, tensors for the rest.
#' @name tensor-methods
#' @examplesIf pycg_available()
#' m <- op_convert_to_tensor(matrix(1:6, 2, 3) + 0)
#' dim(m)
#' m[2, ]
#' exp(m) / 2 + 1
#' as.array(m %*% t(m))
NULL

#' @rdname tensor-methods
#' @export
as.array.pycg.tensor.Tensor <- function(x, ...) {
  as.array(tensor_to_r(x))
}

#' @rdname tensor-methods
#' @export
as.double.pycg.tensor.Tensor <- function(x, ...) {
  as.double(tensor_to_r(x))
}

#' @rdname tensor-methods
#' @export
as.integer.pycg.tensor.Tensor <- function(x, ...) {
  as.integer(tensor_to_r(x))
}

#' @rdname tensor-methods
#' @export
as.logical.pycg.tensor.Tensor <- function(x, ...) {
  as.logical(tensor_to_r(x))
}

#' @rdname tensor-methods
#' @export
dim.pycg.tensor.Tensor <- function(x) {
  shape <- as.integer(unlist(py_to_r(py_get_attr(x, "shape"))))
  if (length(shape)) shape
}

#' @rdname tensor-methods
#' @export
length.pycg.tensor.Tensor <- function(x) {
  as.integer(prod(dim(x)))
}

#' @rdname tensor-methods
#' @export
format.pycg.tensor.Tensor <- function(x, ...) {
  c(tensor_header(x), utils::capture.output(print_trimmed(tensor_to_r(x))))
}

tensor_header <- function(x) {
  kind <- if (inherits(x, "pycg.tensor.Variable")) "Variable" else "Tensor"
  dtype <- py_to_r(py_get_attr(py_get_attr(x, "dtype"), "name"))
  shape <- dim(x)
  sprintf("<pycg %s %s%s>", kind, dtype,
          if (length(shape)) paste0(" [", paste(shape, collapse = " x "), "]")
          else " scalar")
}

# Values past getOption("pycg.print_max", 1000) elements print as their
# first rows and columns (matrices) or first elements, then what was left.
print_trimmed <- function(v) {
  max <- getOption("pycg.print_max", 1000L)
  if (length(v) <= max) return(print(v))
  d <- dim(v)
  if (length(d) == 2L) {
    r <- min(d[1L], 10L)
    k <- min(d[2L], 8L)
    print(v[seq_len(r), seq_len(k), drop = FALSE])
    cat(sprintf("# ... with %d more rows and %d more columns\n",
                d[1L] - r, d[2L] - k))
  } else {
    print(head(as.vector(v), 20L))
    cat(sprintf("# ... with %d more elements (R's column-major order)\n",
                length(v) - 20L))
  }
  cat("# options(pycg.print_max = Inf) prints every value\n")
}

#' @rdname tensor-methods
#' @export
`$.pycg.tensor.Tensor` <- function(x, name) {
  value <- NextMethod()
  if (!is.function(value)) return(value)
  # methods such as assign() take R arrays: convert them here, not in
  # reticulate (which refuses NumPy 2)
  function(...) {
    do.call(method_call, c(list(x, name), lapply(list(...), as_py)))
  }
}

#' @rdname tensor-methods
#' @export
print.pycg.tensor.Tensor <- function(x, ...) {
  cat(format(x, ...), sep = "\n")
  invisible(x)
}

#' @rdname tensor-methods
#' @export
t.pycg.tensor.Tensor <- function(x) {
  op_transpose(x)
}

#' @rdname tensor-methods
#' @export
Ops.pycg.tensor.Tensor <- function(e1, e2) {
  if (missing(e2)) {
    switch(.Generic,
           "-" = return(op_call("negative", e1)),
           "+" = return(e1),
           "!" = return(r_logical_if_scalar(op_call("logical_not", e1))))
  }
  name <- r_operator_ops[[.Generic]]
  if (is.null(name))
    stop("`", .Generic, "` is not supported for pycg tensors", call. = FALSE)
  out <- op_call(name, as_py(e1), as_py(e2))
  if (.Generic %in% r_logical_generics) r_logical_if_scalar(out) else out
}

r_logical_generics <- c("==", "!=", "<", "<=", ">", ">=", "&", "|")

# A comparison's single-value result as an R logical (so that `if (x > 1)`
# and isTRUE() work); a longer one, or a traced one, stays a tensor.
r_logical_if_scalar <- function(out) {
  if (length(dim(out))) return(out)
  tryCatch(tensor_to_r(out), error = function(e) out)
}

r_operator_ops <- list(
  "+" = "add", "-" = "subtract", "*" = "multiply", "/" = "divide",
  "^" = "power", "%%" = "mod", "%/%" = "floor_divide",
  "==" = "equal", "!=" = "not_equal", "<" = "less", "<=" = "less_equal",
  ">" = "greater", ">=" = "greater_equal",
  "&" = "logical_and", "|" = "logical_or")

#' @rdname tensor-methods
#' @export
Math.pycg.tensor.Tensor <- function(x, ...) {
  args <- list(...)
  if (.Generic == "log" && length(args))
    return(op_call("divide", op_call("log", x), log(args[[1L]])))
  if (.Generic == "round")
    return(op_call("round", x,
                   decimals = as_int(if (length(args)) args[[1L]] else 0L)))
  name <- r_math_ops[[.Generic]] %||% .Generic
  if (!name %in% op_names())
    stop("`", .Generic, "()` is not supported for pycg tensors; ",
         "see ls(\"package:pycg\", pattern = \"^op_\") for the ops",
         call. = FALSE)
  if (.Generic %in% c("cumsum", "cumprod"))
    return(py_call(interop()$r_cumulative, name, x))
  op_call(name, x)
}

r_math_ops <- list(ceiling = "ceil", acos = "arccos", asin = "arcsin",
                   atan = "arctan", acosh = "arccosh", asinh = "arcsinh",
                   atanh = "arctanh")

#' @rdname tensor-methods
#' @export
Summary.pycg.tensor.Tensor <- function(..., na.rm = FALSE) {
  ops <- r_summary_ops[[.Generic]]
  if (is.null(ops))
    stop("`", .Generic, "()` is not supported for pycg tensors",
         call. = FALSE)
  if (!is.logical(na.rm) || length(na.rm) != 1L || is.na(na.rm))
    stop("`na.rm` must be TRUE or FALSE", call. = FALSE)
  reduce <- if (na.rm && .Generic %in% c("sum", "prod", "max", "min"))
    paste0("nan", ops[[1L]]) else ops[[1L]]
  parts <- lapply(list(...), function(x) op_call(reduce, as_py(x)))
  Reduce(function(a, b) op_call(ops[[2L]], a, b), parts)
}

r_summary_ops <- list(
  sum = c("sum", "add"), prod = c("prod", "multiply"),
  max = c("max", "maximum"), min = c("min", "minimum"),
  all = c("all", "logical_and"), any = c("any", "logical_or"))

#' @rdname tensor-methods
#' @export
`[.pycg.tensor.Tensor` <- function(x, i, j, ..., drop = TRUE) {
  index <- as.list(sys.call())[-c(1L, 2L)]
  index <- index[names(index) %||% rep("", length(index)) != "drop"]
  env <- parent.frame()
  index <- lapply(unname(index), function(e) {
    if (identical(e, quote(expr = ))) NULL else as_py(eval(e, env))
  })
  py_call(interop()$r_subset, x, index, isTRUE(drop))
}

# The names in pycg.ops.__all__, read once per session.
op_names <- function() {
  .pycg$op_names %||% {
    .pycg$op_names <- unlist(py_to_r(py_get_attr(.pycg$core$ops, "__all__")))
    .pycg$op_names
  }
}
