# The conformance suite's harness: every R function a user applies to a
# tensor, over a generated grid of inputs, against base R on the same R data.
#
# A case is an R expression (a template) over the names X and Y, evaluated
# twice: once in base R (X and Y the plain R values, base R's own functions)
# and once as a pycg user writes it (library(pycg) attached, X a tensor of
# the same data and Y either R data or a tensor too). Its outcome is
#   "equal"        the same values, type and dims (and R's warnings), or an
#                  error on both sides, pycg's in clear words;
#   "clear error"  base R answers, pycg stops with a message in R's terms
#                  that names the function (a way out, not a wrong answer);
#   "different"    anything else: another value, type, dim or warning, an
#                  answer where base R stops, or a raw Python error.
# Differentiable cases also compare pycg_grad() with central finite
# differences of base R (outcome kind "grad").
#
# The functions come from the package itself (conformance_methods(): its S3
# and S4 methods for tensors and the base functions it redefines, read from
# the NAMESPACE and the methods tables), from R's group generics, and from
# `everyday_functions` (what R users apply to numeric arrays). A function
# found there without a template of its own is called as f(X).
#
# PYCG_CONFORMANCE=full runs the long grid (make soak); the default grid
# keeps each backend under about a minute. PYCG_CONFORMANCE_BACKENDS
# (comma-separated) narrows the backends, and adds torch where it names it;
# PYCG_CONFORMANCE_REPORT names a file that gets every case as a
# tab-separated row.

conformance_full <- function() identical(Sys.getenv("PYCG_CONFORMANCE"), "full")

# ---- inputs -----------------------------------------------------------------

# The R values a tensor is made of: every shape (scalar, vector, row and
# column matrices, square and non-square matrices, a 3-d array, length 0),
# each type (double, integer, logical) and R's special values.
conformance_inputs <- function() {
  d <- c(1.5, -2, 3, 0.25, -5, 6, 7.5, -8, 9, 10.5, -11, 12)
  i <- c(1L, -2L, 3L, 4L, -5L, 6L, 7L, -8L, 9L, 10L, -11L, 12L)
  l <- c(TRUE, FALSE, TRUE, TRUE, FALSE, FALSE, TRUE, FALSE, FALSE, TRUE,
         TRUE, FALSE)
  shaped <- function(v, tag) {
    out <- list(v[2L], v[1:3], matrix(v[1:3], 1L), matrix(v[1:3], 3L),
                matrix(v[c(5, 2, 2, 6)], 2L), matrix(v[1:6], 2L),
                array(v, c(2L, 3L, 2L)), v[0L], matrix(v[0L], 0L, 3L))
    names(out) <- paste0(tag, c("_scalar", "_vec3", "_row", "_col", "_square",
                                "_2x3", "_3d", "_empty", "_0x3"))
    out
  }
  c(shaped(d, "dbl"), shaped(i, "int"), shaped(l, "lgl"),
    list(dbl_special = c(NA, NaN, Inf, -Inf, -0, 0, 2.5),
         dbl_special_2x3 = matrix(c(NA, 1, NaN, -0, Inf, -Inf), 2L),
         dbl_na = c(1, NA, 3),
         dbl_ties = c(0.5, 1.5, 2.5, -0.5, 2.675, 0.15, -0.15, 5.015),
         int_extreme = c(2147483647L, -2147483647L, 46341L, 0L),
         int_zero = c(0L, 5L, -5L),
         int_na = c(1L, NA, 3L),
         lgl_na = c(TRUE, NA, FALSE)),
    if (conformance_full()) list(
      dbl_big_3d = array(seq(-3.5, 20, by = 0.5), c(4L, 3L, 4L)),
      dbl_col4 = matrix(c(1, 2, 3, 4), 4L), dbl_row4 = matrix(c(1, 2, 3, 4), 1L),
      dbl_vec4 = c(0.1, -0.2, 0.3, -0.4), dbl_1x1 = matrix(2.5, 1L, 1L),
      int_3x2 = matrix(1:6, 3L), lgl_square = matrix(c(TRUE, FALSE, FALSE, TRUE), 2L)))
}

# The R values on the other side of a binary operator: vectors of each
# length 1..4 (so that they recycle, or not, against each shape), each
# type, special values, R matrices, length 0.
conformance_partners <- function() {
  out <- list(dbl1 = 10, dbl2 = c(10, 20), dbl3 = c(10, 20, 30),
              dbl4 = c(10, 20, 30, 40), int1 = 2L, int2 = c(2L, 3L),
              int3 = c(2L, 0L, -3L), lgl1 = FALSE, lgl2 = c(TRUE, FALSE),
              dbl0 = numeric(0), na = NA, nan_inf = c(NaN, Inf),
              mat2x3 = matrix(c(2, 4, 6, 8, 10, 12), 2L),
              mat2x2 = matrix(c(2, 4, 6, 8), 2L))
  if (conformance_full())
    out <- c(out, list(dbl5 = c(1, 2, 3, 4, 5), dbl6 = as.double(1:6),
                       int4 = 1:4, lgl3 = c(TRUE, FALSE, NA),
                       int_big = 2147483647L, mat3x1 = matrix(1:3 + 0, 3L),
                       mat1x3 = matrix(1:3 + 0, 1L), neg = -1.5, zero = 0))
  out
}

# Smooth inputs for gradients: doubles away from kinks, ties and integers.
gradient_inputs <- function() {
  v <- c(0.31, 0.73, 0.47, 0.29, 0.61, 0.83, 0.37, 0.55, 0.69, 0.41, 0.77,
         0.52)
  out <- list(s_scalar = v[2L], s_vec3 = v[1:3], s_col = matrix(v[1:3], 3L),
              s_row = matrix(v[1:3], 1L), s_square = matrix(v[c(1, 4, 6, 9)], 2L),
              s_2x3 = matrix(v[1:6], 2L))
  if (conformance_full())
    out <- c(out, list(s_3d = array(v, c(2L, 3L, 2L)), s_vec4 = v[1:4]))
  out
}

# A tensor holding the R value x: its type kept (double float64, integer
# int32, logical bool); a length-1 vector is a 0-d tensor.
as_conformance_tensor <- function(x) {
  dtype <- switch(typeof(x), double = "float64", integer = "int32",
                  logical = "bool", NULL)
  op_convert_to_tensor(x, dtype = dtype)
}

# ---- the functions ----------------------------------------------------------

# The functions pycg defines for tensors, read from its NAMESPACE and
# methods tables: S3 methods for a tensor class, S4 methods for one, and
# the exported functions that redefine a base R function (pmax, ...).
conformance_methods <- function() {
  s3 <- getNamespaceInfo("pycg", "S3methods")
  s3 <- s3[grepl("^pycg\\.tensor\\.", s3[, 2L]), 1L]
  s4 <- unlist(lapply(methods::getGenerics(asNamespace("pycg")), function(g) {
    tables <- methods::findMethods(g, classes = "pycg.tensor.Tensor")
    if (length(tables)) g
  }))
  base_names <- unlist(lapply(c("base", "stats", "utils"), getNamespaceExports))
  exported <- intersect(getNamespaceExports("pycg"), base_names)
  sort(unique(c(s3, s4, exported)))
}

# Group generics expand to their members.
group_members <- list(
  Ops = c("+", "-", "*", "/", "^", "%%", "%/%", "==", "!=", "<", "<=", ">",
          ">=", "&", "|", "!"),
  Math = c("abs", "sign", "sqrt", "floor", "ceiling", "trunc", "round",
           "signif", "exp", "log", "expm1", "log1p", "cos", "sin", "tan",
           "cospi", "sinpi", "tanpi", "acos", "asin", "atan", "cosh", "sinh",
           "tanh", "acosh", "asinh", "atanh", "lgamma", "gamma", "digamma",
           "trigamma", "cumsum", "cumprod", "cummax", "cummin", "log2",
           "log10"),
  Summary = c("max", "min", "range", "prod", "sum", "any", "all"),
  Complex = c("Arg", "Conj", "Im", "Mod", "Re"))

# What R users apply to numeric arrays without thinking.
everyday_functions <- c(
  "sd", "var", "cor", "cov", "solve", "chol", "chol2inv", "det",
  "determinant", "scale", "sweep", "outer", "%o%", "%*%", "crossprod",
  "tcrossprod", "kronecker", "backsolve", "forwardsolve", "qr.solve",
  "apply", "sapply", "vapply", "lapply", "Reduce", "head", "tail", "rev",
  "sort", "order", "rank", "which", "which.max", "which.min", "range",
  "cumsum", "cummax", "cummin", "cumprod", "diff", "median", "quantile",
  "ifelse", "pmax", "pmin", "rowSums", "colSums", "rowMeans", "colMeans",
  "t", "aperm", "diag", "drop", "norm", "tabulate", "c", "rep", "seq_along",
  "length", "dim", "nrow", "ncol", "NROW", "NCOL", "format", "round",
  "signif", "is.numeric", "is.double", "is.integer", "is.logical",
  "is.matrix", "is.array", "is.na", "is.nan", "is.finite", "is.infinite",
  "anyNA", "identical", "all.equal", "mean", "weighted.mean", "sum",
  "prod", "max", "min", "abs", "exp", "log", "sqrt", "unique",
  "duplicated", "as.vector", "as.numeric", "as.integer", "as.logical",
  "as.matrix", "matrix", "array", "prop.table", "isSymmetric", "max.col",
  "lower.tri", "upper.tri", "row", "col", "%in%", "match", "xtfrm",
  "cbind", "rbind", "mapply", "trunc", "floor", "ceiling", "sign",
  "print", "summary", "str", "toString", "nchar", "seq", "rowsum")

# Templates: the calls of each function worth making (X is the input,
# Y an R value or a second tensor). A function without an entry is called
# as f(X).
conformance_templates <- list(
  round = alist(round(X), round(X, 1), round(X, 2), round(X, -1)),
  signif = alist(signif(X), signif(X, 2)),
  log = alist(log(X), log(X, 2), log(X, base = 10)),
  max = alist(max(X), max(X, na.rm = TRUE), max(X, Y)),
  min = alist(min(X), min(X, na.rm = TRUE), min(X, Y)),
  range = alist(range(X), range(X, na.rm = TRUE), range(X, Y)),
  prod = alist(prod(X), prod(X, na.rm = TRUE)),
  sum = alist(sum(X), sum(X, na.rm = TRUE), sum(X, Y), sum(X > 0)),
  any = alist(any(X > 0), any(X > 0, na.rm = TRUE), any(X)),
  all = alist(all(X > 0), all(X > 0, na.rm = TRUE), all(X)),
  mean = alist(mean(X), mean(X, na.rm = TRUE), mean(X, trim = 0.2)),
  weighted.mean = alist(weighted.mean(X, rep_len(c(1, 2), length(X)))),
  median = alist(median(X), median(X, na.rm = TRUE)),
  quantile = alist(quantile(X), quantile(X, 0.3, names = FALSE)),
  sd = alist(sd(X), sd(X, na.rm = TRUE)),
  var = alist(var(X), var(X, na.rm = TRUE)),
  cor = alist(cor(X), cor(X, X)),
  cov = alist(cov(X)),
  solve = alist(solve(X), solve(X, Y)),
  backsolve = alist(backsolve(X, Y)),
  forwardsolve = alist(forwardsolve(X, Y)),
  qr.solve = alist(qr.solve(X, Y)),
  determinant = alist(determinant(X), determinant(X, logarithm = FALSE)),
  scale = alist(scale(X), scale(X, scale = FALSE)),
  sweep = alist(sweep(X, 1, Y), sweep(X, 2, Y)),
  outer = alist(outer(X, Y), outer(X, X)),
  "%o%" = alist(X %o% Y, Y %o% X),
  "%*%" = alist(X %*% Y, Y %*% X, X %*% X, X %*% t(X)),
  crossprod = alist(crossprod(X), crossprod(X, Y)),
  tcrossprod = alist(tcrossprod(X), tcrossprod(X, Y)),
  kronecker = alist(kronecker(X, Y), kronecker(X, X)),
  apply = alist(apply(X, 1, sum), apply(X, 2, max), apply(X, c(1, 2), abs)),
  sapply = alist(sapply(X, function(e) e * 2)),
  vapply = alist(vapply(X, function(e) e > 0, NA)),
  lapply = alist(lapply(X, function(e) e + 1)),
  mapply = alist(mapply(function(a, b) a + b, X, Y)),
  Reduce = alist(Reduce(`+`, X, accumulate = TRUE)),
  head = alist(head(X), head(X, 2), head(X, -1)),
  tail = alist(tail(X), tail(X, 2), tail(X, -1)),
  sort = alist(sort(X), sort(X, decreasing = TRUE), sort(X, na.last = TRUE)),
  order = alist(order(X), order(X, decreasing = TRUE)),
  rank = alist(rank(X)),
  which = alist(which(X > 0), which(X > 0, arr.ind = TRUE)),
  which.max = alist(which.max(X)), which.min = alist(which.min(X)),
  diff = alist(diff(X), diff(X, differences = 2), diff(X, lag = 2)),
  ifelse = alist(ifelse(X > 2, 1, 0), ifelse(X > 2, X, 0),
                 ifelse(X > 2, Y, X)),
  pmax = alist(pmax(X, 2), pmax(X, Y), pmax(Y, X), pmax(X, 2, na.rm = TRUE)),
  pmin = alist(pmin(X, 2), pmin(X, Y), pmin(Y, X), pmin(X, 2, na.rm = TRUE)),
  rowSums = alist(rowSums(X), rowSums(X, na.rm = TRUE)),
  colSums = alist(colSums(X), colSums(X, na.rm = TRUE)),
  rowMeans = alist(rowMeans(X)), colMeans = alist(colMeans(X)),
  aperm = alist(aperm(X), aperm(X, c(2, 1))),
  diag = alist(diag(X)),
  norm = alist(norm(X), norm(X, "F"), norm(X, "2")),
  tabulate = alist(tabulate(pmin(X, 10)), tabulate(X, 3)),
  c = alist(c(X), c(5, X), c(X, Y), c(X, X)),
  rep = alist(rep(X, 2), rep(X, each = 2), rep_len(X, 5)),
  format = alist(format(X), format(X, digits = 3), format(X, nsmall = 2)),
  identical = alist(identical(X, X)),
  all.equal = alist(all.equal(X, X), isTRUE(all.equal(X, X + 1))),
  matrix = alist(matrix(X, 1), matrix(X, ncol = 1)),
  array = alist(array(X, c(length(X), 1))),
  prop.table = alist(prop.table(X)),
  lower.tri = alist(X[lower.tri(X)]), upper.tri = alist(X[upper.tri(X)]),
  "%in%" = alist(X %in% c(1.5, 3, 1L)), match = alist(match(c(3, 1L), X)),
  cbind = alist(cbind(X, X), cbind(X, Y)), rbind = alist(rbind(X, X)),
  print = alist(capture.output(print(X))), str = alist(capture.output(str(X))),
  summary = alist(summary(X)), toString = alist(toString(X)),
  nchar = alist(nchar(format(X))), seq = alist(seq_along(X)),
  rowsum = alist(rowsum(X, rep_len(c(1, 2), NROW(X)))),
  is.na = alist(is.na(X), is.na(X > 0)), is.nan = alist(is.nan(X)),
  "[" = alist(X[1], X[2:3], X[-1], X[0], X[NA], X[c(TRUE, FALSE)], X[5],
              X[X > 1], X[1, ], X[, 2], X[2, 3], X[1, , drop = FALSE],
              X[cbind(1, 2)], X[cbind(c(2, 1), c(1, 2))], X[1, 2, 1]),
  "[[" = alist(X[[1]], X[[2]], X[[1, 2]]),
  "[<-" = alist({X[1] <- 9; X}, {X[1] <- 9L; X}, {X[1] <- TRUE; X},
                {X[2:3] <- c(1, 2); X}, {X[] <- 0; X}, {X[X > 1] <- NA; X},
                {X[1, ] <- 5; X}, {X[, 2] <- Y; X}, {X[-1] <- Y; X}),
  "[[<-" = alist({X[[1]] <- 9; X}, {X[[2]] <- 9L; X}),
  "dim<-" = alist({dim(X) <- NULL; X}, {dim(X) <- c(1, length(X)); X},
              {dim(X) <- length(X); X}))

# The cases of one function: its templates, each over the inputs (and, for
# templates that use Y, over the partners or a second input).
function_templates <- function(name) {
  templates <- conformance_templates[[name]]
  if (!is.null(templates)) return(templates)
  if (name %in% group_members$Ops) {
    if (name == "!") return(list(quote(!X)))
    op <- as.name(name)
    return(list(bquote(.(op)(X, Y)), bquote(.(op)(Y, X))))
  }
  list(as.call(list(as.name(name), quote(X))))
}

# Every function the suite covers, by family: the methods of base R's
# generics (not reticulate's or waldo's, nor `$`, a Python attribute).
conformance_families <- function() {
  methods <- conformance_methods()
  base <- unlist(lapply(c("base", "stats", "utils", "methods"),
                        getNamespaceExports))
  methods <- setdiff(intersect(methods, base),
                     c("Ops", "Math", "Summary", "Complex", "$"))
  list(
    ops = c(group_members$Ops, "-unary"),
    math = group_members$Math,
    summary = c(group_members$Summary, group_members$Complex),
    methods = setdiff(methods, c(group_members$Math, group_members$Summary)),
    everyday = setdiff(everyday_functions,
                       c(methods, group_members$Math, group_members$Summary)))
}

# ---- running a case ---------------------------------------------------------

# Evaluate `expr` with `bindings` in `parent`, from the same random seed,
# recording warnings (their messages) and an error.
evaluate_case <- function(expr, bindings, parent) {
  env <- list2env(bindings, parent = parent)
  set.seed(1L)   # (both sides draw alike: max.col() breaks ties at random)
  warnings <- character()
  value <- withCallingHandlers(
    tryCatch(eval(expr, env), error = function(e) structure(
      list(message = conditionMessage(e)), class = "conformance_error")),
    warning = function(w) {
      warnings <<- c(warnings, conditionMessage(w))
      invokeRestart("muffleWarning")
    })
  list(value = value, warnings = unique(warnings))
}

# base R's environment for templates: base R's functions, with those of
# stats, utils and methods (never pycg's).
base_env <- function(expr) {
  .conformance$base_env %||% {
    env <- new.env(parent = baseenv())
    for (pkg in c("methods", "utils", "stats"))
      for (name in getNamespaceExports(pkg))
        assign(name, get(name, envir = asNamespace(pkg)), env)
    .conformance$base_env <- env
  }
}

.conformance <- new.env()

# The R value a result stands for: a tensor's R value (1-d as a vector),
# dims kept (2 or more), names and other attributes dropped.
conformance_value <- function(x) {
  if (inherits(x, "pycg.tensor.Tensor")) x <- as.array(x)
  if (is.list(x) && !is.data.frame(x) && !inherits(x, "conformance_error"))
    return(lapply(unclass(x), conformance_value))
  if (is.factor(x) || is.data.frame(x) || is.environment(x) ||
      is.function(x) || inherits(x, "python.builtin.object"))
    return(x)
  d <- dim(x)
  attributes(x) <- if (length(d) >= 2L) list(dim = d) else NULL
  x
}

# A raw error: a Python exception's own words, not pycg's in R's terms
# (`python_error()`), or base R's words for a Python object that reached
# base R's code where base R itself answers (`r_words`: where base R stops
# too, they are base R's error).
raw_error <- function(message, r_failed = FALSE) {
  python_error(message) ||
    (!r_failed && grepl(paste0("non-numeric argument|non-conformable ",
                               "arguments|argument is not|arguments imply"),
                        message))
}

python_error <- function(message) {
  grepl(paste0("Traceback|py_call_impl|ufunc|NodeDef|\\{\\{node|\\[Op:|",
               "tensorflow\\.python|jaxlib|jax\\._src|numpy\\.core|",
               "<class '|object has no attribute|unsupported operand|",
               "only integer scalar arrays|Exception:|not callable"), message)
}

# A clear error names the function the user called.
names_function <- function(message, fun) {
  grepl(if (fun == "-unary") "-" else fun, message, fixed = TRUE)
}

# Compare two R values as the suite does: type, dims and values; NA and NaN
# kept apart except where R's documentation allows either ("Computations
# involving NaN will return NaN or perhaps NA"): an input held NaN.
same_value <- function(got, want, nan_in) {
  if (is.list(want) || is.list(got)) {
    if (!is.list(want) || !is.list(got) || length(got) != length(want))
      return(FALSE)
    return(all(vapply(seq_along(want), function(k)
      same_value(got[[k]], want[[k]], nan_in), NA)))
  }
  if (!identical(typeof(got), typeof(want)) ||
      !identical(dim(got), dim(want)) || length(got) != length(want))
    return(FALSE)
  if (!is.double(want) && !is.complex(want)) return(identical(got, want))
  if (is.complex(want))
    return(same_value(Re(got), Re(want), nan_in) &&
           same_value(Im(got), Im(want), nan_in))
  if (!identical(is.na(got), is.na(want))) return(FALSE)
  if (!nan_in && !identical(is.nan(got), is.nan(want))) return(FALSE)
  ok <- !is.na(want)
  g <- got[ok]
  w <- want[ok]
  inf <- is.infinite(w) | is.infinite(g)
  if (!identical(g[inf], w[inf])) return(FALSE)
  all(abs(g[!inf] - w[!inf]) <= 1e-12 * pmax(abs(w[!inf]), 1e-300))
}

has_nan <- function(x) {
  any(vapply(x, function(v) is.double(v) && any(is.nan(v)), NA))
}

# One case: base R against pycg. `tensors` names the bindings given to pycg
# as tensors (made in advance, one per input and backend).
run_case <- function(expr, r_bindings, py_bindings, fun) {
  want <- evaluate_case(expr, r_bindings, base_env(expr))
  got <- evaluate_case(expr, py_bindings, globalenv())
  r_failed <- inherits(want$value, "conformance_error")
  py_failed <- inherits(got$value, "conformance_error")
  if (py_failed) {
    message <- got$value$message
    if (raw_error(message, r_failed))
      return(c("different", paste("raw error:", message)))
    if (r_failed) return(c("equal", message))
    if (!names_function(message, fun))
      return(c("different", paste("error not naming", fun, ":", message)))
    return(c("clear error", message))
  }
  if (r_failed)
    return(c("different", paste("base R stops:", want$value$message)))
  value <- tryCatch(conformance_value(got$value), error = function(e)
    structure(list(message = conditionMessage(e)), class = "conformance_error"))
  if (inherits(value, "conformance_error"))
    return(c("different", paste("result unreadable:", value$message)))
  if (fun %in% c("%%", "%/%") && is.double(want$value)) {
    # ?Arithmetic: for doubles, %% and %/% "are subject to representation
    # error and so may be platform-dependent" (R computes them in long
    # double): equal to within that error, relative to the operands
    scale <- max(abs(unlist(r_bindings)[is.finite(unlist(r_bindings))]), 1)
    value <- conformance_value(value)
    want$value <- conformance_value(want$value)
    close <- same_value(value, want$value, has_nan(r_bindings)) || (
      identical(dim(value), dim(want$value)) && is.double(value) &&
        identical(is.na(value), is.na(want$value)) &&
        all(abs(value - want$value) <= 1e-13 * scale, na.rm = TRUE))
    if (!close)
      return(c("different", paste("got", describe_result(value), "want",
                                  describe_result(want$value))))
  } else if (fun %in% c("print", "str")) {
    # a display: every line base R prints, below pycg's header line
    if (!all(want$value %in% value))
      return(c("different", paste("printed", paste(value, collapse = " | "),
                                  "want the lines",
                                  paste(want$value, collapse = " | "))))
  } else if (!same_value(value, conformance_value(want$value),
                         has_nan(r_bindings)))
    return(c("different", paste("got", describe_result(value), "want",
                                describe_result(want$value))))
  if (!setequal(got$warnings, want$warnings))
    return(c("different", paste0("warnings: got {",
                                 paste(got$warnings, collapse = "; "),
                                 "} want {",
                                 paste(want$warnings, collapse = "; "), "}")))
  c("equal", "")
}

describe_result <- function(x) {
  x <- conformance_value(x)
  text <- paste(utils::capture.output(utils::str(x, vec.len = 3,
                                                 give.attr = FALSE)),
                collapse = " ")
  substr(gsub("\\s+", " ", text), 1L, 160L)
}

# ---- gradients --------------------------------------------------------------

# pycg_grad() of sum(weights * template) against central differences of
# base R's template, at smooth inputs (bindings listed in `wrt`).
run_gradient_case <- function(expr, r_bindings, wrt, fun) {
  base <- base_env(expr)
  scalar <- function(values) {
    out <- eval(expr, list2env(values, parent = base))
    if (!is.double(out) || !length(out) || any(!is.finite(out))) return(NULL)
    sum(as.vector(out) * case_weights(length(out)))
  }
  if (is.null(tryCatch(suppressWarnings(scalar(r_bindings)),
                       error = function(e) NULL)))
    return(NULL)  # not a smooth real function here
  want <- lapply(wrt, function(name) {
    suppressWarnings(fd_grad(function(a) {
      values <- r_bindings
      values[[name]] <- a
      scalar(values)
    }, r_bindings[[name]]))
  })
  f <- function() {
    bound <- r_bindings
    for (name in wrt) bound[[name]] <- get(name)
    out <- eval(expr, list2env(bound, parent = globalenv()))
    flat <- op_reshape(op_transpose(out), -1L)
    op_sum(op_multiply(flat, op_convert_to_tensor(case_weights(length(out)))))
  }
  formals(f) <- stats::setNames(rep(list(quote(expr = )), length(wrt)), wrt)
  tensors <- unname(lapply(r_bindings[wrt], as_conformance_tensor))
  got <- tryCatch(suppressWarnings(
    do.call(pycg_grad(f, argnums = seq_along(wrt)), tensors)),
                  error = function(e) structure(
                    list(message = conditionMessage(e)),
                    class = "conformance_error"))
  if (inherits(got, "conformance_error")) {
    if (raw_error(got$message) || !names_function(got$message, fun))
      return(c("different", paste("gradient error:", got$message)))
    return(c("clear error", got$message))
  }
  if (length(wrt) == 1L) got <- list(got)
  for (k in seq_along(wrt)) {
    g <- as.vector(as.array(got[[k]]))
    w <- as.vector(want[[k]])
    if (length(g) != length(w) ||
        any(abs(g - w) > 1e-5 * pmax(1, abs(w)), na.rm = FALSE) ||
        anyNA(g))
      return(c("different", sprintf("gradient of %s: got %s want %s",
                                    wrt[k], paste(format(g, digits = 4), collapse = " "),
                                    paste(format(w, digits = 4), collapse = " "))))
  }
  c("equal", "")
}

case_weights <- function(n) (seq_len(n) %% 7 + 1) / 4

# ---- the grid ---------------------------------------------------------------

# The cases of a family: list(fun, label, expr, r_bindings, tensor names).
family_cases <- function(functions, inputs, partners) {
  cases <- list()
  add <- function(fun, expr, label, r_bindings, tensors) {
    cases[[length(cases) + 1L]] <<- list(fun = fun, expr = expr, label = label,
                                         r = r_bindings, tensors = tensors)
  }
  for (fun in functions) {
    templates <- if (fun == "-unary") list(quote(-X), quote(+X)) else
      function_templates(fun)
    for (expr in templates) {
      uses_y <- "Y" %in% all.names(expr)
      for (x_name in names(inputs)) {
        x <- inputs[[x_name]]
        if (!uses_y) {
          add(fun, expr, x_name, list(X = x), "X")
          next
        }
        for (y_name in names(partners))
          add(fun, expr, paste(x_name, y_name, sep = " & "),
              list(X = x, Y = partners[[y_name]]), "X")
      }
    }
  }
  cases
}

# Tensor-with-tensor cases of binary operators: pairs of inputs.
tensor_pair_cases <- function(ops, inputs) {
  pairs <- expand.grid(a = names(inputs), b = names(inputs),
                       stringsAsFactors = FALSE)
  if (!conformance_full()) {
    keep <- with(pairs, grepl("^dbl_", a) & grepl("^dbl_", b) |
                   sub("^[a-z]+", "", a) == sub("^[a-z]+", "", b))
    pairs <- pairs[keep, ]
  }
  cases <- list()
  for (op in ops) {
    expr <- bquote(.(as.name(op))(X, Y))
    for (k in seq_len(nrow(pairs)))
      cases[[length(cases) + 1L]] <- list(
        fun = op, expr = expr, label = paste(pairs$a[k], pairs$b[k], sep = " & "),
        r = list(X = inputs[[pairs$a[k]]], Y = inputs[[pairs$b[k]]]),
        tensors = c("X", "Y"))
  }
  cases
}

# Gradient cases: differentiable templates at smooth inputs; Y, where used,
# is a smooth vector of each length 1..4 (a tensor too).
gradient_cases <- function(functions) {
  inputs <- gradient_inputs()
  partners <- list(s1 = 0.45, s2 = c(0.45, 0.65), s3 = c(0.45, 0.65, 0.35),
                   s6 = c(0.45, 0.65, 0.35, 0.75, 0.25, 0.85))
  cases <- list()
  for (fun in functions) {
    templates <- if (fun == "-unary") list(quote(-X)) else function_templates(fun)
    for (expr in templates) {
      uses_y <- "Y" %in% all.names(expr)
      for (x_name in names(inputs)) {
        ys <- if (uses_y) partners else list(none = NULL)
        for (y_name in names(ys)) {
          r <- list(X = inputs[[x_name]])
          if (uses_y) r$Y <- ys[[y_name]]
          cases[[length(cases) + 1L]] <- list(
            fun = fun, expr = expr, r = r, wrt = names(r),
            label = if (uses_y) paste(x_name, y_name, sep = " & ") else x_name)
        }
      }
    }
  }
  cases
}

# The backends the suite runs on: numpy and tensorflow, and jax where it is
# installed (with JAX's 64-bit mode on while it runs: R's doubles are
# float64); torch where it is installed and PYCG_CONFORMANCE_BACKENDS names
# it (make soak).
conformance_backends <- function() {
  out <- c("numpy", "tensorflow")
  if (reticulate::py_module_available("jax")) out <- c(out, "jax")
  only <- strsplit(Sys.getenv("PYCG_CONFORMANCE_BACKENDS"), ",")[[1L]]
  if ("torch" %in% only && reticulate::py_module_available("torch"))
    out <- c(out, "torch")
  if (length(only)) intersect(out, only) else out
}

with_backend <- function(backend, code) {
  old <- config_backend()
  if (backend == "jax") {
    jax <- reticulate::import("jax")
    x64 <- jax$config$jax_enable_x64
    jax$config$update("jax_enable_x64", TRUE)
    on.exit(jax$config$update("jax_enable_x64", x64), add = TRUE)
  }
  config_set_backend(backend)
  on.exit(config_set_backend(old), add = TRUE)
  force(code)
}

# Run cases on one backend: a data frame (fun, label, kind, outcome, detail).
run_cases <- function(cases, kind = "value") {
  made <- new.env()
  tensor_of <- function(label, value) {
    key <- paste(label, typeof(value), paste(dim(value), collapse = "x"),
                 paste(format(value), collapse = ","))
    if (is.null(made[[key]]))
      made[[key]] <- tryCatch(as_conformance_tensor(value), error = function(e)
        structure(list(message = conditionMessage(e)),
                  class = "conformance_error"))
    made[[key]]
  }
  rows <- lapply(cases, function(case) {
    result <- if (kind == "grad") {
      run_gradient_case(case$expr, case$r, case$wrt, case$fun)
    } else {
      py <- case$r
      for (name in case$tensors) py[[name]] <- tensor_of(name, py[[name]])
      bad <- Filter(function(v) inherits(v, "conformance_error"), py)
      if (length(bad))
        c(if (names_function(bad[[1L]]$message, "op_convert_to_tensor"))
          "clear error" else "different",
          paste("no tensor of this input:", bad[[1L]]$message))
      else run_case(case$expr, case$r, py, case$fun)
    }
    if (!is.null(result))
      c(case$fun, case$label, paste(deparse(case$expr), collapse = " "),
        result)
  })
  rows <- do.call(rbind, rows)
  data.frame(fun = rows[, 1L], label = rows[, 2L], call = rows[, 3L],
             kind = kind, outcome = rows[, 4L], detail = rows[, 5L])
}

# Print the counts (functions x inputs: equal, clear error, different) and
# the functions with different answers; returns the number different.
report_conformance <- function(results, family, backend, started = NA) {
  counts <- table(factor(results$outcome,
                         c("equal", "clear error", "different")))
  cat(sprintf(paste0("\nconformance %s [%s]: %d cases: %d equal, %d clear ",
                     "error, %d different (%.0f s)\n"),
              family, backend, nrow(results), counts[["equal"]],
              counts[["clear error"]], counts[["different"]],
              proc.time()[["elapsed"]] - started))
  diff <- results[results$outcome == "different", ]
  if (nrow(diff)) {
    by_fun <- sort(table(diff$fun), decreasing = TRUE)
    cat("  different by function:",
        paste(sprintf("%s %d", names(by_fun), by_fun), collapse = ", "),
        "\n")
    shown <- diff[!duplicated(diff$fun), ]
    for (k in seq_len(nrow(shown)))
      cat(sprintf("  e.g. %s on %s: %s\n", shown$call[k], shown$label[k],
                  substr(shown$detail[k], 1L, 200L)))
  }
  out <- Sys.getenv("PYCG_CONFORMANCE_REPORT")
  if (nzchar(out)) {
    results$family <- family
    results$backend <- backend
    utils::write.table(results, out, sep = "\t", row.names = FALSE,
                       col.names = !file.exists(out), append = file.exists(out),
                       quote = TRUE)
  }
  invisible(counts)
}

# The expectation that ends a family: no different answer.
expect_conformance <- function(results, family, backend) {
  blocking <- results[results$outcome == "different", ]
  expect(!nrow(blocking), sprintf(
    "conformance %s [%s]: %d cases differ from base R (printed above): %s",
    family, backend, nrow(blocking),
    paste(unique(blocking$fun), collapse = ", ")))
}

# The cases one backend runs: all of them with PYCG_CONFORMANCE=full, else
# at most `budget`, evenly spread over the grid, each backend its own share
# (so that the backends together cover more of it).
select_cases <- function(cases, budget, backend) {
  budget <- ceiling(budget * budget_share[[backend]])
  if (conformance_full() || length(cases) <= budget) return(cases)
  stride <- ceiling(length(cases) / budget)
  offset <- (match(backend, names(budget_share)) - 1L) %% stride
  cases[seq(1L + offset, length(cases), by = stride)]
}

# The default grid's share per backend: JAX compiles each op for each new
# shape (about 0.1 s a case where numpy takes 2 ms), so it samples less;
# make soak (PYCG_CONFORMANCE=full) runs every case on every backend.
budget_share <- c(numpy = 1, tensorflow = 1, jax = 0.1, torch = 1)

# test_that() of one family on every backend.
test_conformance <- function(family, make_cases, kind = "value",
                             budget = 2000L) {
  for (backend in conformance_backends()) {
    test_that(sprintf("conformance with base R: %s [%s]", family, backend), {
      skip_if_no_pycg()
      with_backend(backend, {
        started <- proc.time()[["elapsed"]]
        cases <- select_cases(make_cases(), budget, backend)
        results <- run_cases(cases, kind)
        report_conformance(results, family, backend, started)
        expect_conformance(results, family, backend)
      })
    })
  }
}
