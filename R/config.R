#' The kernel backend
#'
#' `config_backend()` names the backend pycg runs ops on: `"tensorflow"`,
#' `"numpy"`, `"jax"` or `"torch"`. `config_set_backend()` switches it at
#' run time; tensors made under another backend are converted when an op
#' meets them. The torch backend needs PyTorch in pycg's Python (its CPU
#' build: `pip install torch --index-url
#' https://download.pytorch.org/whl/cpu`).
#'
#' On the jax backend (JAX installed: [install_pycg()] with `jax = TRUE`)
#' float64 needs JAX's 64-bit mode, which pycg does not switch on for you:
#' with it off (JAX's default) R numbers, which are float64, are an error
#' unless a dtype is asked for (`op_convert_to_tensor(c(1, 2), dtype =
#' "float32")`), never silently cut to float32. To use float64, call
#' `reticulate::import("jax")$config$update("jax_enable_x64", TRUE)` first,
#' or `Sys.setenv(JAX_ENABLE_X64 = "1")` before Python starts.
#'
#' @param name `"tensorflow"`, `"numpy"`, `"jax"` or `"torch"`.
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
    stop("config_set_backend: `name` must be \"tensorflow\", \"numpy\", ",
         "\"jax\" or \"torch\", not ", describe_r(name), call. = FALSE)
  invisible(core_call("config.set_backend", name))
}

#' The default float type
#'
#' `config_floatx()` names the dtype that R numbers and Python floats become
#' when nothing else decides it: `"float64"`, `"float32"` or `"float16"`.
#' `config_set_floatx()` changes it.
#'
#' The rule for R numbers: when the R package starts Python itself (the
#' usual case), floatx starts as `"float64"`, because R's numbers are
#' doubles. So a length-1 double and a longer double vector give the same
#' dtype and the same values: `op_exp(1)` equals `op_exp(c(1, 1))[1]`
#' exactly. A length-1 R number stays *weak* (like a Python float): beside
#' a tensor it takes the tensor's dtype, so `x * 2` keeps a float32 `x`
#' float32. Longer vectors and arrays are float64 tensors. When R runs
#' inside a Python process (through the Python module `pycg.r`), Python
#' owns floatx and pycg leaves it as Python set it (Keras' `"float32"` by
#' default). Call `config_set_floatx("float32")` for Keras' default in R.
#'
#' @param dtype `"float64"`, `"float32"` or `"float16"`.
#' @return `config_floatx()`: the name. `config_set_floatx()`: the previous
#'   name, invisibly.
#' @examplesIf pycg_available()
#' config_floatx()
#' identical(as.array(op_exp(1)), as.array(op_exp(c(1, 1)))[1])
#' old <- config_set_floatx("float32")
#' op_exp(1)
#' config_set_floatx(old)
#' @export
config_floatx <- function() {
  core_call("config.floatx")
}

#' @rdname config_floatx
#' @export
config_set_floatx <- function(dtype) {
  if (!is.character(dtype) || length(dtype) != 1L)
    stop("config_set_floatx: `dtype` must be \"float64\", \"float32\" or ",
         "\"float16\", not ", describe_r(dtype), call. = FALSE)
  old <- config_floatx()
  core_call("config.set_floatx", dtype)
  invisible(old)
}

#' Stop a gradient at the first NaN or Inf
#'
#' Evaluates `expr` with pycg checking every gradient of the backward pass:
#' the first NaN or Inf stops it with an error naming the op (or the
#' [op_custom_gradient()] function) and the input where it appeared, and the
#' range of that op's forward inputs.
#'
#' @param expr Code that computes gradients (`tape$gradient()`,
#'   [pycg_grad()], ...).
#' @return The value of `expr`.
#' @examplesIf pycg_available()
#' x <- op_convert_to_tensor(1000)
#' with(gradient_tape() %as% tape, {
#'   tape$watch(x)
#'   y <- op_log(1 + op_exp(x))
#' })
#' try(check_numerics(tape$gradient(y, x)))
#' @export
check_numerics <- function(expr) {
  ctx <- core_call("debug.check_numerics")
  # registered first and run with interrupts held back, as for tapes
  on.exit(suspendInterrupts(method_call(ctx, "__exit__", NULL, NULL, NULL)))
  method_call(ctx, "__enter__")
  expr
}
