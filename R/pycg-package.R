#' pycg: custom gradients and gradient tapes from R
#'
#' The R interface to the `pycg` Python library. Define custom gradients with
#' [op_custom_gradient()], record computations with [gradient_tape()], and
#' call every op of `pycg.ops` as `op_<name>()`, with 1-based axes and
#' indices. Tensors print, convert ([as.array()], [as.numeric()]) and take
#' part in R arithmetic like R arrays.
#'
#' Loading the package does not start Python; the first call that needs it
#' does. See [install_pycg()] for which Python is used and how to set one up.
#'
#' @section Numbers, errors, warnings and interrupts:
#' * R numbers are doubles, and pycg's default float type is float64 when
#'   the R package starts Python: see [config_floatx()] for the rule.
#' * Errors name the R functions you call (`op_sum`, `pycg_grad`,
#'   `tape$gradient`, `gradient_tape()`) with 1-based axes, indices and
#'   argument numbers. An error in your own R code called by pycg (a rule of
#'   [op_custom_gradient()], a function under [pycg_grad()]) is signalled
#'   again with its R message, prefixed `in the gradient of <name>:` for a
#'   rule; its call is the rule's. `options(pycg.traceback = TRUE)` appends
#'   the Python traceback to errors raised in Python.
#' * Python warnings arrive as R warnings ([warning()]), so [tryCatch()] and
#'   [suppressWarnings()] handle them. As in R, a warning is reported every
#'   time the call that raises it happens (Python's default reports it once
#'   per place in the code); Python's deprecation notices stay off.
#' * Ctrl-C and [setTimeLimit()] stop R code that pycg runs for you (a rule,
#'   a forward, a function under [pycg_grad()]): Python unwinds first, so
#'   no tape is left recording, and the interrupt then reaches R as an
#'   R condition of class `interrupt` (`"interrupted while pycg was running
#'   R code"`), the time limit as R's own error.
#' * Tensors, variables and functions made by pycg are Python objects:
#'   [saveRDS()] keeps only an empty shell of them. Save `as.array(x)` and
#'   rebuild the tensor after [readRDS()].
#'
#' @keywords internal
"_PACKAGE"

#' @importFrom reticulate import py_get_attr py_to_r r_to_py
NULL

# Session state: the Python modules once started, the Python signatures made
# from R formals, a pending R error raised inside a call from Python.
.pycg <- new.env(parent = emptyenv())
.pycg$signatures <- new.env(parent = emptyenv())

#' @importFrom utils head str
NULL

# %*% on tensors: R >= 4.3 dispatches the matrixOps group generic; on older R
# pycg's own %*% (tensors to op_matmul, anything else to base R) is put on
# the search path when the package is attached.
.onLoad <- function(libname, pkgname) {
  if (getRversion() >= "4.3.0")
    registerS3method("matrixOps", "pycg.tensor.Tensor",
                     matrixOps.pycg.tensor.Tensor, envir = asNamespace(pkgname))
}

# pycg gives base R's non-generic diag(), rowSums(), colSums(), rowMeans(),
# colMeans(), crossprod(), tcrossprod(), pmax(), pmin() (and %*% before R
# 4.3) a tensor method that passes every other value on to what the name
# meant before (R/tensor-base.R); library() lists them as masked. So it
# does c(), drop(), is.double(), is.integer(), is.logical(), match(), %in%
# and mapply(), which never dispatch on a tensor (R/tensor-masked.R): they are
# put on the search path here, so the package's own code keeps base R's.
.onAttach <- function(libname, pkgname) {
  env <- as.environment(paste0("package:", pkgname))
  functions <- attached_functions()
  for (name in names(functions)) assign(name, functions[[name]], envir = env)
  if (getRversion() < "4.3.0")
    assign("%*%", get("%*%", envir = asNamespace(pkgname)), envir = env)
}
