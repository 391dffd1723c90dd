# Thin wrappers of pycg.ops: argument conversions live in R/convert.R.

#' Convolutions, pooling and attention
#'
#' Keras' convolution ops on tensors of shape (batch, spatial..., channels)
#' (or (batch, channels, spatial...) with `data_format = "channels_first"`),
#' 1 to 3 spatial dimensions. `op_conv()` is a cross-correlation with a kernel
#' (spatial..., in channels, filters); `op_depthwise_conv()` convolves each
#' channel with its own kernel (spatial..., channels, multiplier);
#' `op_separable_conv()` follows it with a 1x1 `pointwise_kernel`;
#' `op_conv_transpose()` (kernel (spatial..., filters, channels)) is the
#' transpose of `op_conv()`. `op_max_pool()` and `op_average_pool()` reduce
#' windows (with `padding = "same"`, padded cells do not count).
#' `op_dot_product_attention()` takes query (batch, T, heads, dim) and key,
#' value (batch, S, kv heads, dim).
#'
#' @param inputs A tensor.
#' @param kernel,depthwise_kernel,pointwise_kernel Kernels.
#' @param strides,dilation_rate,pool_size,output_padding A whole number, or
#'   one per spatial dimension.
#' @param padding `"valid"` or `"same"`.
#' @param data_format `"channels_last"` (`NULL`) or `"channels_first"`.
#' @param query,key,value Attention inputs.
#' @param bias An additive bias of the attention logits.
#' @param mask A logical tensor: `TRUE` where attention is allowed.
#' @param scale The logit scale (`NULL`: `1 / sqrt(dim)`).
#' @param is_causal If `TRUE`, position t attends to positions <= t only.
#' @param flash_attention Not supported; `NULL` or `FALSE`.
#' @param attn_logits_soft_cap Not supported; `NULL`.
#' @return A tensor.
#' @examplesIf pycg_available()
#' x <- op_reshape(op_arange(6), c(1, 6, 1))
#' op_conv(x, op_ones(c(2, 1, 1)))
#' op_max_pool(x, 2)
#' @name ops-conv
NULL

#' @rdname ops-conv
#' @export
op_conv <- function(inputs, kernel, strides = 1L, padding = "valid",
                    data_format = NULL, dilation_rate = 1L) {
  op_call("conv", as_py(inputs), as_py(kernel), strides = as_int(strides),
          padding = as_py(padding), data_format = as_py(data_format),
          dilation_rate = as_int(dilation_rate))
}

#' @rdname ops-conv
#' @export
op_depthwise_conv <- function(inputs, kernel, strides = 1L, padding = "valid",
                              data_format = NULL, dilation_rate = 1L) {
  op_call("depthwise_conv", as_py(inputs), as_py(kernel),
          strides = as_int(strides), padding = as_py(padding),
          data_format = as_py(data_format),
          dilation_rate = as_int(dilation_rate))
}

#' @rdname ops-conv
#' @export
op_separable_conv <- function(inputs, depthwise_kernel, pointwise_kernel,
                              strides = 1L, padding = "valid",
                              data_format = NULL, dilation_rate = 1L) {
  op_call("separable_conv", as_py(inputs), as_py(depthwise_kernel),
          as_py(pointwise_kernel), strides = as_int(strides),
          padding = as_py(padding), data_format = as_py(data_format),
          dilation_rate = as_int(dilation_rate))
}

#' @rdname ops-conv
#' @export
op_conv_transpose <- function(inputs, kernel, strides = 1L, padding = "valid",
                              output_padding = NULL, data_format = NULL,
                              dilation_rate = 1L) {
  op_call("conv_transpose", as_py(inputs), as_py(kernel),
          strides = as_int(strides), padding = as_py(padding),
          output_padding = as_int(output_padding),
          data_format = as_py(data_format),
          dilation_rate = as_int(dilation_rate))
}

#' @rdname ops-conv
#' @export
op_max_pool <- function(inputs, pool_size, strides = NULL, padding = "valid",
                        data_format = NULL) {
  op_call("max_pool", as_py(inputs), as_int(pool_size),
          strides = as_int(strides), padding = as_py(padding),
          data_format = as_py(data_format))
}

#' @rdname ops-conv
#' @export
op_average_pool <- function(inputs, pool_size, strides = NULL,
                            padding = "valid", data_format = NULL) {
  op_call("average_pool", as_py(inputs), as_int(pool_size),
          strides = as_int(strides), padding = as_py(padding),
          data_format = as_py(data_format))
}

#' @rdname ops-conv
#' @export
op_dot_product_attention <- function(query, key, value, bias = NULL,
                                     mask = NULL, scale = NULL,
                                     is_causal = FALSE,
                                     flash_attention = NULL,
                                     attn_logits_soft_cap = NULL) {
  op_call("dot_product_attention", as_py(query), as_py(key), as_py(value),
          bias = as_py(bias), mask = as_py(mask), scale = as_py(scale),
          is_causal = as_flag(is_causal),
          flash_attention = as_flag(flash_attention),
          attn_logits_soft_cap = as_py(attn_logits_soft_cap))
}
