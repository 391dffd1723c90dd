"""Fourier transforms and framing (keras.ops math names). A complex tensor
is a (real, imaginary) pair of float tensors, as in Keras. The transforms
are two linear ops (_fft, _ifft) on the pair stacked on a new first axis;
each one's gradient is the other (rules/decompositions.py); rfft, irfft,
stft and istft are compositions."""
import builtins
import math

import numpy as np

from pycg import backends, config
from pycg._errors import Dtype, Op, Shape, user_error
from pycg.ops._machinery.allocation import guard
from pycg.ops._machinery.arguments import as_int
from pycg.ops._machinery.dispatch import apply, as_tensor
from pycg.ops.creation import cast, zeros_like
from pycg.ops.arrays import moveaxis
from pycg.ops.manipulation import concatenate, flip, getitem, pad, stack
from pycg.tensor import Tensor, is_float

__all__ = ("extract_sequences", "fft", "fft2", "ifft2", "irfft", "istft",
           "rfft", "stft", "view_as_complex", "view_as_real")


def _pair(op, x):
    if not isinstance(x, (tuple, list)) or len(x) != 2:
        raise ValueError(f"pycg.ops.{op}: x must be a (real, imaginary) "
                         f"pair of tensors, got {type(x).__name__}")
    re, im = (as_tensor(t, op) for t in x)
    if re.shape != im.shape:
        raise user_error(ValueError, "{op}: the real and imaginary parts differ "
                         "in shape: {x} and {y}", op=Op(op), x=Shape(re.shape),
                         y=Shape(im.shape))
    if not (is_float(re.dtype) and is_float(im.dtype)):
        raise TypeError(f"pycg.ops.{op}: the real and imaginary parts must "
                        f"be floats, got {re.dtype} and {im.dtype}")
    return stack([re, im])


def _transform(name, z, rank, op=None):
    if z.ndim - 1 < rank:
        raise user_error(ValueError, "{op}: expected at least {rank} axes, got "
                         "shape {shape}", op=Op(op or name.strip("_")),
                         rank=rank, shape=Shape(z.shape[1:]))
    axes = tuple(range(-rank, 0))
    kernel = backends.active.fft_pair if name == "_fft" else \
        backends.active.ifft_pair
    return apply(name, kernel, (z,), {"axes": axes})


def _split(z):
    return getitem(z, 0), getitem(z, 1)


def fft(x):
    """The discrete Fourier transform along the last axis of x =
    (real, imag).

    Args:
        x: The input as a pair (real, imag) of float tensors of the same shape
            (keras.ops' form of a complex signal).

    Returns:
        A pair (real, imag) of the real and imaginary parts, x's shapes.

    Example:
        >>> from pycg import ops
        >>> re, im = ops.fft((ops.convert_to_tensor([1.0, 0.0]),
        ...                   ops.convert_to_tensor([0.0, 0.0])))
        >>> re.numpy().tolist(), im.numpy().tolist()
        ([1.0, 1.0], [0.0, 0.0])
    """
    return _split(_transform("_fft", _pair("fft", x), 1))


def ifft(x):
    return _split(_transform("_ifft", _pair("ifft", x), 1))


def fft2(x):
    """The 2-d discrete Fourier transform over the last two axes.

    Args:
        x: The input as a pair (real, imag) of float tensors of the same shape
            (keras.ops' form of a complex signal).

    Returns:
        A pair (real, imag) of the real and imaginary parts, x's shapes.
    """
    return _split(_transform("_fft", _pair("fft2", x), 2, "fft2"))


def ifft2(x):
    """The 2-d inverse discrete Fourier transform over the last two axes.

    Args:
        x: The input as a pair (real, imag) of float tensors of the same shape
            (keras.ops' form of a complex signal).

    Returns:
        A pair (real, imag) of the real and imaginary parts, x's shapes.
    """
    return _split(_transform("_ifft", _pair("ifft2", x), 2, "ifft2"))


def _fit_last(x, n):
    """x cut or zero-padded to length n along the last axis."""
    m = x.shape[-1]
    if m > n:
        return getitem(x, (Ellipsis, slice(0, n)))
    if m < n:
        return pad(x, [(0, 0)] * (x.ndim - 1) + [(0, n - m)])
    return x


def rfft(x, fft_length=None):
    """The Fourier transform of real x along the last axis, non-negative
    frequencies only: (real, imag) of length fft_length // 2 + 1.

    Args:
        x: The real signal (its last axis transformed).

    Returns:
        A pair (real, imag), each with a last axis of fft_length // 2 + 1.

    Differs:
        A bfloat16 x answers in float32 (open: Keras keeps bfloat16).

    Example:
        >>> from pycg import ops
        >>> re, im = ops.rfft(ops.convert_to_tensor([1.0, 2.0, 3.0, 4.0]))
        >>> re.numpy().tolist(), im.numpy().tolist()
        ([10.0, -2.0, -2.0], [0.0, 2.0, 0.0])
    """
    x = as_tensor(x, "rfft")
    x = x if is_float(x.dtype) else cast(x, config.floatx())
    n = x.shape[-1] if fft_length is None else \
        as_int(fft_length, "rfft", "fft_length")
    guard("rfft", (2,) + x.shape[:-1] + (n,), x.dtype, "fft_length")
    x = _fit_last(x, n)
    re, im = _split(_transform("_fft", stack([x, zeros_like(x)]), 1))
    half = (Ellipsis, slice(0, n // 2 + 1))
    return getitem(re, half), getitem(im, half)


def irfft(x, fft_length=None):
    """The inverse of rfft: a real signal of length fft_length (default
    2 * (m - 1)); the imaginary parts at frequency 0 (and n/2) are
    ignored.

    Args:
        x: The input as a pair (real, imag) of float tensors of the same shape
            (keras.ops' form of a complex signal).

    Returns:
        A real float tensor with a last axis of fft_length.
    """
    z = _pair("irfft", x)
    m = z.shape[-1]
    n = 2 * (m - 1) if fft_length is None else \
        as_int(fft_length, "irfft", "fft_length")
    guard("irfft", z.shape[:-1] + (n,), z.dtype, "fft_length")
    half = n // 2 + 1
    z = _fit_last(z, half)
    re, im = getitem(z, 0), getitem(z, 1)
    keep = np.ones(half)
    keep[0] = 0
    if n % 2 == 0:
        keep[-1] = 0
    im = im * Tensor(backends.active.convert(keep.astype(im.dtype)))
    mirror = (Ellipsis, slice(1, n - half + 1))
    full_re = concatenate([re, flip(getitem(re, mirror), -1)], -1)
    full_im = concatenate([im, -flip(getitem(im, mirror), -1)], -1)
    out = _transform("_ifft", stack([full_re, full_im]), 1)
    return getitem(out, 0)


def extract_sequences(x, sequence_length, sequence_stride):
    """Frames of length sequence_length every sequence_stride samples
    along the last axis: shape (..., frames, sequence_length).

    Returns:
        A tensor (..., frames, sequence_length) of x's dtype.
    """
    x = as_tensor(x, "extract_sequences")
    op = "extract_sequences"
    n, L, s = x.shape[-1], as_int(sequence_length, op, "sequence_length"), \
        as_int(sequence_stride, op, "sequence_stride")
    if L <= 0 or s <= 0 or L > n:
        raise ValueError(f"pycg.ops.extract_sequences: need 0 < "
                         f"sequence_length <= {n} and sequence_stride > 0, "
                         f"got {L} and {s}")
    starts = np.arange((n - L) // s + 1) * s
    return getitem(x, (Ellipsis, starts[:, None] + np.arange(L)[None]))


def _window(window, length, n):
    """The window as a NumPy array, zero-padded to n at both ends."""
    if window is None:
        w = np.ones(length)
    elif isinstance(window, str):
        if window not in ("hann", "hamming"):
            raise ValueError(f"pycg.ops.stft: window must be 'hann', "
                             f"'hamming', None or a tensor, got {window!r}")
        a = 0.5 if window == "hann" else 0.54
        # periodic for an even length, symmetric for an odd one, ones for
        # length 1: TensorFlow's hann_window(periodic=True), Keras' window
        period = length if length % 2 == 0 else length - 1
        w = a - (1 - a) * np.cos(2 * math.pi * np.arange(length) /
                                 builtins.max(period, 1)) \
            if length > 1 else np.ones(length)
    else:
        w = np.asarray(window.numpy() if isinstance(window, Tensor)
                       else window, np.float64)
        if w.shape != (length,):
            raise user_error(ValueError, "{op}: window must have shape {want}, "
                             "got {shape}", op=Op("stft"), want=Shape((length,)),
                             shape=Shape(w.shape))
    lo = (n - length) // 2
    return np.pad(w, (lo, n - length - lo))


def _const(a, dtype):
    return Tensor(backends.active.convert(np.asarray(a, dtype)))


def stft(x, sequence_length, sequence_stride, fft_length, window="hann",
         center=True):
    """The short-time Fourier transform of real x along the last axis:
    (real, imag) of shape (..., frames, fft_length // 2 + 1).

    Args:
        x: The real signal (its last axis is time).

    Returns:
        A pair (real, imag) of the real and imaginary parts, x's shapes.
    """
    x = as_tensor(x, "stft")
    if not is_float(x.dtype):
        raise TypeError(f"pycg.ops.stft: x must be float32 or float64, got "
                        f"{x.dtype}")
    n = as_int(fft_length, "stft", "fft_length")
    if n < as_int(sequence_length, "stft", "sequence_length"):
        raise ValueError(f"pycg.ops.stft: fft_length ({n}) must be at least "
                         f"sequence_length ({sequence_length})")
    stride = builtins.max(as_int(sequence_stride, "stft", "sequence_stride"),
                          1)   # (0 is refused by extract_sequences)
    length = x.shape[-1] + (n // 2 * 2 if center else 0)
    count = builtins.max((length - n) // stride + 1, 0)
    guard("stft", (2,) + x.shape[:-1] + (count, n), x.dtype, "fft_length")
    if center:
        idx = np.pad(np.arange(x.shape[-1]), n // 2, mode="reflect")
        x = getitem(x, (Ellipsis, idx))
    frames = extract_sequences(x, n, sequence_stride)
    if window is None:   # (the whole fft_length frame, as both Keras
        return rfft(frames, n)   # backends: no window to pad)
    w = _window(window, int(sequence_length), n)
    return rfft(frames * _const(w, x.dtype), n)


def view_as_complex(x):
    """A complex tensor from a float tensor whose last axis holds (real,
    imaginary); not differentiable.

    Returns:
        A complex tensor of x's shape without its last axis (complex64 for
        float32).
    """
    x = as_tensor(x, "view_as_complex")
    if not is_float(x.dtype):   # (NumPy would read bools and ints, and
        raise user_error(       # complex numbers, into a nonsense answer)
            TypeError, "{op}: expected a float tensor whose last axis holds "
            "(real, imaginary), got {dtype}", op=Op("view_as_complex"),
            dtype=Dtype(x.dtype.name))
    if x.ndim == 0 or x.shape[-1] != 2:
        raise user_error(ValueError, "{op}: the last axis must have length 2, "
                         "got shape {shape}", op=Op("view_as_complex"),
                         shape=Shape(x.shape))
    return Tensor(backends.active.to_complex_pair(moveaxis(x, -1, 0)._value))


def view_as_real(x):
    """A float tensor with a last axis of (real, imaginary).

    Returns:
        A float tensor of x's shape with a last axis of length 2 (float32 for
        complex64).

    Differs:
        A bool x is answered as NumPy's real and imag read it (the bools, and
        False); Keras on TensorFlow has no kernel for it.
    """
    from pycg.ops.elementwise import imag, real
    x = as_tensor(x, "view_as_real")
    return stack([real(x), imag(x)], -1)


def istft(x, sequence_length, sequence_stride, fft_length, length=None,
          window="hann", center=True):
    """The inverse of stft: overlap-add of the windowed inverse transforms
    (TensorFlow's inverse_stft window), cut to `length`.

    Args:
        x: The input as a pair (real, imag) of float tensors of the same shape
            (keras.ops' form of a complex signal).
        length: The signal's length (None: all the frames give).

    Returns:
        A real float tensor, the signal (last axis `length` long, when given).
    """
    dtype = _pair("istft", x).dtype
    n, step = (as_int(fft_length, "istft", "fft_length"),
               as_int(sequence_stride, "istft", "sequence_stride"))
    guard("istft", _pair("istft", x).shape[1:-1] + (n,), dtype, "fft_length")
    frames = irfft(x, n)
    w = None if window is None else _window(window, int(sequence_length), n)
    if w is not None:
        overlaps = -(-n // step)
        denom = np.pad(w * w, (0, overlaps * step - n))
        denom = np.tile(denom.reshape(overlaps, step).sum(0), overlaps)[:n]
        frames = frames * _const(w / denom, dtype)
    count, batch = frames.shape[-2], frames.shape[:-2]
    total = (count - 1) * step + n
    pos = (np.arange(count)[:, None] * step + np.arange(n)[None])
    pos = (np.arange(int(np.prod(batch, dtype=np.int64))).reshape(
        batch + (1, 1)) * total + pos).astype(np.int32)
    from pycg.ops.manipulation import _scatter
    out = _scatter(frames, pos, batch + (total,))
    start = n // 2 if center else 0
    end = start + int(length) if length is not None else (
        total - n // 2 if center else total)
    return getitem(out, (Ellipsis, slice(start, end)))
