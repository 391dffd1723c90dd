# R's NA through the operators on tensors (pycg/r/na.py is the Python half).
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

# A result of pycg/r/na.py: a tensor, or list(tensor, its NA mask).
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

# x with NaN where its mask says NA (the input of arithmetic and sums).
na_as_nan <- function(x) {
  na <- na_of(x)
  if (is.null(na)) x else core_call("r.na.as_nan", x, na)
}

# e1 <op> e2 for R's comparison (`==`, `<`, ...) and logical (`&`, `|`)
# operators, with the NA mask of the result.
na_compare <- function(op, e1, e2) {
  kind <- if (op %in% c("logical_and", "logical_or")) "r.na.logical" else
    "r.na.compare"
  with_na(core_call(kind, op, as_py(e1), as_py(e2), na_of(e1), na_of(e2)))
}

# all() or any() of one tensor, R's NA included.
na_reduce <- function(op, x, na.rm) {
  with_na(core_call("r.na.reduce", op, as_py(x), na_of(x), na.rm))
}

# An R index for `[`: a tensor with NAs as its R logical vector.
r_index <- function(i) {
  if (is.list(i))
    stop("`[`: a list is not an index (base R refuses it too); use a ",
         "vector of positions, a logical vector or a matrix", call. = FALSE)
  if (is.character(i))
    stop("`[`: tensors have no names; index by position or logical",
         call. = FALSE)
  if (is_tensor(i) && !is.null(na_of(i))) tensor_to_r(i) else i
}

# x[i] for a single R index with NAs: NA where i is NA, as in base R.
subset_with_na <- function(x, i, drop) {
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
