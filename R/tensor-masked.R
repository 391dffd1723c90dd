# Base R functions that never dispatch on a tensor, given by pycg.
#
# c() and log() dispatch on their first argument only (log(x, base =
# tensor) of an R x is base R's, which refuses the tensor); drop(),
# is.double(), is.integer(), is.logical(), match() and %in% are not generic
# at all (match() stops at any argument that is not an R vector);
# marginSums() and proportions() (margin.table(), prop.table()) put their
# argument's class on the plain R vector base R's apply() makes; and
# mapply() hands FUN the elements of a tensor as tensors, then cannot
# simplify their results; matrix(), array(), sweep() (array() of its STATS)
# and mahalanobis() (matrix(), as.matrix(), sweep()) would make a tensor R
# numbers, which is an error on a tape (tensor_to_r()). So
# pycg puts its own on the search path when the package is attached (see
# .onAttach; library(pycg) lists them as masked): each sends every call
# without a tensor straight to base R's function, and gives base R's answer
# on the tensors' values otherwise. The package's own code keeps base R's.

# The functions .onAttach puts on the search path, by name.
attached_functions <- function() {
  list(c = r_c, log = r_log, drop = r_drop, is.double = r_is_type("double"),
       is.integer = r_is_type("integer"), is.logical = r_is_type("logical"),
       match = r_match, `%in%` = r_in, mapply = r_mapply,
       marginSums = r_margin_sums, margin.table = r_margin_sums,
       proportions = r_proportions, prop.table = r_proportions,
       matrix = r_matrix, array = r_array_of, sweep = r_sweep,
       mahalanobis = r_mahalanobis, unclass = r_unclass,
       `storage.mode<-` = r_storage_mode)
}

# unclass() and `storage.mode<-` of a tensor: its values as an R array
# (tensor_to_r(), as as.array() and as.vector() give them), the storage mode
# then changed as base R changes an array's. Where a recording tape
# differentiates through the tensor that is leaving the tape, an error
# naming the call and the two ways out (R/convert.R stop_leaving_tape()).
r_unclass <- function(x) {
  if (!is_tensor(x)) return(base::unclass(x))
  check_live(list(x))
  tensor_to_r(x, leaving = "unclass")
}

r_storage_mode <- function(x, value) {
  if (!is_tensor(x)) return(base::`storage.mode<-`(x, value))
  check_live(list(x))
  base::`storage.mode<-`(tensor_to_r(x, leaving = "storage.mode<-"), value)
}

# log(x, base) where only the base is a tensor: log(x) / log(base) as base
# R computes it, the base on tapes; every other call is base R's log().
r_log <- function(x, base = exp(1)) {
  if (missing(base)) return(base::log(x))
  if (!is_tensor(base) || is_tensor(x)) return(base::log(x, base))
  base::log(x) / log(base)
}

# drop() of a tensor: base R's, its extents of length 1 removed, recorded
# on tapes (base R's drop() sees no dims on a tensor).
r_drop <- function(x) {
  if (!is_tensor(x)) return(base::drop(x))
  core_call("r.linalg.drop", x)
}

# marginSums() and proportions() of a tensor: base R's code, with pycg's
# apply() (and sums) of the tensor in place of base R's apply() and its
# sweep() (which would make the sums R numbers, off the tape) in Python, so
# the answer is a tensor recorded on tapes. A vector is a 1-d array to
# marginSums(), its margin 1 (each element its own sum).
r_margin_sums <- function(x, margin = NULL) {
  if (!is_tensor(x)) return(base::marginSums(x, margin))
  if (!length(margin)) return(sum(x))
  if (is.character(margin))
    stop("marginSums(): a tensor has no dimnames; give `margin` by number",
         call. = FALSE)
  if (length(dim(x))) return(apply(x, margin, sum))
  if (!identical(as.numeric(margin), 1))
    stop("marginSums(): 'MARGIN' does not match dim(X) (a tensor vector has ",
         "the one margin 1)", call. = FALSE)
  x * 1L
}

r_proportions <- function(x, margin = NULL) {
  if (!is_tensor(x)) return(base::proportions(x, margin))
  if (!length(margin)) return(x / sum(x))
  if (!length(dim(x)))   # base R's sweep() stops at a vector too
    stop("proportions(): a margin of a vector: base R's sweep() needs an ",
         "array ('dims' cannot be of length 0); use x / sum(x)", call. = FALSE)
  core_call("r.summary.proportions", x, r_margin_sums(x, margin),
            as.list(as.integer(margin)))
}

# is.double(), is.integer() or is.logical(): R's type of a tensor (that of
# the R value it converts to: pycg/r/base/semantics.py r_type()).
r_is_type <- function(type) {
  base_is <- get(paste0("is.", type), envir = baseenv())
  code <- match(type, c("logical", "integer", "double", "complex")) - 1L
  function(x) {
    if (!is_tensor(x)) return(base_is(x))
    identical(as.integer(core_call("r.semantics.r_type", x)), code)
  }
}

# match() and %in% of tensors: base R's, on their values (R integers and
# logicals: positions are not differentiable).
r_match <- function(x, table, nomatch = NA_integer_, incomparables = NULL) {
  base::match(r_value_of(x), r_value_of(table), nomatch, incomparables)
}

r_in <- function(x, table) r_match(x, table, nomatch = 0L) > 0L

# mapply() over tensors: FUN gets their elements as tensors (`[[`), and the
# results combine as base R's simplify2array() combines them, into one
# tensor recorded on tapes where they are tensors and numbers.
r_mapply <- function(FUN, ..., MoreArgs = NULL, SIMPLIFY = TRUE,
                     USE.NAMES = TRUE) {
  tensors <- any(vapply(list(...), is_tensor, NA))
  answer <- base::mapply(FUN, ..., MoreArgs = MoreArgs,
                         SIMPLIFY = SIMPLIFY && !tensors,
                         USE.NAMES = USE.NAMES)
  if (!tensors || isFALSE(SIMPLIFY) || !length(answer)) return(answer)
  numbers <- vapply(answer, function(a) is_tensor(a) || (is.atomic(a) &&
    (is.numeric(a) || is.logical(a)) && !is.object(a)), NA)
  if (!all(numbers) || !any(vapply(answer, is_tensor, NA)))
    return(simplify2array(answer, higher = identical(SIMPLIFY, "array")))
  common <- unique(vapply(answer, length, 1L))
  if (length(common) != 1L || common == 0L) return(answer)
  out <- do.call(tensor_c, unname(answer))
  if (common > 1L) dim(out) <- c(common, length(answer))
  out
}

# matrix() and array() of a tensor: base R lays out the positions of its
# elements (its recycling, byrow, warnings and errors), and the tensor's
# elements are gathered at them, on tapes. A tensor has no dimnames.
r_matrix <- function(data = NA, nrow = 1, ncol = 1, byrow = FALSE,
                     dimnames = NULL) {
  at <- pass_on("matrix", list(positions_of(data, "matrix", dimnames)),
                nrow = if (!missing(nrow)) nrow,
                ncol = if (!missing(ncol)) ncol, byrow = byrow,
                dimnames = dimnames)
  gathered(data, at)
}

r_array_of <- function(data = NA, dim = length(data), dimnames = NULL) {
  at <- pass_on("array", list(positions_of(data, "array", dimnames)),
                dim = dim, dimnames = dimnames)
  gathered(data, at)
}

# What base R lays out for matrix() or array(): a tensor's positions, or
# the R data itself.
positions_of <- function(data, who, dimnames) {
  if (!is_tensor(data)) return(data)
  if (!is.null(dimnames))
    stop(who, "(): a tensor has no dimnames; give `dimnames` as NULL",
         call. = FALSE)
  seq_len(length(data))
}

gathered <- function(data, at) {
  if (!is_tensor(data)) return(at)
  out <- data[as.vector(at)]
  if (length(dim(at)) > 1L) dim(out) <- dim(at)
  out
}

# sweep() with STATS a tensor: base R's own code, its array() pycg's (so
# the swept statistics stay on tapes); otherwise base R's sweep().
r_sweep <- function(x, MARGIN, STATS, FUN = "-", check.margin = TRUE, ...) {
  sweep <- if (is_tensor(STATS)) tensor_sweep else masked("sweep")
  sweep(x, MARGIN, STATS, FUN, check.margin, ...)
}

tensor_sweep <- base::sweep
environment(tensor_sweep) <- list2env(
  list(array = function(...) r_array_of(...)), parent = .BaseNamespaceEnv)

# mahalanobis() with a tensor among its arguments: stats' steps with
# pycg's matrix() and sweep(); the distances have no names (a tensor's
# rows have none).
r_mahalanobis <- function(x, center, cov, inverted = FALSE, ...) {
  if (!any(vapply(list(x, center, cov), is_tensor, NA)))
    return(masked("mahalanobis")(x, center, cov, inverted, ...))
  x <- if (if (is_tensor(x)) length(dim(x)) < 2L else is.vector(x))
    r_matrix(x, ncol = length(x))
  else if (is_tensor(x)) x else as.matrix(x)
  if (!isFALSE(center)) x <- r_sweep(x, 2L, center)
  if (!inverted) cov <- solve(cov, ...)
  rowSums(x %*% cov * x)
}
