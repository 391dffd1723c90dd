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
#' @keywords internal
"_PACKAGE"

#' @importFrom reticulate import py_get_attr py_to_r r_to_py
NULL

# Session state: the Python modules once started, the signature specs made
# from R formals, a pending R error raised inside a call from Python.
.pycg <- new.env(parent = emptyenv())
.pycg$specs <- new.env(parent = emptyenv())

# `library(pycg)` prints nothing. The one base function pycg masks is `%*%`,
# which stays base R's for anything that is not a pycg tensor, so R's
# "The following object is masked from 'package:base'" note would only be
# noise. library() leaves the note out when the attached package holds
# `.conflicts.OK`; R drops that name from a namespace's exports, so it is
# put there when the package is attached (before library() checks).
.onAttach <- function(libname, pkgname) {
  assign(".conflicts.OK", TRUE,
         envir = as.environment(paste0("package:", pkgname)))
}
