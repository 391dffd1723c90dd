#' Use an R rule in PyTorch
#'
#' `pycg_to_torch(f)` turns `f`, an R function written with `op_*()`
#' (typically one made by [op_custom_gradient()]), into a PyTorch function
#' (a `torch.autograd.Function`) whose gradient is pycg's rule, for
#' reticulate users of Python's torch: use it under `loss$backward()`,
#' `torch$autograd$grad()` (with `create_graph = TRUE` for second order),
#' the `torch$func` transforms and in an `nn.Module` trained with
#' `torch$optim`. `f` runs on pycg's torch backend whatever the backend set
#' ([config_set_backend()] need not change; a [pycg_variable()] that `f`
#' closes over keeps the storage of its own backend and reaches `f` as a
#' copy where that is another one); it is for Python's torch through
#' reticulate, not the R package torch.
#'
#' torch tensors among the arguments are the inputs (differentiable where
#' floating); other arguments reach `f` as constants. A torch tensor that
#' requires grad must be an argument: one that `f` reads otherwise is an
#' error, as is one handed to an `op_*()` outside `pycg_to_torch()` while
#' torch records (pass `$detach()` for a constant). Where torch
#' differentiates the backward itself (`create_graph = TRUE`,
#' `torch$func$grad()`) the backward runs `f` again from its inputs.
#'
#' @inheritParams pycg_to_tensorflow
#' @return An R function taking and returning torch tensors. When it is
#'   handed to Python, Python receives the converted function itself.
#' @seealso [pycg_to_jax()], [pycg_to_tensorflow()]. Install torch's CPU
#'   build into pycg's Python with `pip install torch --index-url
#'   https://download.pytorch.org/whl/cpu` (the CUDA build is `pip install
#'   torch`).
#' @examplesIf pycg_available() && reticulate::py_module_available("torch")
#' \dontshow{# torch.compiler.disable makes a cache folder in the temp dir
#' reticulate::import("os")$environ$setdefault(
#'   "TORCHINDUCTOR_CACHE_DIR", file.path(tempdir(), "torchinductor"))}
#' triple <- op_custom_gradient(function(x) {
#'   tuple(x * 1, function(upstream) 3 * upstream)
#' })
#' torch <- reticulate::import("torch")
#' x <- torch$tensor(c(1, 2), requires_grad = TRUE)
#' pycg_to_torch(triple)(x)$sum()$backward()
#' unlist(x$grad$tolist()) # 3 3: the rule, not 1
#' @export
pycg_to_torch <- function(f) {
  framework_function(f, function_label(substitute(f), f), "to_torch",
                     "torch")
}
