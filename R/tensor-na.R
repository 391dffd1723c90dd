# R's NA through the operators on tensors (pycg/r/base/na.py is the Python
# half).
#
# A boolean tensor has no NA: NaN > 0 is FALSE in a tensor. R's comparison
# and logical operators on tensors therefore keep, beside a result that has
# NAs, a mask (a boolean tensor, TRUE where R's answer is NA) as the
# attribute "pycg_na" of the R handle of the result. Everything that takes
# a tensor into R (tensor_to_r(), so as.logical(), print(), `if`) puts NA
# there; all() and any() follow R's three-valued logic; arithmetic and
# sums read NA as NaN; `[` selects NA for an NA index, as base R does.

na_of <- function(x) {
  if (is_tensor(x)) attr(x, "pycg_na", exact = TRUE)
}

# A result of pycg/r/base/na.py: a tensor, or list(tensor, its NA mask).
with_na <- function(res) {
  if (is_tensor(res)) return(res)
  out <- res[[1L]]
  if (!is.null(res[[2L]])) attr(out, "pycg_na") <- res[[2L]]
  out
}

# f(x) for a tensor x that may carry an NA mask: the mask goes through f
# too (subsetting, transposing, reversing, reshaping a comparison's result).
na_through <- function(x, f) {
  out <- f(x)
  na <- na_of(x)
  if (is.null(na)) out else with_na(list(out, f(na)))
}

# x as doubles with NA where its mask says NA (for arithmetic and sums in R
# code).
na_as_nan <- function(x) {
  na <- na_of(x)
  if (is.null(na)) x else core_call("r.na.as_nan", x, na)
}

# x (a tensor or R data) as a double tensor, NA kept, as base R's
# crossprod() and colSums() see integers and logicals.
r_as_double <- function(x, what = "as.double") {
  a <- r_operand(x, what)
  py_call(interop()$r_as_double, a$value, a$na)
}

# is.na(): NA or NaN (an integer's NA is R's bit pattern of NA_integer_).
r_is_na <- function(x) core_call("r.na.is_missing", x)

# is.nan(): NaN, but not R's NA (a double's NA is a NaN with R's payload).
r_is_nan <- function(x) {
  if (!is.null(na_of(x))) return(op_call("zeros_like", x))
  core_call("r.na.is_nan", x)
}

# One operand of R's operators (and of the Summary group, pmax(), ...) as
# list(value, na, weak): a tensor with its NA mask, or R data for
# pycg/r/base/semantics.py, NA kept (an integer NA as its bits, R's
# NA_integer_; a logical one as FALSE and a mask), weak = 1 for R data
# (which takes a float tensor's dtype beside it).
r_operand <- function(x, what) {
  if (is_tensor(x)) return(list(value = x, na = na_of(x), weak = 0L))
  if (is.object(x) && !is.matrix(x) || is.list(x) ||
      !(is.numeric(x) || is.logical(x) || is.complex(x)))
    stop("`", what, "`: a tensor meets numbers, logicals and other tensors, ",
         "not ", describe_input(x), "; use as.array() on the tensor for ",
         "base R's ", what, call. = FALSE)
  na <- NULL
  if (anyNA(x) && is.logical(x)) {
    na <- as_py(is.na(x))
    x[is.na(x)] <- FALSE
  }
  value <- if (anyNA(x) && is.integer(x)) {
    shape <- dim(x) %||% (if (length(x) == 1L) integer() else length(x))
    stats::setNames(list(writeBin(as.vector(x), raw(), size = 4L,
                                  endian = "little"), as.list(shape),
                         "integer"), c("__pycg_r_array__", "shape", "kind"))
  } else as_py(x)
  list(value = value, na = na, weak = 1L)
}

# An R index for `[`: a tensor with NAs as its R logical vector.
r_index <- function(i) {
  if (is.list(i))
    stop("`[`: a list is not an index (base R refuses it too); use a ",
         "vector of positions, a logical vector or a matrix", call. = FALSE)
  if (is.character(i))
    stop("`[`: tensors have no names; index by position or logical",
         call. = FALSE)
  # a tensor index follows the rules of the R index it holds (a matrix of
  # coordinates, logicals, positions); one being traced stays a tensor
  if (is_tensor(i)) tryCatch(tensor_to_r(i), error = function(e) i) else i
}

# x[i] for a single R index with NAs: NA where i is NA, as in base R.
subset_with_na <- function(x, i, drop) {
  if (!length(x))   # every position is past the end: NA
    return(with_na(core_call("r.replace.nas", x, if (is.logical(i))
      sum(i | is.na(i)) else sum(is.na(i) | i >= 1))))
  if (is.logical(i)) {
    if (length(i) > length(x))
      stop("`[`: logical index of length ", length(i), " for ", length(x),
           " elements", call. = FALSE)
    i <- rep_len(i, length(x))
    keep <- i | is.na(i)
    missing <- is.na(i)[keep]
    at <- which(keep)
  } else {
    if (any(i < 0, na.rm = TRUE))
      stop("`[`: can't mix negative subscripts and NA", call. = FALSE)
    i <- i[is.na(i) | i >= 1]
    missing <- is.na(i)
    at <- ifelse(missing, 1, i)
  }
  out <- py_call(interop()$r_subset, x, list(as_py(as.double(at))), drop)
  with_na(core_call("r.na.fill", out, as_py(missing)))
}
