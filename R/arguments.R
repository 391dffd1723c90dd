# How each argument of the op_* wrappers converts, declared once by name
# (keras3's capture_args(list(axis = as_axis)) is the model): a wrapper
# passes `keepdims = as_flag(keepdims)` because keepdims is listed under
# as_flag here, in every op that has one. An argument named nowhere converts
# by as_py(). A name that means something else in one op (conv's `padding`
# is a string, fold()'s numbers) is declared for that op in
# `op_argument_exceptions`. The converters live in R/convert.R.
# tools/gen_r_ops.py reads these two lists to write the wrappers;
# tests/testthat/test-arguments.R reads the body of every op_* wrapper and
# fails where one converts an argument otherwise, or passes it on as is.
op_argument_conversions <- list(
  as_axis = c("axis", "axes", "axis1", "axis2", "axisa", "axisb", "axisc",
              "source", "destination"),
  as_flag = c("keepdims", "sorted", "endpoint", "sparse", "retstep",
              "return_counts", "return_index", "return_inverse",
              "from_logits", "is_causal", "flash_attention", "approximate",
              "reverse", "synchronized", "merge_repeated", "upper"),
  as_dtype = "dtype",
  as_int = c("beam_width", "block_size", "decimals", "dilation",
             "dilation_rate", "fft_length", "indices_or_sections", "k",
             "kernel_size", "length", "M", "maximum_iterations", "minlength",
             "n", "N", "num", "num_classes", "num_segments", "order",
             "output_padding", "output_size", "pool_size", "repeats",
             "sequence_length", "sequence_stride", "shift", "size", "stride",
             "strides", "top_paths", "unroll"),
  as_shape = c("shape", "newshape"),
  as_index = c("indices", "index", "segment_ids", "mask_index", "excluded",
               "kth", "start_indices", "targets"),
  as_lengths = c("output_length", "sequence_lengths", "target_length"),
  as_pad_width = "pad_width"
)

# op -> argument -> converter, where a name means something else.
op_argument_exceptions <- list(
  op_tensordot = list(axes = "as_tensordot_axes"),
  op_transpose = list(axes = "as_axes"),
  op_fold = list(padding = "as_int"),
  op_unfold = list(padding = "as_int"),
  op_fori_loop = list(lower = "as_int", upper = "as_int"),
  op_diagonal = list(offset = "as_int"),
  op_trace = list(offset = "as_int"),
  op_histogram = list(bins = "as_int", range = "as_range"),
  op_multi_hot = list(inputs = "as_index"),
  op_choose = list(n = "as_py", k = "as_py"),
  op_lchoose = list(n = "as_py", k = "as_py"),
  op_one_hot = list(x = "as_index"),
  op_ctc_loss = list(target = "as_index"),
  op_sparse_categorical_crossentropy = list(target = "as_index")
)

# The converter that argument `arg` of the wrapper `op` is declared to get.
op_argument_conversion <- function(op, arg) {
  special <- op_argument_exceptions[[op]][[arg]]
  if (!is.null(special)) return(special)
  for (conv in names(op_argument_conversions))
    if (arg %in% op_argument_conversions[[conv]]) return(conv)
  "as_py"
}
