# Thin wrappers of pycg.ops: argument conversions live in R/convert.R.

#' Class encodings and losses
#'
#' `op_one_hot()` and `op_multi_hot()` encode class labels, which are
#' 1-based in R (`op_one_hot(2, 3)` is `c(0, 1, 0)`); a label outside
#' `1:num_classes` encodes as all zeros. The losses are elementwise
#' (`op_binary_crossentropy()`) or reduce the class axis only; none averages
#' over the batch. Probabilities are clipped to `[1e-7, 1 - 1e-7]` before
#' the log, as in Keras. `op_sparse_categorical_crossentropy()` takes 1-based
#' class labels as `target`. `op_psnr()` is the peak signal-to-noise ratio.
#' `op_ctc_loss()` is the connectionist temporal classification loss of
#' logits `output` (batch, time, classes) for label sequences `target`
#' (batch, max length), with 1-based labels and `mask_index` (the blank
#' class) as in R. `op_ctc_decode()` decodes logits greedily (best class
#' per step, repeats merged, blanks dropped) into
#' `list(decoded, scores)`: decoded labels are 1-based, `-1` pads.
#'
#' @param x,inputs Class labels (1-based), an integer tensor or R vector;
#'   for `op_ctc_decode()`, logits (batch, time, classes).
#' @param num_classes The number of classes.
#' @param axis The axis (1-based) of the classes.
#' @param dtype The dtype of the encoding (`NULL`: float32).
#' @param sparse Not supported; must be `FALSE`.
#' @param ... For `op_multi_hot()`, `num_tokens` as an alias of
#'   `num_classes`.
#' @param target The target: probabilities of the same shape as `output`, or
#'   (sparse) 1-based class labels.
#' @param output Predicted probabilities, or logits with `from_logits`.
#' @param from_logits If `TRUE`, `output` holds logits.
#' @param x1,x2 Two tensors of the same shape.
#' @param max_val The largest possible value of the signal.
#' @param target_length,output_length The length of each label sequence and
#'   of each output sequence.
#' @param mask_index The 1-based class number of the blank.
#' @param sequence_lengths The length of each sequence of `inputs`.
#' @param strategy Only `"greedy"`.
#' @param beam_width,top_paths Unused (beam search is not supported).
#' @param merge_repeated If `TRUE`, merge repeated classes.
#' @return A tensor.
#' @examplesIf pycg_available()
#' op_one_hot(c(2, 1), 3)
#' op_binary_crossentropy(c(1, 0), c(0.9, 0.2))
#' op_sparse_categorical_crossentropy(2, c(0.1, 0.7, 0.2))
#' @name ops-losses
NULL

#' @rdname ops-losses
#' @export
op_one_hot <- function(x, num_classes, axis = -1L, dtype = NULL,
                       sparse = FALSE) {
  op_call("one_hot", as_index(x, "x"), as_int(num_classes),
          axis = as_axis(axis),
          dtype = as_dtype(dtype), sparse = as_flag(sparse))
}

#' @rdname ops-losses
#' @export
op_multi_hot <- function(inputs, num_classes = NULL, axis = -1L, dtype = NULL,
                         sparse = FALSE, ...) {
  op_call("multi_hot", as_index(inputs, "inputs"),
          num_classes = as_int(num_classes),
          axis = as_axis(axis), dtype = as_dtype(dtype),
          sparse = as_flag(sparse), ...)
}

#' @rdname ops-losses
#' @export
op_binary_crossentropy <- function(target, output, from_logits = FALSE) {
  op_call("binary_crossentropy", as_py(target), as_py(output),
          from_logits = as_flag(from_logits))
}

#' @rdname ops-losses
#' @export
op_categorical_crossentropy <- function(target, output, from_logits = FALSE,
                                        axis = -1L) {
  op_call("categorical_crossentropy", as_py(target), as_py(output),
          from_logits = as_flag(from_logits), axis = as_axis(axis))
}

#' @rdname ops-losses
#' @export
op_sparse_categorical_crossentropy <- function(target, output,
                                               from_logits = FALSE,
                                               axis = -1L) {
  op_call("sparse_categorical_crossentropy", as_index(target, "target"),
          as_py(output),
          from_logits = as_flag(from_logits), axis = as_axis(axis))
}

#' @rdname ops-losses
#' @export
op_psnr <- function(x1, x2, max_val) {
  op_call("psnr", as_py(x1), as_py(x2), as_py(max_val))
}

#' @rdname ops-losses
#' @export
op_ctc_loss <- function(target, output, target_length, output_length,
                        mask_index = 1L) {
  op_call("ctc_loss", as_index(target, "target"), as_py(output),
          as_lengths(target_length), as_lengths(output_length),
          mask_index = as_index(mask_index, "mask_index"))
}

#' @rdname ops-losses
#' @export
op_ctc_decode <- function(inputs, sequence_lengths, strategy = "greedy",
                          beam_width = 100L, top_paths = 1L,
                          merge_repeated = TRUE, mask_index = 1L) {
  res <- op_call("ctc_decode", as_py(inputs), as_lengths(sequence_lengths),
                 strategy = as_py(strategy), beam_width = as_int(beam_width),
                 top_paths = as_int(top_paths),
                 merge_repeated = as_flag(merge_repeated),
                 mask_index = as_index(mask_index, "mask_index"))
  decoded <- res[[1]]
  list(op_where(decoded >= 0L, decoded + 1L, decoded), res[[2]])
}
