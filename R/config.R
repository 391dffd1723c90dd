#' The kernel backend
#'
#' `config_backend()` names the backend pycg runs ops on: `"tensorflow"` or
#' `"numpy"`. `config_set_backend()` switches it at run time; tensors made
#' under the other backend are converted when an op meets them.
#'
#' @param name `"tensorflow"` or `"numpy"`.
#' @return `config_backend()`: the name. `config_set_backend()`: the new
#'   name, invisibly.
#' @examplesIf pycg_available()
#' old <- config_backend()
#' config_set_backend("numpy")
#' config_backend()
#' config_set_backend(old)
#' @export
config_backend <- function() {
  core_call("config.backend")
}

#' @rdname config_backend
#' @export
config_set_backend <- function(name) {
  if (!is.character(name) || length(name) != 1L)
    stop("`name` must be \"tensorflow\" or \"numpy\"", call. = FALSE)
  invisible(core_call("config.set_backend", name))
}
