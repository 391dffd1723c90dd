#' Tensors as R values
#'
#' pycg tensors (class `pycg.tensor.Tensor`) work with R's generics:
#' `as.array()`, `as.numeric()`/`as.double()`, `as.integer()`, `as.logical()`,
#' `dim()`, `length()`, `print()`, `format()`, `t()`, `mean()`; the arithmetic
#' and comparison operators (`+ - * / ^ %% %/% == != < <= > >= & | !`) with a
#' tensor or R data on either side; the Math generics (`exp()`, `log()`,
#' `sqrt()`, `abs()`, `round()`, `signif()`, `sinpi()`, `cumsum()`,
#' `cummax()`, ...); the Complex generics (`Re()`, `Im()`, `Conj()`,
#' `Mod()`, `Arg()`); `sum()`, `prod()`, `max()`, `min()`, `range()`,
#' `any()`, `all()`; `%*%` for matrix products; `[` with R's 1-based rules
#' (positive, negative and logical indices, a matrix of coordinates as in
#' `m[cbind(i, j)]`, `drop`); `[[` for one element by its 1-based
#' position(s); `dim<-` (R's column-major order). All of them record on
#' gradient tapes like the `op_*()` functions they call.
#'
#' @section Base R's semantics, in one place:
#' R's operators, the Math, Summary and Complex groups, `pmax()`/`pmin()`,
#' `ifelse()`'s values and the value of `x[i] <- value` give base R's
#' answer on the R values the tensors convert to: shape, type and `NA` are
#' decided in one routine, as base R's arithmetic.c decides them.
#'
#' *Shapes.* A tensor stands for the R value `as.array()` gives: one of 0
#' or 1 axes for an R vector (so `dim()` of it is `NULL`), one of 2 or more
#' axes for an array with those dims. Two arrays must have equal dims (else
#' base R's error "non-conformable arrays"); an array and a vector give the
#' array's dims, the vector recycled along the array's elements in R's
#' column-major order (so `m - rowMeans(m)` centres the rows, and
#' `m * c(1, 10)` scales the rows, as in base R); two vectors give the
#' longer's length. Where the longer length is not a multiple of the
#' shorter, R's warning "longer object length is not a multiple of shorter
#' object length". **Two tensors follow the same rule**: R's operators are
#' R's, whatever their operands; the `op_*()` functions (`op_add()`,
#' `op_multiply()`, `op_maximum()`, ...) keep keras.ops' (NumPy's)
#' broadcasting, for code written for Keras (a bias added along the last
#' axis is `op_add(x, b)`). Gradients flow to both sides; a recycled
#' value's gradient sums over the positions it was recycled to.
#'
#' *Types.* R's four: a bool tensor is logical, int8 to int32 (and uint8,
#' uint16) integer, other numbers double, complex complex. Results have
#' R's type: `TRUE + TRUE` and `-x` of a logical are integer, `/` and `^`
#' double, `abs()`, `max()` and `range()` of logicals integer, `round()`,
#' `sign()`, `trunc()`, `prod()`, `cumprod()` of integers double;
#' `x[1] <- 9L` makes a logical `x` integer and `x[1] <- 1.5` an integer
#' `x` double. A double result has the float dtype of its tensor operands
#' (float64 where none is a float; R data beside a float32 tensor is
#' float32). Integer arithmetic is R's: a result outside the integer range
#' is `NA` with R's warning "NAs produced by integer overflow", `%/%` and
#' `%%` by `0L` (or `FALSE`) are `NA`, `sum()` of integers is a double
#' where the total leaves the integer range, `cumsum()` stops at an
#' overflow with R's warning. Doubles follow R's arithmetic.c: `^` is R's
#' (`(-1.5)^Inf` is `NaN`), `%%` and `%/%` compute `x - floor(x / y) * y`
#' exactly (`5.5 %% 0.1` is `0.0999...97`, `5.5 %/% 0.1` is 54, as in R),
#' `round(x, digits)` is R 4's algorithm (`round(2.675, 2)` is 2.67,
#' `round(-0.15, 1)` is -0.1) and `signif()` R's.
#'
#' *`NA`.* A double tensor holds R's `NA` as R does, a NaN with R's
#' payload (so `identical(as.array(op_convert_to_tensor(c(1, NA))),
#' array(c(1, NA)))`, and `is.nan()` is `FALSE` for it); arithmetic
#' carries it as base R's own does (R documents that `NA` and `NaN` may
#' swap where both are involved: "Computations involving NaN will return
#' NaN or perhaps NA"), and the Math group keeps an `NA` where it finds
#' one. A float32 tensor keeps `NaN` only. An integer result's `NA` is
#' R's `NA_integer_` (its bit pattern). A logical tensor has no room for
#' `NA`: a comparison with `NA` (or `NaN`) keeps, beside its boolean
#' tensor, a mask that R reads wherever the result reaches it:
#' `as.logical(x > 0)` is `NA` there, `if` stops with "missing value where
#' TRUE/FALSE needed", `all()` and `any()` follow R's three-valued logic
#' (and `na.rm`), `is.na()` is `TRUE`, `x[x > 0]` keeps an `NA`, and
#' `sum(x > 0)` is `NA_integer_`. The boolean tensor itself holds `FALSE`
#' there, which `op_*()` functions see (as in Keras). Converting R data
#' with an integer or logical `NA` (`op_convert_to_tensor(c(1L, NA))`) is
#' an error: a double vector keeps R's `NA`.
#'
#' Where pycg follows base R rather than keras3: negative indices in `[`
#' exclude (keras3 counts them from the end), one index on an array reads
#' it in R's column-major order, and a tensor used as an index follows the
#' rules of the R index it holds (`x[op_convert_to_tensor(cbind(i, j))]`
#' takes elements by coordinates, as with the R matrix).
#'
#' `x[i] <- value`, `x[i, j] <- value` and `x[[i]] <- value` make a new
#' tensor, as base R makes a modified copy (recorded on tapes for `x` and a
#' tensor `value`); an index past the end, which would grow an R vector, is
#' an error. A [pycg_variable()] is changed by `v$assign()`.
#'
#' `lgamma()`, `gamma()`, `digamma()` and `trigamma()` give base R's
#' answers and warnings ([tensor-special]).
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
#' @param na.rm If `TRUE`, `sum()`, `prod()`, `max()`, `min()` and
#'   `range()` skip `NA` and `NaN`; with nothing left, `max()` is `-Inf`
#'   and `min()` `Inf`, with R's warning.
#' @return R values for the conversions, tensors for the rest.
#' @name tensor-methods
#' @examplesIf pycg_available()
#' m <- op_convert_to_tensor(matrix(1:6, 2, 3) + 0)
#' dim(m)
#' m[2, ]
#' exp(m) / 2 + 1
#' as.array(m %*% t(m))
#' m - rowMeans(m)          # R's recycling: each row centred
#' op_add(m, c(10, 20, 30)) # NumPy's broadcasting: along the last axis
#' round(op_convert_to_tensor(c(2.675, 5.015)), 2)  # 2.67 5.02, as base R
NULL

#' @rdname tensor-methods
#' @export
as.array.pycg.tensor.Tensor <- function(x, ...) {
  as.array(tensor_to_r(x, "as.array"))
}

#' @rdname tensor-methods
#' @export
as.double.pycg.tensor.Tensor <- function(x, ...) {
  as.double(tensor_to_r(x, "as.double"))
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
  d <- tensor_dim(x)
  if (length(d) > 1L) d   # a tensor of 0 or 1 axes is an R vector
}

# A tensor's shape as R integers (NULL for a 0-d tensor).
tensor_dim <- function(x) {
  shape <- as.integer(unlist(py_to_r(py_attr(x, "shape"))))
  if (length(shape)) shape
}

#' @rdname tensor-methods
#' @export
length.pycg.tensor.Tensor <- function(x) {
  as.integer(prod(tensor_dim(x)))
}

#' @rdname tensor-methods
#' @export
format.pycg.tensor.Tensor <- function(x, ...) format(r_value(x), ...)

tensor_header <- function(x) {
  kind <- if (inherits(x, "pycg.tensor.Variable")) "Variable" else "Tensor"
  dtype <- py_to_r(py_get_attr(py_attr(x, "dtype"), "name"))
  shape <- tensor_dim(x)
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
  check_live(list(x))
  value <- NextMethod()
  if (!is.function(value)) return(value)
  # methods such as assign() take R arrays: convert them here, not in
  # reticulate (which refuses NumPy 2)
  # (x$numpy(), x$tolist(), x$item(): NULL where pycg/r/interop.py
  # call_method refuses to hand over a tensor that carries a gradient)
  function(...) {
    out <- do.call(method_call, c(list(x, name), lapply(list(...), as_py)))
    if (is.null(out) && name %in% c("numpy", "tolist", "item"))
      stop_leaving_tape(name, sys.nframe())
    out
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
    a <- r_operand(e1, .Generic)
    out <- with_na(py_call(interop()$r_unary, .Generic, a$value, a$na))
    return(if (.Generic == "!") r_logical_if_scalar(out) else out)
  }
  a <- r_operand(e1, .Generic)
  b <- r_operand(e2, .Generic)
  out <- with_na(py_call(interop()$r_operator, .Generic, a$value, b$value,
                         a$na, b$na, a$weak + 2L * b$weak))
  if (.Generic %in% r_logical_generics) r_logical_if_scalar(out) else out
}

r_logical_generics <- c("==", "!=", "<", "<=", ">", ">=", "&", "|")

# A comparison's single-value result as an R logical (so that `if (x > 1)`
# and isTRUE() work; NA where R's answer is NA, so `if` stops as in base
# R); a longer one, or a traced one, stays a tensor.
r_logical_if_scalar <- function(out) {
  if (length(tensor_dim(out))) return(out)
  tryCatch(tensor_to_r(out), error = function(e) out)
}

#' @rdname tensor-methods
#' @export
Math.pycg.tensor.Tensor <- function(x, ...) {
  if (.Generic %in% r_special_math)
    return(core_call("r.special.math_group", .Generic, na_as_nan(x)))
  args <- list(...)
  digits <- if (.Generic %in% c("round", "signif", "log") && length(args))
    args[[1L]]
  if (!is.null(digits) && (!is.numeric(digits) || length(digits) != 1L))
    stop("`", .Generic, "()` of a tensor takes one number as its second ",
         "argument, not ", describe_value(digits), "; use ", .Generic,
         "(as.array(x), ...) for R's values", call. = FALSE)
  if (!.Generic %in% r_math_generics &&
      !(r_math_ops[[.Generic]] %||% .Generic) %in% op_names())
    stop("`", .Generic, "()` is not supported for pycg tensors (no op ",
         "computes it); use ", .Generic, "(as.array(x)) for R's values, ",
         "which no tape records", call. = FALSE)
  with_na(py_call(interop()$r_math, .Generic, x, na_of(x), digits))
}

# Math generics computed in pycg/r/base/rmath.py without an op of their name.
r_math_generics <- c("round", "signif", "sinpi", "cospi", "tanpi", "cumsum",
                     "cumprod", "cummax", "cummin")

r_math_ops <- list(ceiling = "ceil", acos = "arccos", asin = "arcsin",
                   atan = "arctan", acosh = "arccosh", asinh = "arcsinh",
                   atanh = "arctanh")

#' @rdname tensor-methods
#' @export
Summary.pycg.tensor.Tensor <- function(..., na.rm = FALSE) {
  r_summary(.Generic, list(...), na.rm)
}

# sum(), prod(), max(), min(), range(), any() or all() of `args`, one of
# them a tensor.
r_summary <- function(what, args, na.rm) {
  if (!is.logical(na.rm) || length(na.rm) != 1L || is.na(na.rm))
    stop("`na.rm` must be TRUE or FALSE", call. = FALSE)
  parts <- lapply(args, r_operand, what = what)
  out <- with_na(py_call(interop()$r_summary, what,
                         lapply(parts, `[[`, "value"),
                         lapply(parts, function(p) p$na), na.rm))
  if (what %in% c("any", "all")) r_logical_if_scalar(out) else out
}

# ifelse(test, yes, no) where one of them is a tensor: test's shape, the
# higher type of logical and the values used, NA where test is NA.
r_ifelse <- function(test, yes, no) {
  parts <- lapply(list(test, yes, no), r_operand, what = "ifelse")
  with_na(py_call(interop()$r_ifelse, parts[[1L]]$value, parts[[2L]]$value,
                  parts[[3L]]$value, parts[[1L]]$na, parts[[2L]]$na,
                  parts[[3L]]$na, parts[[2L]]$weak + 2L * parts[[3L]]$weak))
}

# diff(x, differences = n) of a tensor in R's order (a matrix: its rows),
# integers by R's integer arithmetic.
r_diff <- function(x, differences) {
  py_call(interop()$r_diff, x, as_int(differences))
}

# Re(), Im(), Mod(), Arg() or Conj() of a tensor (the Complex group).
r_complex <- function(what, z) {
  py_call(interop()$r_complex, what, z, na_of(z))
}

# pmax() and pmin() of values one of which is a tensor (R/tensor-base.R).
r_parallel <- function(what, args, na.rm) {
  if (!is.logical(na.rm) || length(na.rm) != 1L || is.na(na.rm))
    stop("`na.rm` must be TRUE or FALSE", call. = FALSE)
  parts <- lapply(args, r_operand, what = what)
  with_na(py_call(interop()$r_parallel, what, lapply(parts, `[[`, "value"),
                  lapply(parts, function(p) p$na), na.rm))
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
  if (length(value) == 1L)
    stop("`dim<-`: a tensor of one axis is an R vector (its dim() is ",
         "NULL), not a 1-d array as base R makes of dim(x) <- ", value,
         "; use dim(x) <- NULL for the vector, or as.array(x) for base R's ",
         "1-d array (a plain R value, off the tape)", call. = FALSE)
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
