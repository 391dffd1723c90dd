#' Base R's statistics on tensors
#'
#' The statistics base R users write without thinking work on pycg tensors
#' with base R's answer (values, dims, type and NA) as a tensor recorded on
#' gradient tapes, so a likelihood written with them can be differentiated:
#'
#' * `var()`, `cov()`, `cor()` and `sd()` (of all the elements) as base
#'   R's C code computes them: a matrix is its columns, anything else one
#'   column of its elements; `use = "everything"` carries `NA` to the rows
#'   and columns of a column that holds one, `"all.obs"` stops there,
#'   `"complete.obs"` and `"na.or.complete"` (which `na.rm = TRUE` means)
#'   leave out the rows with `NA`; fewer than two observations give `NA`;
#'   `cor()` is `NA` with base R's warning where a column has no spread.
#'   Pearson's only: other methods and `"pairwise.complete.obs"` stop,
#'   naming `cor(as.array(x), ...)`. (`op_var()` is Keras' variance, with
#'   divisor n.)
#' * `median()` (`NA` for no values; of a logical or integer tensor, its
#'   type for an odd count), `scale()` (its attributes `"scaled:center"` and
#'   `"scaled:scale"` are tensors);
#' * `ifelse(test, yes, no)` with a tensor in any of the three: the dims of
#'   `test`, `yes` and `no` recycled as base R recycles them, `NA` where
#'   `test` is `NA`, and base R's type (that of `yes` if any `test` is
#'   `TRUE`, raised to that of `no` if any is `FALSE`); character `yes` or
#'   `no` give base R's character answer;
#' * `apply(X, MARGIN, FUN)` on a matrix or array tensor calls `FUN` on
#'   tensors (each row, column or sub-array), so what `FUN` computes with
#'   `op_*()` functions and the methods for tensors is recorded, and
#'   combines the results as base R does (a vector, a matrix or an array;
#'   a list when their lengths differ); a vector has no dims, so
#'   `apply()` stops there, as base R does;
#' * `rowsum(x, group)`: the sums of the rows by group, of base R's type
#'   (`NA` where an integer sum leaves the integer range), as a matrix
#'   without dimnames;
#' * `tabulate()` gives base R's counts (an R integer vector: counts are not
#'   differentiable).
#'
#' `sd()`, `cov()`, `cor()`, `ifelse()`, `apply()` and `tabulate()` are not generic
#' in base R: pycg gives them S4 methods for tensors, so every other value
#' keeps base R's function. `for (e in x)` cannot be given a method (base R's
#' `for` does not dispatch): loop over `seq_along(x)` and take `x[[i]]`, or
#' over `as.array(x)` for R numbers.
#'
#' @param x,y,X,test,yes,no,bin Tensors, or R values beside a tensor.
#' @param na.rm If `TRUE`, leave `NA` (`NaN`) out.
#' @param center,scale For `scale()`: `TRUE`, `FALSE`, or one value per
#'   column, as in base R.
#' @param use,method For `var()`, `cov()` and `cor()`: as in base R
#'   (`use` one of `"everything"`, `"all.obs"`, `"complete.obs"`,
#'   `"na.or.complete"`; `method` `"pearson"`).
#' @param MARGIN,FUN,simplify For `apply()`: as in base R (`MARGIN` by
#'   number: tensors have no dimnames).
#' @param nbins For `tabulate()`: as in base R.
#' @param ... Passed to `FUN`, or unused.
#' @return Tensors, except `tabulate()`'s counts.
#' @name tensor-stats
#' @examplesIf pycg_available()
#' x <- op_convert_to_tensor(c(3, 1, 2))
#' sd(x)
#' pycg_grad(function(x) sd(x))(x)      # (x - mean(x)) / ((n - 1) sd(x))
#' m <- op_convert_to_tensor(matrix(c(1, 4, 2, 8, 3, 9), 3))
#' ifelse(m > 2, m, 0)
#' apply(m, 2, function(col) sum(col^2))
#' cor(m)
NULL


# ---- var(), cov(), cor(), sd(): base R's stats/src/cov.c
# (pycg/r/base/covariance.py)

#' @rdname tensor-stats
#' @importFrom stats sd
#' @export
setMethod("sd", "pycg.tensor.Tensor", function(x, na.rm = FALSE) {
  check_na_rm(na.rm)
  core_call("r.covariance.sd", r_as_double(x, "sd"),
            if (na.rm) "na.or.complete" else "everything")
})

# var(), cov() or cor() (`what`) of tensors or R data beside them, with
# base R's `use` ("pairwise.complete.obs" and other methods than Pearson's
# stop, naming base R's function on as.array(x)).
r_covariance <- function(what, x, y, use, method = "pearson") {
  uses <- c("all.obs", "complete.obs", "pairwise.complete.obs",
            "everything", "na.or.complete")
  k <- if (is.character(use) && length(use) == 1L) pmatch(use, uses) else NA
  if (is.na(k))
    stop(what, "(): invalid 'use' argument", call. = FALSE)
  if (!identical(method[1L], "pearson") || k == 3L)
    stop(what, "() of tensors takes method = \"pearson\" and use = ",
         "\"everything\", \"all.obs\", \"complete.obs\" or ",
         "\"na.or.complete\"; use ", what, "(as.array(x), ...) for base R's ",
         "other answers", call. = FALSE)
  core_call("r.covariance.covariance", r_as_double(x, what),
            if (!is.null(y)) r_as_double(y, what), what, uses[k])
}

tensor_var <- function(x, y = NULL, na.rm = FALSE, use) {
  check_na_rm(na.rm)
  if (missing(use)) use <- if (na.rm) "na.or.complete" else "everything"
  r_covariance("var", x, y, use)
}

#' @rdname tensor-stats
#' @importFrom stats var
#' @export
setMethod("var", "pycg.tensor.Tensor", tensor_var)

#' @rdname tensor-stats
#' @export
setMethod("var", c("ANY", "pycg.tensor.Tensor"), tensor_var)

tensor_cov <- function(x, y = NULL, use = "everything",
                       method = c("pearson", "kendall", "spearman")) {
  r_covariance("cov", x, y, use, method)
}

#' @rdname tensor-stats
#' @importFrom stats cov
#' @export
setMethod("cov", "pycg.tensor.Tensor", tensor_cov)

#' @rdname tensor-stats
#' @export
setMethod("cov", c("ANY", "pycg.tensor.Tensor"), tensor_cov)

#' @rdname tensor-stats
#' @method median pycg.tensor.Tensor
#' @rawNamespace S3method(stats::median, pycg.tensor.Tensor)
median.pycg.tensor.Tensor <- function(x, na.rm = FALSE, ...) {
  check_na_rm(na.rm)
  with_na(core_call("r.stats.median", na_as_nan(x), na.rm))
}

check_na_rm <- function(na.rm) {
  if (!is.logical(na.rm) || length(na.rm) != 1L || is.na(na.rm))
    stop("`na.rm` must be TRUE or FALSE", call. = FALSE)
}

#' @rdname tensor-stats
#' @export
scale.pycg.tensor.Tensor <- function(x, center = TRUE, scale = TRUE) {
  for (what in c("center", "scale")) {
    v <- get(what)
    if (!(isTRUE(v) || isFALSE(v) || is_tensor(v) ||
          (is.numeric(v) && !anyNA(v))))
      stop("scale(): `", what, "` must be TRUE, FALSE or one number per ",
           "column of `x`", call. = FALSE)
  }
  parts <- core_call("r.stats.scale", na_as_nan(x), as_py(center), as_py(scale))
  out <- parts[[1L]]
  if (!is.null(parts[[2L]])) attr(out, "scaled:center") <- parts[[2L]]
  if (!is.null(parts[[3L]])) attr(out, "scaled:scale") <- parts[[3L]]
  out
}

tensor_cor <- function(x, y = NULL, use = "everything",
                       method = c("pearson", "kendall", "spearman")) {
  r_covariance("cor", x, y, use, method)
}

#' @rdname tensor-stats
#' @importFrom stats cor
#' @export
setMethod("cor", "pycg.tensor.Tensor", tensor_cor)

#' @rdname tensor-stats
#' @export
setMethod("cor", c("ANY", "pycg.tensor.Tensor"), tensor_cor)

# ---- ifelse() --------------------------------------------------------------------

# ifelse() with a tensor among test, yes and no: R's rules in
# pycg/r/base/replace.py (r_ifelse()); character values give base R's answer.
tensor_ifelse <- function(test, yes, no) {
  numbers <- function(v) is_tensor(v) || ((is.numeric(v) || is.logical(v)) &&
                                            !is.object(v))
  if (!numbers(yes) || !numbers(no))
    return(base::ifelse(r_value_of(test), r_value_of(yes), r_value_of(no)))
  if (!is_tensor(test) && is.atomic(test) && !is.numeric(test) &&
      !is.logical(test))
    test <- as.logical(test)   # as base R: storage.mode(test) <- "logical"
  r_ifelse(test, yes, no)
}

# A tensor or R value as R data (a tensor's NA mask as NA).
r_value_of <- function(v) if (is_tensor(v)) r_value(v) else v

#' @rdname tensor-stats
#' @export
setMethod("ifelse", "pycg.tensor.Tensor", tensor_ifelse)

#' @rdname tensor-stats
#' @export
setMethod("ifelse", c("ANY", "pycg.tensor.Tensor"), tensor_ifelse)

#' @rdname tensor-stats
#' @export
setMethod("ifelse", c("ANY", "ANY", "pycg.tensor.Tensor"), tensor_ifelse)

# ---- apply() and tabulate() -------------------------------------------------------

#' @rdname tensor-stats
#' @export
setMethod("apply", "pycg.tensor.Tensor",
          function(X, MARGIN, FUN, ..., simplify = TRUE) {
  FUN <- match.fun(FUN)
  d <- tensor_dim(X)
  if (length(d) < 2L)
    stop("apply(): dim(X) must have a positive length (a tensor of ",
         length(d), " axes is an R ", if (length(d)) "vector" else "number",
         " to base R); use sapply(seq_along(x), function(i) FUN(x[[i]])) ",
         "or an op_*() function", call. = FALSE)
  if (!is.numeric(MARGIN) || !length(MARGIN) || anyNA(MARGIN) ||
      any(MARGIN < 1 | MARGIN > length(d) | MARGIN != trunc(MARGIN)) ||
      anyDuplicated(MARGIN))
    stop("apply(): 'MARGIN' does not match dim(X) (", length(d), " axes); ",
         "give axes by number (tensors have no dimnames)", call. = FALSE)
  if (!prod(d[MARGIN])) return(apply_empty(X, MARGIN, FUN, ...))
  results <- lapply(core_call("r.stats.slices", X, as_int(MARGIN - 1L)),
                    function(s) FUN(s, ...))
  lens <- vapply(results, length, 1L)
  if (!isTRUE(simplify) || !length(results) || any(lens != lens[1L]) ||
      any(vapply(results, function(r) !is_tensor(r) && is.recursive(r), NA)))
    return(results)
  d.ans <- d[MARGIN]
  d2 <- prod(d.ans)
  len.a <- lens[1L] * d2
  dims <- if (length(MARGIN) == 1L && len.a == d2) d2 else
    if (len.a == d2) d.ans else
      if (len.a && len.a %% d2 == 0L) c(len.a %/% d2, d.ans) else len.a
  if (!any(vapply(results, is_tensor, NA))) {
    out <- unlist(results)
    return(if (length(dims) > 1L) array(out, dims) else out)
  }
  core_call("r.stats.combine", lapply(results, as_py),
            as.list(as.integer(dims)))
})

# apply() over an empty margin, as base R: FUN of one slice of zeros (of
# X's type) tells the type of the empty answer.
apply_empty <- function(X, MARGIN, FUN, ...) {
  d <- tensor_dim(X)
  inner <- d[-MARGIN]
  dtype <- py_to_r(py_get_attr(py_attr(X, "dtype"), "name"))
  dummy <- op_call("zeros", as_shape(prod(inner)), dtype = dtype)
  if (length(inner) > 1L) dim(dummy) <- inner
  ans <- FUN(dummy, ...)
  if (is.null(ans)) return(ans)
  if (length(MARGIN) < 2L) ans[1L][-1L] else array(ans, d[MARGIN])
}

#' @rdname tensor-stats
#' @param group,reorder For `rowsum()`: as in base R.
#' @export
rowsum.pycg.tensor.Tensor <- function(x, group, reorder = TRUE,
                                      na.rm = FALSE, ...) {
  if (!is.numeric(x))
    stop("rowsum(): 'x' must be numeric", call. = FALSE)
  check_na_rm(na.rm)
  d <- tensor_dim(x)
  group <- r_value_of(group)
  if (length(group) != (if (length(d) > 1L) d[1L] else length(x)))
    stop("rowsum(): incorrect length for 'group'", call. = FALSE)
  if (anyNA(group)) warning("missing values for 'group'", call. = FALSE)
  groups <- unique(group)
  if (reorder) groups <- sort(groups, na.last = TRUE, method = "quick")
  core_call("r.stats.rowsum", na_as_nan(x),
            as_py(array(match(group, groups) - 1L)), length(groups), na.rm)
}

#' @rdname tensor-stats
#' @export
setMethod("tabulate", "pycg.tensor.Tensor",
          function(bin, nbins = max(1L, bin, na.rm = TRUE)) {
  bin <- as.vector(tensor_to_r(bin))   # (counts: a derivative of 0)
  if (missing(nbins)) base::tabulate(bin) else base::tabulate(bin, nbins)
})
