"""pycg.ops docstrings: Fourier transforms and framing
(pycg/ops/spectral.py)."""
from pycg.ops._docs.glossary import Doc

PAIR = "A pair (real, imag) of the real and imaginary parts, x's shapes."
COMPLEX_IN = ("The input as a pair (real, imag) of float tensors of the same "
              "shape (keras.ops' form of a complex signal).")

DOCS = {
    "fft": Doc(PAIR, x=COMPLEX_IN),
    "fft2": Doc(PAIR, x=COMPLEX_IN),
    "ifft2": Doc(PAIR, x=COMPLEX_IN, summary="The 2-d inverse discrete "
                 "Fourier transform over the last two axes."),
    "rfft": Doc("A pair (real, imag), each with a last axis of fft_length // "
                "2 + 1.", x="The real signal (its last axis transformed).",
                differs="A bfloat16 x answers in float32 (open: Keras keeps "
                "bfloat16)."),
    "irfft": Doc("A real float tensor with a last axis of fft_length.",
                 x=COMPLEX_IN),
    "stft": Doc(PAIR, x="The real signal (its last axis is time)."),
    "istft": Doc("A real float tensor, the signal (last axis `length` "
                 "long, when given).", x=COMPLEX_IN, length="The signal's "
                 "length (None: all the frames give)."),
    "extract_sequences": Doc("A tensor (..., frames, sequence_length) of "
                             "x's dtype."),
    "view_as_complex": Doc("A complex tensor of x's shape without its last "
                           "axis (complex64 for float32)."),
    "view_as_real": Doc("A float tensor of x's shape with a last axis of "
                        "length 2 (float32 for complex64).",
                        differs="A bool x is answered as NumPy's real and "
                        "imag read it (the bools, and False); Keras on "
                        "TensorFlow has no kernel for it."),
}
