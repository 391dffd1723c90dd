#' Tensors as R values
#'
#' pycg tensors (class `pycg.tensor.Tensor`) work with R's generics:
#' `as.array()`, `as.numeric()`/`as.double()`, `as.integer()`, `as.logical()`,
#' `dim()`, `length()`, `print()`, `format()`, `t()`, `mean()`; the arithmetic
#' and comparison operators (`+ - * / ^ %% %/% == != < <= > >= & | !`) with a
#' tensor or an R number on either side; the Math generics (`exp()`, `log()`,
#' `sqrt()`, `abs()`, `tanh()`, `sinpi()`, `cospi()`, `tanpi()`, ...); the
#' Complex generics (`Re()`, `Im()`, `Conj()`, `Mod()`, `Arg()`); `sum()`,
#' `prod()`, `max()`, `min()`, `any()`, `all()`; `%*%` for matrix products;
#' `[` with R's 1-based rules (positive, negative and logical indices, a
#' matrix of coordinates as in `m[cbind(i, j)]`, `drop`); `[[` for one
#' element by its 1-based position(s); `dim<-` (R's column-major order). All
#' of them record on gradient tapes like the `op_*()` functions they call.
#'
#' Where pycg follows base R rather than keras3: negative indices in `[`
#' exclude (keras3 counts them from the end), and one index on an array
#' reads it in R's column-major order.
#'
#' `x[i] <- value`, `x[i, j] <- value` and `x[[i]] <- value` make a new
#' tensor, as base R makes a modified copy (recorded on tapes for `x` and a
#' tensor `value`); an index past the end, which would grow an R vector, is
#' an error, and so is a fractional value into an integer tensor (base R
#' would make it double). A [pycg_variable()] is changed by `v$assign()`.
#'
#' Exceptions, which stop with an error naming the way out: the Math
#' generics `lgamma()`, `gamma()`, `digamma()`, `trigamma()`, `signif()`,
#' `cummax()` and `cummin()` (no op computes them; use them on
#' `as.array(x)`).
#'
#' R's `NA`: a tensor holds `NA` as `NaN`, and a comparison with it keeps
#' R's meaning wherever its result reaches R: `as.logical(x > 0)` is `NA`
#' there, `if` stops with "missing value where TRUE/FALSE needed", `all()`
#' and `any()` follow R's three-valued logic (and `na.rm`), `is.na()` is
#' `TRUE`, `x[x > 0]` keeps an `NA`, and sums read it as `NA`. The boolean
#' tensor itself holds `FALSE` there, which `op_*()` functions see (as in
#' Keras).
#'
#' Integers, as in base R: `+`, `-` and `*` between int32 values give `NA`
#' with R's warning "NAs produced by integer overflow" where the result
#' leaves the integer range; `%/%` and `%%` by `0L` give `NA`; `^` gives
#' doubles; `sum()` of integers is an integer tensor, or a double one where
#' the total leaves that range.
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
#' @param value For `dim<-`: the new extents (R's column-major order); for
#'   `[<-` and `[[<-`: the new values (R numbers or a tensor), recycled as
#'   base R recycles them.
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
format.pycg.tensor.Tensor <- function(x, ...) format(r_value(x), ...)

tensor_header <- function(x) {
  kind <- if (inherits(x, "pycg.tensor.Variable")) "Variable" else "Tensor"
  dtype <- py_to_r(py_get_attr(py_get_attr(x, "dtype"), "name"))
  shape <- dim(x)
  sprintf("<pycg %s %s%s>", kind, dtype,
          if (length(shape)) paste0(" [", paste(shape, collapse = " x "), "]")
          else " scalar")
}

# What print() shows: the header, then the values as R prints them.
tensor_lines <- function(x, ...) {
  c(tensor_header(x), utils::capture.output(print_trimmed(tensor_to_r(x),
                                                          ...)))
}

# Values past getOption("pycg.print_max", 1000) elements print as their
# first rows and columns (matrices) or first elements, then what was left.
print_trimmed <- function(v, ...) {
  max <- getOption("pycg.print_max", 1000L)
  if (length(v) <= max) return(print(v, ...))
  d <- dim(v)
  if (length(d) == 2L) {
    r <- min(d[1L], 10L)
    k <- min(d[2L], 8L)
    print(v[seq_len(r), seq_len(k), drop = FALSE], ...)
    cat(sprintf("# ... with %d more rows and %d more columns\n",
                d[1L] - r, d[2L] - k))
  } else {
    print(head(as.vector(v), 20L), ...)
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
  cat(tensor_lines(x, ...), sep = "\n")
  invisible(x)
}

#' @rdname tensor-methods
#' @export
t.pycg.tensor.Tensor <- function(x) r_transpose(x)

#' @rdname tensor-methods
#' @export
Ops.pycg.tensor.Tensor <- function(e1, e2) {
  if (missing(e2)) {
    switch(.Generic,
           "-" = return(op_call("negative", na_as_nan(e1))),
           "+" = return(e1),
           "!" = {
             out <- op_call("logical_not", e1)
             return(r_logical_if_scalar(with_na(list(out, na_of(e1)))))
           })
  }
  name <- r_operator_ops[[.Generic]]
  if (is.null(name))
    stop("`", .Generic, "` is not supported for pycg tensors", call. = FALSE)
  if (.Generic %in% r_logical_generics) {
    # a logical NA (x == NA) compares as R's NA of a double
    if (is.logical(e1) && length(e1) == 1L && is.na(e1)) e1 <- NA_real_
    if (is.logical(e2) && length(e2) == 1L && is.na(e2)) e2 <- NA_real_
    return(r_logical_if_scalar(na_compare(name, e1, e2)))
  }
  e1 <- as_py(na_as_nan(e1))
  e2 <- as_py(na_as_nan(e2))
  if (.Generic %in% c("+", "-", "*", "^", "%/%", "%%"))
    py_call(interop()$r_arith, name, e1, e2)
  else
    op_call(name, e1, e2)
}

r_logical_generics <- c("==", "!=", "<", "<=", ">", ">=", "&", "|")

# A comparison's single-value result as an R logical (so that `if (x > 1)`
# and isTRUE() work; NA where R's answer is NA, so `if` stops as in base
# R); a longer one, or a traced one, stays a tensor.
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
  x <- na_as_nan(x)
  args <- list(...)
  if (.Generic == "log" && length(args))
    return(op_call("divide", op_call("log", x), log(args[[1L]])))
  if (.Generic == "round")
    return(op_call("round", x,
                   decimals = as_int(if (length(args)) args[[1L]] else 0L)))
  if (.Generic %in% c("sinpi", "cospi", "tanpi"))
    return(core_call(paste0("r.arith.", .Generic), x))
  name <- r_math_ops[[.Generic]] %||% .Generic
  if (!name %in% op_names())
    stop("`", .Generic, "()` is not supported for pycg tensors (no op ",
         "computes it); use ", .Generic, "(as.array(x)) for R's values, ",
         "which no tape records", call. = FALSE)
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
  if (.Generic %in% c("all", "any")) {
    parts <- lapply(list(...), function(x) na_reduce(.Generic, x, na.rm))
    return(r_logical_if_scalar(Reduce(function(a, b)
      na_compare(ops[[2L]], a, b), parts)))
  }
  reduce <- if (na.rm) paste0("nan", ops[[1L]]) else ops[[1L]]
  parts <- lapply(list(...), function(x) {
    x <- as_py(na_as_nan(x))
    if (reduce == "sum") core_call("r.arith.r_sum", x) else op_call(reduce, x)
  })
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
    if (identical(e, quote(expr = ))) return(NULL)  # a missing index: all
    r_index(eval(e, env) %||% integer())             # x[NULL] selects none
  })
  if (length(index) == 1L && is.matrix(index[[1L]]) &&
      is.numeric(index[[1L]]) && length(dim(x)) > 1L &&
      ncol(index[[1L]]) == length(dim(x)))
    index[[1L]] <- matrix_positions(index[[1L]], dim(x))
  if (length(index) == 1L && is.numeric(index[[1L]]) &&
      any(index[[1L]] >= length(x) + 1, na.rm = TRUE))
    index[[1L]][index[[1L]] >= length(x) + 1] <- NA  # as base R: x[5] is NA
  has_na <- vapply(index, function(i) is.atomic(i) && anyNA(i), NA)
  if (any(has_na)) {
    if (length(index) != 1L)
      stop("`[`: an NA index is supported in x[i] only, not in x[i, j]; ",
           "use which(i) to leave the NAs out", call. = FALSE)
    return(subset_with_na(x, index[[1L]], isTRUE(drop)))
  }
  index <- lapply(index, as_py)
  na_through(x, function(t) py_call(interop()$r_subset, t, index, isTRUE(drop)))
}

# A matrix of coordinates (one row per element, one column per axis), as
# base R reads m[cbind(i, j)], to positions in column-major order.
matrix_positions <- function(at, d) {
  if (anyNA(at) || any(at < 1) || any(at != trunc(at)) ||
      any(t(at) > d))
    stop("`[`: a matrix index holds 1-based coordinates within dim(x) = c(",
         paste(d, collapse = ", "), ")", call. = FALSE)
  as.vector(1 + (at - 1) %*% cumprod(c(1, d[-length(d)])))
}

#' @rdname tensor-methods
#' @export
`[[.pycg.tensor.Tensor` <- function(x, i, ...) {
  index <- lapply(c(list(i), list(...)), r_value_of)
  d <- dim(x) %||% length(x)
  extents <- if (length(index) == 1L) length(x) else d
  if (length(index) != 1L && length(index) != length(d))
    stop("`[[`: ", length(index), " indices for a tensor of ", length(d),
         " dimensions", call. = FALSE)
  for (k in seq_along(index)) {
    at <- index[[k]]
    if (!is.numeric(at) || length(at) != 1L || is.na(at) || at < 1 ||
        at != trunc(at))
      stop("`[[`: takes one element by 1-based positions (whole numbers ",
           "from 1); got ", describe_value(at), call. = FALSE)
    if (at > extents[k])
      stop("`[[`: subscript out of bounds: ", at, " for an extent of ",
           extents[k], call. = FALSE)
  }
  index <- lapply(index, as_py)
  out <- na_through(x, function(t) py_call(interop()$r_subset, t, index, TRUE))
  # an element of a comparison's result is an R logical, as the comparison
  # of two scalars is (so that NA reaches `if`)
  if (is.null(na_of(x))) out else r_logical_if_scalar(out)
}

#' @rdname tensor-methods
#' @export
`[<-.pycg.tensor.Tensor` <- function(x, ..., value) {
  index <- as.list(sys.call())[-c(1L, 2L)]
  index <- index[names(index) %||% rep("", length(index)) != "value"]
  env <- parent.frame()
  index <- lapply(unname(index), function(e) {
    if (identical(e, quote(expr = ))) return(e)
    i <- r_index(eval(e, env))
    if (is_tensor(i)) tensor_to_r(i) else i
  })
  replace_at(x, index, value, "[<-")
}

#' @rdname tensor-methods
#' @export
`[[<-.pycg.tensor.Tensor` <- function(x, i, ..., value) {
  index <- lapply(c(list(i), list(...)), r_value_of)
  ok <- vapply(index, function(a) is.numeric(a) && length(a) == 1L &&
                 !is.na(a) && a >= 1 && a == trunc(a), NA)
  if (!all(ok) || length(value) != 1L)
    stop("`[[<-`: sets one element by 1-based positions to one value; use ",
         "x[i] <- value for several", call. = FALSE)
  replace_at(x, index, value, "[[<-")
}

stop_immutable <- function(what) {
  stop("`", what, "`: a pycg_variable() is changed by v$assign(); ",
       "x[i] <- value makes a new tensor, so use it on tensors, or ",
       "op_where(mask, value, x), op_scatter_update(), op_slice_update()",
       call. = FALSE)
}

#' @rdname tensor-methods
#' @export
`dim<-.pycg.tensor.Tensor` <- function(x, value) {
  if (inherits(x, "pycg.tensor.Variable"))
    stop("`dim<-`: a pycg_variable() keeps its shape; use op_reshape(v, ",
         "shape) for a reshaped tensor", call. = FALSE)
  if (!is.null(value) && (!is.numeric(value) || anyNA(value) ||
      any(value < 0) || any(value != trunc(value)) ||
      prod(value) != length(x)))
    stop("`dim<-`: dims [product ", prod(value), "] do not match the ",
         "length of the tensor [", length(x), "]", call. = FALSE)
  na_through(x, function(t) {
    flat <- r_order_vector(t)
    if (is.null(value)) return(flat)
    out <- op_call("reshape", flat, as_shape(rev(value)))
    if (length(value) > 1L) op_call("transpose", out) else out
  })
}

# The names in pycg.ops.__all__, read once per session.
op_names <- function() {
  .pycg$op_names %||% {
    .pycg$op_names <- unlist(py_to_r(py_get_attr(.pycg$core$ops, "__all__")))
    .pycg$op_names
  }
}
