# Thin wrappers of pycg.ops: argument conversions live in R/convert.R.

#' Rearranging axes by an einops pattern
#'
#' `op_rearrange()` reorders, merges and splits axes as einops (and keras3)
#' do: `"b h w -> h (b w)"` moves `h` first and merges `b` with `w`. The
#' pattern reads the tensor's axes in order (row-major, as in NumPy), not R's
#' column-major layout. Differentiable.
#'
#' @param tensor A tensor.
#' @param pattern An einops pattern such as `"b h w -> b (h w)"`.
#' @param ... The lengths of split axes, e.g. `w1 = 2`.
#' @return A tensor.
#' @examplesIf pycg_available()
#' x <- op_zeros(c(2, 3, 4))
#' op_shape(op_rearrange(x, "b h w -> h (b w)"))
#' op_shape(op_rearrange(x, "b h (w1 w) -> (b w1) h w", w1 = 2))
#' @name ops-einops
NULL

#' @rdname ops-einops
#' @export
op_rearrange <- function(tensor, pattern, ...) {
  lengths <- lapply(list(...), as_int)
  do.call(op_call, c(list("rearrange", as_py(tensor), as_py(pattern)),
                     lengths))
}
