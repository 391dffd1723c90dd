# Thin wrappers of pycg.ops: argument conversions live in R/convert.R.

#' Rearranging images and adaptive pooling
#'
#' `op_depth_to_space()` moves channels into `block_size` x `block_size`
#' spatial blocks and `op_space_to_depth()` back. `op_unfold()` extracts the
#' sliding blocks of a (batch, channels, height, width) image as columns and
#' `op_fold()` sums columns back into an image (torch's Unfold and Fold).
#' `op_adaptive_average_pool()` and `op_adaptive_max_pool()` reduce each
#' spatial axis to `output_size` bins.
#'
#' @param x,inputs A tensor.
#' @param block_size The block size.
#' @param data_format `"channels_last"` or `"channels_first"`.
#' @param kernel_size,dilation,padding,stride,output_size A whole number, or
#'   one per spatial dimension.
#' @return A tensor.
#' @examplesIf pycg_available()
#' x <- op_reshape(op_arange(16), c(1, 1, 4, 4))
#' op_unfold(x, 2, stride = 2)
#' op_adaptive_max_pool(x, 2, data_format = "channels_first")
#' @name ops-spatial
NULL

#' @rdname ops-spatial
#' @export
op_depth_to_space <- function(x, block_size, data_format = "channels_last") {
  op_call("depth_to_space", as_py(x), as_int(block_size),
          data_format = as_py(data_format))
}

#' @rdname ops-spatial
#' @export
op_space_to_depth <- function(x, block_size, data_format = "channels_last") {
  op_call("space_to_depth", as_py(x), as_int(block_size),
          data_format = as_py(data_format))
}

#' @rdname ops-spatial
#' @export
op_unfold <- function(x, kernel_size, dilation = 1L, padding = 0L,
                      stride = 1L) {
  op_call("unfold", as_py(x), as_int(kernel_size),
          dilation = as_int(dilation), padding = as_int(padding),
          stride = as_int(stride))
}

#' @rdname ops-spatial
#' @export
op_fold <- function(x, output_size, kernel_size, dilation = 1L, padding = 0L,
                    stride = 1L) {
  op_call("fold", as_py(x), as_int(output_size), as_int(kernel_size),
          dilation = as_int(dilation), padding = as_int(padding),
          stride = as_int(stride))
}

#' @rdname ops-spatial
#' @export
op_adaptive_average_pool <- function(inputs, output_size,
                                     data_format = NULL) {
  op_call("adaptive_average_pool", as_py(inputs), as_int(output_size),
          data_format = as_py(data_format))
}

#' @rdname ops-spatial
#' @export
op_adaptive_max_pool <- function(inputs, output_size, data_format = NULL) {
  op_call("adaptive_max_pool", as_py(inputs), as_int(output_size),
          data_format = as_py(data_format))
}
