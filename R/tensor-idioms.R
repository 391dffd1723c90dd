# More base R functions on tensors: each gives base R's answer on the
# tensor's values, or an error that names the way out (see ?tensor-base).

#' @rdname tensor-base
#' @method quantile pycg.tensor.Tensor
#' @rawNamespace S3method(stats::quantile, pycg.tensor.Tensor)
quantile.pycg.tensor.Tensor <- function(x, ...) {
  stop("quantile() of a tensor: use op_quantile(x, probs) for a tensor ",
       "(R's type 7, recorded on tapes), or quantile(as.array(x), ...) for ",
       "R's named vector", call. = FALSE)
}

#' @rdname tensor-base
#' @export
cbind.pycg.tensor.Tensor <- function(..., deparse.level = 1) {
  stop_bind("cbind", "2")
}

#' @rdname tensor-base
#' @export
rbind.pycg.tensor.Tensor <- function(..., deparse.level = 1) {
  stop_bind("rbind", "1")
}

stop_bind <- function(what, axis) {
  stop(what, "() of tensors: use op_stack(list(a, b), axis = ", axis,
       ") for vectors or op_concatenate(list(a, b), axis = ", axis,
       ") for matrices (a tensor, recorded on tapes), or ", what,
       "(as.array(a), as.array(b)) for an R matrix", call. = FALSE)
}

#' @rdname tensor-base
#' @method c pycg.tensor.Tensor
#' @export
c.pycg.tensor.Tensor <- function(...) tensor_c(...)

# c() with a tensor anywhere in it (base R's c() dispatches on its first
# argument only, so c(5, x) and c(NULL, x) would make a list): numbers,
# logicals and tensors concatenate into one tensor in R's order, recorded on
# tapes; beside lists a tensor is one element, beside strings (and other
# objects) its R values, as base R's c() of its plain data. It is put on
# the search path as `c` when the package is attached (see .onAttach): the
# package's own code keeps base R's c().
r_c <- function(...) {
  out <- base::c(...)
  if (is.list(out))   # (a tensor after the first argument makes a list)
    for (a in list(...))
      if (inherits(a, "pycg.tensor.Tensor")) return(tensor_c(...))
  out
}

tensor_c <- function(...) {
  args <- list(...)
  given <- names(args) %||% rep("", length(args))
  args <- args[!given %in% c("recursive", "use.names") &
                 !vapply(args, is.null, NA)]
  numbers <- vapply(args, function(a) is_tensor(a) || (is.atomic(a) &&
    (is.numeric(a) || is.logical(a)) && !is.object(a)), NA)
  if (!all(numbers)) {  # a tensor in a list stays one element of it
    listed <- any(vapply(args, is.list, NA))
    return(do.call(base::c, lapply(args, function(a) if (!is_tensor(a)) a
                                   else if (listed) list(a) else r_value(a))))
  }
  parts <- lapply(args, function(a) r_operand(if (is_tensor(a)) a else
    as.vector(a), "c"))
  with_na(py_call(interop()$r_concat, lapply(parts, `[[`, "value"),
                  lapply(parts, function(p) p$na),
                  lapply(parts, function(p) p$weak == 1L)))
}

#' @rdname tensor-base
#' @export
is.numeric.pycg.tensor.Tensor <- function(x) {
  tensor_kind(x) %in% c("i", "u", "f")
}

#' @rdname tensor-base
#' @export
is.matrix.pycg.tensor.Tensor <- function(x) length(tensor_dim(x)) == 2L

#' @rdname tensor-base
#' @export
is.array.pycg.tensor.Tensor <- function(x) length(tensor_dim(x)) >= 2L

#' @rdname tensor-base
#' @param lag,differences For `diff()`: as in base R (`lag` 1 only).
#' @param incomparables For `unique()`: unused (it stops).
#' @export
diff.pycg.tensor.Tensor <- function(x, lag = 1L, differences = 1L, ...) {
  if (!identical(as.numeric(lag), 1))
    stop("diff() of a tensor takes lag = 1 only; use ",
         "diff(as.array(x), lag) for R's values", call. = FALSE)
  if (length(differences) != 1L || is.na(differences) || differences < 1 ||
      differences != trunc(differences))
    stop("diff(): `differences` must be a whole number from 1",
         call. = FALSE)
  # a matrix differences its rows, anything else R's order of elements
  x <- na_as_nan(x)
  if (length(dim(x)) != 2L) x <- r_order_vector(x)
  r_diff(x, differences)
}

#' @rdname tensor-base
#' @export
rep.pycg.tensor.Tensor <- function(x, ...) {
  # base R repeats the positions (times, each, length.out and its errors),
  # the elements are gathered at them, on tapes
  at <- rep(seq_len(length(x)), ...)
  if (!length(x) && !length(at)) return(x)   # (base R: x as it is, dims kept)
  x[at]
}

#' @rdname tensor-base
#' @export
unique.pycg.tensor.Tensor <- function(x, incomparables = FALSE, ...) {
  stop("unique() of a tensor: use unique(as.array(x)) for R's values ",
       "(no op keeps R's order of first appearance)", call. = FALSE)
}

#' @rdname tensor-base
#' @export
as.character.pycg.tensor.Tensor <- function(x, ...) {
  as.character(tensor_to_r(x))
}

# A tensor has no names (as an R vector without them); reticulate's names()
# of a Python object (its attributes) misleads outer(), %o% and friends.
#' @rdname tensor-base
#' @export
names.pycg.tensor.Tensor <- function(x) NULL

#' @rdname tensor-base
#' @param target,current For `all.equal()`: tensors or R values, compared
#'   by their values as base R compares arrays.
#' @method all.equal pycg.tensor.Tensor
#' @export
all.equal.pycg.tensor.Tensor <- function(target, current, ...) {
  all.equal(r_value(target), r_value(current), ...)
}

# testthat's expect_equal() (waldo) compares tensors by their values too.
#' @rawNamespace S3method(waldo::compare_proxy, pycg.tensor.Tensor)
compare_proxy.pycg.tensor.Tensor <- function(x, path) {
  list(object = r_value(x), path = sprintf("as.array(%s)", path))
}

# A tensor's R value; a 1-d one as the R vector it came from. `leaving`:
# as for tensor_to_r().
r_value <- function(x, leaving = NULL) {
  if (!is_tensor(x)) return(x)
  value <- tensor_to_r(x, leaving)
  if (length(dim(value)) == 1L) as.vector(value) else value
}

#' @rdname tensor-base
#' @param z For the Complex group: a tensor.
#' @export
Complex.pycg.tensor.Tensor <- function(z) r_complex(.Generic, z)

# The kind of a tensor's dtype: "f", "i", "u", "b" or "c".
tensor_kind <- function(t) {
  py_to_r(py_get_attr(py_attr(t, "dtype"), "kind"))
}

# ---- positions and order: base R's answer on the tensor's values ------------
# which(), which.max() and which.min() answer with R integers (positions are
# not differentiable), as base R does on as.array(x); base R makes none of
# them generic, so they are S4 methods for tensors, as diag() is
# (R/tensor-base.R): every other value reaches base R's function. order(),
# rank() and sort.int() read a tensor through xtfrm().

#' @rdname tensor-base
#' @param arr.ind,useNames For `which()`: as in base R.
#' @export
setMethod("which", "pycg.tensor.Tensor",
          function(x, arr.ind = FALSE, useNames = TRUE) {
  base::which(r_value(x), arr.ind = arr.ind, useNames = useNames)
})

#' @rdname tensor-base
#' @export
setMethod("which.max", "pycg.tensor.Tensor", function(x) {
  base::which.max(as.vector(tensor_to_r(x)))   # (a position)
})

#' @rdname tensor-base
#' @export
setMethod("which.min", "pycg.tensor.Tensor", function(x) {
  base::which.min(as.vector(tensor_to_r(x)))
})

#' @rdname tensor-base
#' @export
xtfrm.pycg.tensor.Tensor <- function(x) xtfrm(r_value(x, "xtfrm"))
