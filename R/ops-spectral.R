# Thin wrappers of pycg.ops: argument conversions live in R/convert.R.

#' Fourier transforms
#'
#' A complex tensor is a list of two float tensors, `list(real, imag)`, as in
#' keras3; the transforms return one. `op_stft()` frames the last axis.
#'
#' @param x A tensor (or an R value).
#' @param sequence_length The frame length.
#' @param sequence_stride The step between frames.
#' @param fft_length The transform length.
#' @param length The output length, or `NULL`.
#' @param window `"hann"`, `"hamming"`, `NULL` or a tensor.
#' @param center If `TRUE`, pad the signal so frames are centred.
#' @return A tensor (a list of tensors where there are several results);
#'   R values for the tensor facts.
#' @examplesIf pycg_available()
#' x <- op_convert_to_tensor(c(1, 2, 3, 4))
#' op_rfft(x)
#' op_irfft(op_rfft(x))
#' @name ops-spectral
NULL

#' @rdname ops-spectral
#' @export
op_extract_sequences <- function(x, sequence_length, sequence_stride) {
  op_call("extract_sequences", as_py(x), as_int(sequence_length),
    as_int(sequence_stride))
}

#' @rdname ops-spectral
#' @export
op_fft <- function(x) {
  op_call("fft", as_py(x))
}

#' @rdname ops-spectral
#' @export
op_fft2 <- function(x) {
  op_call("fft2", as_py(x))
}

#' @rdname ops-spectral
#' @export
op_ifft2 <- function(x) {
  op_call("ifft2", as_py(x))
}

#' @rdname ops-spectral
#' @export
op_irfft <- function(x, fft_length = NULL) {
  op_call("irfft", as_py(x), fft_length = as_int(fft_length))
}

#' @rdname ops-spectral
#' @export
op_istft <- function(x, sequence_length, sequence_stride, fft_length,
    length = NULL, window = "hann", center = TRUE) {
  op_call("istft", as_py(x), as_int(sequence_length),
    as_int(sequence_stride), as_int(fft_length), length = as_int(length),
    window = as_py(window), center = as_py(center))
}

#' @rdname ops-spectral
#' @export
op_rfft <- function(x, fft_length = NULL) {
  op_call("rfft", as_py(x), fft_length = as_int(fft_length))
}

#' @rdname ops-spectral
#' @export
op_stft <- function(x, sequence_length, sequence_stride, fft_length,
    window = "hann", center = TRUE) {
  op_call("stft", as_py(x), as_int(sequence_length), as_int(sequence_stride),
    as_int(fft_length), window = as_py(window), center = as_py(center))
}

#' @rdname ops-spectral
#' @export
op_view_as_complex <- function(x) {
  op_call("view_as_complex", as_py(x))
}

#' @rdname ops-spectral
#' @export
op_view_as_real <- function(x) {
  op_call("view_as_real", as_py(x))
}
