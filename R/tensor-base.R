#' Base R functions on tensors
#'
#' The base R functions users reach for work on pycg tensors, with R's
#' meaning, and record on gradient tapes where the result is a tensor:
#'
#' * missing values: `is.na()` and `is.nan()` (a tensor's `NA` is `NaN`),
#'   `is.finite()`, `is.infinite()` give boolean tensors; `anyNA()` gives
#'   `TRUE` or `FALSE`. `na.rm = TRUE` is honoured by `sum()`, `prod()`,
#'   `max()`, `min()`, `range()` and `mean()`, which then skip `NaN`.
#' * conversion: `as.vector()`, `as.matrix()`, `as.double()`, `length()`,
#'   `str()`, `summary()`; `is.numeric()` is `TRUE` for integer and
#'   floating tensors, as for the R vector it holds; `format()` is base R's
#'   `format()` of the values (`digits`, `nsmall`, ...), `print()` shows
#'   dtype and shape above them.
#' * the tape border: while a tape records (inside [pycg_grad()],
#'   [pycg_value_and_grad()], [check_gradients()], a [gradient_tape()]), a
#'   floating tensor it differentiates through (one it watches, or computed
#'   from one) never becomes R numbers silently, as PyTorch refuses
#'   `.numpy()` of a tensor that requires grad: `as.vector()`,
#'   `as.double()` (`as.numeric()`), `as.array()`, `as.matrix()`,
#'   `as.list()`, `summary()`, `xtfrm()` (so `order()`), `x$numpy()`,
#'   [op_convert_to_numpy()], [pycg_to_numpy()] and the base R code that
#'   calls them (`lapply()`, `sapply()`, `mode<-`) stop with an error
#'   naming the call and the two ways out: stay on the tape with `op_*()`
#'   functions and those below, or make the constant explicit,
#'   `as.array(op_stop_gradient(x))`. Printing (`print()`, `format()`,
#'   `str()`, `as.character()`) and what has a derivative of 0 anyway
#'   (`as.integer()`, `as.logical()`, comparisons such as
#'   `if (as.logical(any(x > 0)))`, `which()`, `rank()`) convert as
#'   elsewhere, and so do integer and boolean tensors and tensors that no
#'   recording tape tracks (data made inside the function, a tape's
#'   `stop_recording()`, the forward of an [op_custom_gradient()] rule,
#'   which is where R numbers may be computed).
#' * `matrix()`, `array()`, `rep()`, `sweep()` (its `STATS` a tensor) and
#'   `mahalanobis()` (any of its arguments a tensor) of tensors give base
#'   R's layout (recycling, `byrow`, `each`, `length.out`, its warnings and
#'   errors), as tensors recorded on tapes: base R lays out the positions
#'   of the elements and the tensor's are gathered at them. A tensor has no
#'   dimnames, and `mahalanobis()` of tensors gives unnamed distances. Base
#'   R's `matrix()`, `array()`, `sweep()` and stats' `mahalanobis()` would
#'   make the tensor R numbers, so pycg gives its own, as for `c()` below.
#' * `c()` of tensors and R numbers or logicals, in any order (`c(5, x)`,
#'   `out <- c(out, x[i])` in a loop), is one tensor in R's order, recorded
#'   on tapes; beside a list a tensor stays one element of it, beside
#'   strings it gives its values. Base R's `c()` dispatches on its first
#'   argument only, so pycg gives its own `c()`, which sends every call
#'   without a tensor to base R's (library(pycg) lists it as masked).
#' * `drop()` removes a tensor's extents of length 1, as base R's does of
#'   an array's (`drop(x %*% b)` of a 3 x 2 `x` is a vector of 3), recorded
#'   on tapes.
#' * `log(x, base)` with a tensor `base` is `log(x) / log(base)` as in base
#'   R, its gradient reaching the base, also where `x` is R data (base R's
#'   `log()` dispatches on `x` only, so pycg gives its own).
#' * `marginSums()` (`margin.table()`) and `proportions()` (`prop.table()`)
#'   give base R's answer as a tensor recorded on tapes (base R's own put a
#'   tensor's class on a plain R vector); a margin sum of one axis is an R
#'   vector, where base R gives a 1-d array.
#' * `is.double()`, `is.integer()` and `is.logical()` give R's type of the
#'   values a tensor holds (that of `as.array(x)`), `match()` and `%in%`
#'   base R's answer on its values (positions are not differentiable), and
#'   `mapply()` over tensors hands `FUN` their elements as tensors and
#'   combines the results into one tensor, recorded on tapes. Base R never
#'   dispatches them (nor those above) on a tensor, so pycg gives its own, as
#'   for `c()`: each sends every call without a tensor to base R's
#'   (library(pycg) lists them as masked).
#' * `unclass()` and `storage.mode<-` of a tensor give its values as an R
#'   array, as `as.array()` does (the storage mode then changed as base R
#'   changes an array's). Off a tape that is base R's answer; where a
#'   recording tape differentiates through the tensor, they stop with an
#'   error naming the call, since the R numbers would leave the tape and
#'   drop a term of the gradient (use [op_stop_gradient()] first to mean
#'   it). pycg gives its own as for `c()` (library(pycg) lists them as
#'   masked).
#' * `head()` and `tail()`: the first or last `n` elements of a vector, rows
#'   of a matrix or array; a negative `n` all but the last or first `-n`.
#' * order: `sort()`, `rev()` (on R's column-major order of the elements),
#'   `range()`; `order()` (through `xtfrm()`: on a tape, of
#'   `op_stop_gradient(x)`), `rank()`, `which()`, `which.max()` and
#'   `which.min()` give base R's R integers, as on `as.array(x)`
#'   (positions are not differentiable); `which()` and
#'   friends are S4 methods for tensors, as `diag()` is, so every other
#'   value keeps base R's function.
#' * matrices: `t()` (a vector is a one-row matrix), `aperm()` (of an
#'   array: a vector or a number stops, as in base R), `diag()` (of a
#'   matrix its diagonal, of a vector the diagonal matrix, of one number
#'   the identity, with `nrow` and `ncol` as in base R), `rowSums()`,
#'   `colSums()`, `rowMeans()`, `colMeans()`, `pmax()`, `pmin()`; the
#'   products and linear algebra are in [tensor-linalg], the statistics in
#'   [tensor-stats]. Those that base R does not make generic (`diag`, the
#'   row/column sums and means, `pmax`, `pmin`) are given by pycg:
#'   `diag()` and the row/column sums and means as S4 methods for tensors
#'   (as Matrix gives them for its matrices), so that base matrices keep
#'   base R's results and Matrix's matrices Matrix's, whichever of Matrix
#'   and pycg is attached first; `pmax()` and `pmin()` pass every value
#'   that is not a tensor to what the name meant before pycg was attached
#'   (the next definition on the search path, else base R's), and
#'   library(pycg) lists them as masked.
#' * a comparison whose result is a single value gives an R logical, so
#'   `if (x > 1)` and `isTRUE(x == y)` work on scalar tensors; longer
#'   results stay boolean tensors.
#'
#' @param x,a Tensors (or R values).
#' @param ... Further arguments, as for the base R function.
#' @param na.rm If `TRUE`, skip `NaN` (R's `NA` in a double vector).
#' @param decreasing For `sort()`: largest first.
#' @param trim For `mean()`: the fraction (0 to 0.5) of elements cut from
#'   each end, as in base R.
#' @param deparse.level For `cbind()`/`rbind()`: unused (they stop, naming
#'   the ops to use).
#' @param na.last For `sort()`: as in base R, `NA` drops the `NA`s (`NaN`s),
#'   `TRUE` puts them last, `FALSE` first.
#' @param perm For `aperm()`: the permutation of the axes, 1-based.
#' @param n For `head()` and `tail()`: the number of elements (rows for a
#'   matrix); negative: all but that many.
#' @param dims For the row/column sums and means: as in base R (1 only).
#' @param object For `summary()` and `str()`: a tensor.
#' @param mode For `as.vector()`: as in base R.
#' @param recursive For `anyNA()`: ignored (a tensor holds no lists).
#' @param nrow,ncol,names For `diag()` of a base R value: as in base R.
#' @return Tensors, or R values as described above.
#' @name tensor-base
#' @aliases c log drop marginSums margin.table proportions prop.table is.double is.integer is.logical match %in% mapply matrix array sweep mahalanobis unclass storage.mode<-
#' @examplesIf pycg_available()
#' x <- op_convert_to_tensor(c(3, NA, 1))
#' is.na(x)
#' sum(x, na.rm = TRUE)
#' m <- op_convert_to_tensor(matrix(1:6 + 0, 2, 3))
#' rowSums(m)
#' crossprod(m)
#' if (sum(m) > 20) "large"
NULL

is_tensor <- function(x) inherits(x, "pycg.tensor.Tensor")

# ---- missing values ------------------------------------------------------------

#' @rdname tensor-base
#' @export
is.na.pycg.tensor.Tensor <- function(x) r_logicals(na_of(x) %||% r_is_na(x))

#' @rdname tensor-base
#' @export
is.nan.pycg.tensor.Tensor <- function(x) r_logicals(r_is_nan(x))

#' @rdname tensor-base
#' @export
is.finite.pycg.tensor.Tensor <- function(x) {
  r_logicals(op_call("isfinite", x))
}

#' @rdname tensor-base
#' @export
is.infinite.pycg.tensor.Tensor <- function(x) r_logicals(op_call("isinf", x))

# A boolean tensor as the R logicals base R's is.na() & co. give (dims
# kept), which base R's own code indexes R vectors with (rank(), ...); a
# traced one, which has no values yet, stays a tensor.
r_logicals <- function(t) tryCatch(r_value(t), error = function(e) t)

#' @rdname tensor-base
#' @export
anyNA.pycg.tensor.Tensor <- function(x, recursive = FALSE) {
  as.logical(op_call("any", op_call("isnan", x)))
}

# ---- conversion ------------------------------------------------------------------

#' @rdname tensor-base
#' @export
as.vector.pycg.tensor.Tensor <- function(x, mode = "any") {
  # (R integers, logicals and text: their derivative is 0, nothing is lost)
  kept <- mode %in% c("integer", "logical", "character", "raw")
  as.vector(tensor_to_r(x, if (!kept) "as.vector"), mode)
}

#' @rdname tensor-base
#' @export
as.matrix.pycg.tensor.Tensor <- function(x, ...) {
  as.matrix(tensor_to_r(x, "as.matrix"), ...)
}

#' @rdname tensor-base
#' @export
str.pycg.tensor.Tensor <- function(object, ...) {
  cat(tensor_header(object), "\n")
  utils::str(r_value(object), ...)
}

#' @rdname tensor-base
#' @export
summary.pycg.tensor.Tensor <- function(object, ...) {
  # (a matrix: base R's table of its columns)
  summary(r_value(object, "summary"), ...)
}

#' @rdname tensor-base
#' @export
head.pycg.tensor.Tensor <- function(x, n = 6L, ...) keep_ends(x, n, "head")

#' @rdname tensor-base
#' @importFrom utils tail
#' @export
tail.pycg.tensor.Tensor <- function(x, n = 6L, ...) keep_ends(x, n, "tail")

# head() or tail() as base R: the first (last) n elements of a vector, rows
# of a matrix or array; a negative n all but the last (first) -n.
keep_ends <- function(x, n, what) {
  if (!is.numeric(n) || length(n) != 1L || is.na(n))
    stop(what, "() of a tensor: `n` must be one number (of rows for a ",
         "matrix); use ", what, "(as.array(x), n) for base R's other forms",
         call. = FALSE)
  d <- tensor_dim(x)
  extent <- if (length(d)) d[1L] else 1L
  n <- trunc(n)
  keep <- if (n < 0) max(extent + n, 0) else min(n, extent)
  if (keep == extent) return(x)
  at <- if (what == "head") seq_len(keep) else
    seq.int(to = extent, length.out = keep)
  if (length(d) < 2L) return(x[at])
  index <- rep(list(quote(expr = )), length(d))
  do.call(`[`, c(list(x, at), index[-1L], list(drop = FALSE)))
}

# ---- order ---------------------------------------------------------------------------

# A tensor's elements in R's column-major order, as a 1-d tensor.
r_order_vector <- function(x) {
  if (length(dim(x)) > 1L) x <- op_call("transpose", x)
  op_call("reshape", x, list(-1L))
}

#' @rdname tensor-base
#' @export
sort.pycg.tensor.Tensor <- function(x, decreasing = FALSE, na.last = NA,
                                    ...) {
  x <- r_order_vector(na_as_nan(x))
  missing <- is.na(x)
  values <- op_call("sort", x[!missing, drop = FALSE])
  if (isTRUE(decreasing)) values <- op_call("flip", values)
  if (is.na(na.last) || !anyNA(x)) return(values)
  nas <- x[missing, drop = FALSE]
  op_call("concatenate", if (isTRUE(na.last)) list(values, nas) else
    list(nas, values))
}

#' @rdname tensor-base
#' @export
rev.pycg.tensor.Tensor <- function(x) {
  if (!length(x)) return(x)   # as base R: x itself, dims kept
  na_through(x, function(t) op_call("flip", r_order_vector(t)))
}

#' @rdname tensor-base
#' @export
range.pycg.tensor.Tensor <- function(..., na.rm = FALSE) {
  r_summary("range", list(...), na.rm)
}

#' @rdname tensor-base
#' @export
aperm.pycg.tensor.Tensor <- function(a, perm = NULL, ...) {
  rank <- length(tensor_dim(a))
  if (rank < 2L)
    stop("aperm(): invalid first argument, must be an array (a tensor of ",
         rank, " axes is an R ", if (rank) "vector" else "number",
         " to base R)", call. = FALSE)
  axes <- if (is.null(perm)) NULL else as_axis(perm)
  na_through(a, function(t) op_call("transpose", t, axes = axes))
}

#' @rdname tensor-base
#' @export
mean.pycg.tensor.Tensor <- function(x, trim = 0, na.rm = FALSE, ...) {
  if (!is.numeric(trim) || length(trim) != 1L || is.na(trim))
    stop("mean(): `trim` must be a number from 0 to 0.5", call. = FALSE)
  x <- r_as_double(x, "mean")
  if (trim <= 0 || !length(x)) return(reduce_na(x, "mean", na.rm))
  if (isTRUE(na.rm)) x <- x[!is.na(x)]
  else if (anyNA(x)) return(op_call("full_like", op_call("sum", x), NA_real_))
  if (trim >= 0.5) return(median(x))
  n <- length(x)
  lo <- floor(n * trim)
  op_call("mean", sort(x)[(lo + 1L):(n - lo)])
}

# The reduction `op` of x over all axes; its NaN-skipping form with na.rm.
reduce_na <- function(x, op, na.rm) {
  if (!is.logical(na.rm) || length(na.rm) != 1L || is.na(na.rm))
    stop("`na.rm` must be TRUE or FALSE", call. = FALSE)
  op_call(if (na.rm) paste0("nan", op) else op, x)
}

# ---- the base functions R does not make generic --------------------------------------
# diag(), the row/column sums and means, crossprod() and tcrossprod() get S4
# methods for tensors (as Matrix gives its matrices): every other value goes
# to base R's function, or to Matrix's methods, in whichever order the
# packages are attached, since S4 methods of one generic from several
# packages are merged. pmax() and pmin(), whose S4 generic would dispatch on
# `...`, are plain functions that take a tensor to its op and anything else
# to what the name meant before pycg was attached.

#' @importFrom methods setMethod setOldClass
NULL

setOldClass("pycg.tensor.Tensor")
setOldClass(c("pycg.tensor.Variable", "pycg.tensor.Tensor"))

#' @rdname tensor-base
#' @export
setMethod("diag", "pycg.tensor.Tensor",
          function(x = 1, nrow, ncol, names = TRUE) {
  d <- tensor_dim(x)
  if (length(d) > 2L)
    stop("diag(): 'x' is an array, but not one-dimensional (a tensor of ",
         length(d), " axes)", call. = FALSE)
  if (length(d) == 2L) {
    if (!missing(nrow) || !missing(ncol))
      stop("diag(): 'nrow' or 'ncol' cannot be specified when 'x' is a ",
           "matrix", call. = FALSE)
    return(op_call("diagonal", x))
  }
  if (length(x) == 1L && missing(nrow) && missing(ncol)) {
    size <- as.integer(x)   # the identity matrix, as base R
    if (is.na(size) || size < 0L)
      stop("diag(): invalid 'nrow' value (", size, ")", call. = FALSE)
    return(op_eye(size, dtype = "float64"))
  }
  tensor_diag(x, if (!missing(nrow)) nrow, if (!missing(ncol)) ncol)
})

# The nrow x ncol matrix with x (recycled) on its diagonal, as base R.
tensor_diag <- function(x, nrow, ncol) {
  if (!length(x))
    stop("diag(): 'x' must have positive length", call. = FALSE)
  n <- as.integer(nrow %||% length(x))
  p <- as.integer(ncol %||% n)
  m <- min(n, p)
  v <- r_order_vector(x)
  if (m != length(x))
    v <- op_call("take", v, r_array(array((seq_len(m) - 1L) %% length(x))))
  out <- op_call("diag", v)
  if (n == m && p == m) return(out)
  op_call("pad", out, list(list(0L, n - m), list(0L, p - m)))
}

#' @rdname tensor-base
#' @export
setMethod("rowSums", "pycg.tensor.Tensor",
          function(x, na.rm = FALSE, dims = 1L) {
  axis_reduce(x, "sum", 1L, na.rm)
})

#' @rdname tensor-base
#' @export
setMethod("colSums", "pycg.tensor.Tensor",
          function(x, na.rm = FALSE, dims = 1L) {
  axis_reduce(x, "sum", 0L, na.rm)
})

#' @rdname tensor-base
#' @export
setMethod("rowMeans", "pycg.tensor.Tensor",
          function(x, na.rm = FALSE, dims = 1L) {
  axis_reduce(x, "mean", 1L, na.rm)
})

#' @rdname tensor-base
#' @export
setMethod("colMeans", "pycg.tensor.Tensor",
          function(x, na.rm = FALSE, dims = 1L) {
  axis_reduce(x, "mean", 0L, na.rm)
})

# A matrix's row (keep axis 0, reduce 1) or column (reduce 0) reduction.
axis_reduce <- function(x, op, axis, na.rm) {
  if (length(dim(x)) != 2L)
    stop("rowSums()/colSums()/rowMeans()/colMeans() of a tensor need a ",
         "matrix (2 axes); got ", length(tensor_dim(x)), " axes", call. = FALSE)
  if (!is.logical(na.rm) || length(na.rm) != 1L || is.na(na.rm))
    stop("`na.rm` must be TRUE or FALSE", call. = FALSE)
  op_call(if (na.rm) paste0("nan", op) else op, r_as_double(x), axis = axis)
}

# The next function called `name` on the search path after package:pycg,
# else base's: what the name meant without pycg.
masked <- function(name) {
  path <- search()
  at <- match("package:pycg", path)
  if (!is.na(at)) {
    for (env in path[-seq_len(at)]) {
      f <- get0(name, envir = as.environment(env), mode = "function",
                inherits = FALSE)
      if (!is.null(f)) return(f)
    }
  }
  get(name, envir = baseenv(), mode = "function")
}

# masked(name) called with `args` and those of the named arguments given
# (NULL: not given, since some functions read missing()).
pass_on <- function(name, args, ...) {
  given <- Filter(Negate(is.null), list(...))
  do.call(masked(name), c(args, given))
}

#' @rdname tensor-base
#' @export
pmax <- function(..., na.rm = FALSE) {
  args <- list(...)
  if (!any(vapply(args, is_tensor, TRUE)))
    return(pass_on("pmax", args, na.rm = if (!missing(na.rm)) na.rm))
  r_parallel("pmax", args, na.rm)
}

#' @rdname tensor-base
#' @export
pmin <- function(..., na.rm = FALSE) {
  args <- list(...)
  if (!any(vapply(args, is_tensor, TRUE)))
    return(pass_on("pmin", args, na.rm = if (!missing(na.rm)) na.rm))
  r_parallel("pmin", args, na.rm)
}
