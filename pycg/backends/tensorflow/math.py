"""TensorFlow kernels of the special functions, integer and bit ops,
sorting and searching, Fourier transforms, complex parts and dimensions
known only while tracing (keras.ops math names). exp2 and erfinv of half
types and erf of huge float64 values need help first. The gamma family,
beta and the binomial coefficients are the shared algorithms
(pycg/backends/_gamma.py, _beta.py) in float64, over TensorFlow's lgamma
(half types through float32)."""
import numpy as np
import tensorflow as tf
from tensorflow.python.ops import gen_math_ops as _gen

from pycg.backends import _beta, _gamma
from pycg.backends import kernels as _kernels

tnp = tf.experimental.numpy

arccosh = tf.math.acosh
arcsinh = tf.math.asinh
arctanh = tf.math.atanh
erfc = tf.math.erfc


isinf = tf.math.is_inf
isneginf = tnp.isneginf
isposinf = tnp.isposinf
gcd = tnp.gcd
lcm = tnp.lcm
bitwise_and = tf.bitwise.bitwise_and
bitwise_or = tf.bitwise.bitwise_or
bitwise_xor = tf.bitwise.bitwise_xor
bitwise_invert = tf.bitwise.invert
left_shift = tf.bitwise.left_shift
right_shift = tf.bitwise.right_shift
nextafter = tf.math.nextafter
logical_xor = tf.math.logical_xor


def signbit(x):
    if x.dtype.is_unsigned or x.dtype == tf.bool:
        return tf.zeros_like(x, tf.bool)
    if not x.dtype.is_floating:
        return x < 0
    bits = tf.bitcast(x, {2: tf.int16, 4: tf.int32, 8: tf.int64}[x.dtype.size])
    return bits < 0


def cbrt(x):
    return tf.sign(x) * tf.pow(tf.abs(x), tf.constant(1 / 3, x.dtype))


def trunc(x):
    if not x.dtype.is_floating:
        return x
    return tf.where(x < 0, tf.math.ceil(x), tf.math.floor(x))


def i0(x):
    return tf.math.bessel_i0(x)


def i1(x):
    return tf.math.bessel_i1(x)


def argsort(x, axis):
    if x.dtype == tf.bool:
        x = tf.cast(x, tf.int32)
    if not x.dtype.is_floating:
        return tf.argsort(x, axis=axis, stable=True)
    # NaN last, as NumPy (tf.argsort's comparisons put it anywhere): sort
    # with NaN read as +inf, then move the NaNs behind, both stably
    nan = tf.math.is_nan(x)
    first = tf.argsort(tf.where(nan, tf.constant(np.inf, x.dtype), x),
                       axis=axis, stable=True)
    behind = tf.argsort(tf.cast(tnp.take_along_axis(nan, first, axis),
                                tf.int8), axis=axis, stable=True)
    return tnp.take_along_axis(first, behind, axis)


def top_k_indices(x, k):
    if x.dtype == tf.bool:
        x = tf.cast(x, tf.int32)
    return tf.math.top_k(x, k, sorted=True).indices


def cumprod(x, axis):
    if x.dtype == tf.bool:
        x = tf.cast(x, tf.int32)
    return tf.math.cumprod(x, axis=axis)


def isin(x1, x2):
    flat = tf.reshape(x2, [-1])
    return tf.reduce_any(tf.equal(tf.expand_dims(x1, -1), flat), axis=-1)


def searchsorted(seq, values, side):
    flat = tf.reshape(values, [1, -1])
    out = tf.searchsorted(seq[None], flat, side=side, out_type=tf.int32)
    return tf.reshape(out, tf.shape(values))


def bincount(x, weights, minlength):
    return tf.math.bincount(x, weights, minlength=minlength,
                            dtype=tf.int32 if weights is None
                            else weights.dtype)


# ---- Fourier transforms on (real, imaginary) stacked on axis 0 -------------
_FFT = {1: (tf.signal.fft, tf.signal.ifft), 2: (tf.signal.fft2d,
                                                 tf.signal.ifft2d)}


def to_complex_pair(z):
    return tf.complex(z[0], z[1])


def _pair(c, dtype):
    return tf.cast(tf.stack([tf.math.real(c), tf.math.imag(c)]), dtype)


def _transform(z, axes, inverse):
    c = to_complex_pair(tf.cast(z, tf.float64) if z.dtype == tf.float64
                        else tf.cast(z, tf.float32))
    return _pair(_FFT[len(axes)][inverse](c), z.dtype)


def fft_pair(z, axes):
    return _transform(z, axes, 0)


def ifft_pair(z, axes):
    return _transform(z, axes, 1)


# ---- complex parts -------------------------------------------------------
real = tf.math.real
imag = tf.math.imag
conj = tf.math.conj
angle = tf.math.angle


def view(x, dtype):
    """ndarray.view: tf.bitcast, with the last axis merged or split."""
    dtype = tf.as_dtype(dtype)
    a, b = x.dtype.size, dtype.size
    if a == b:
        return tf.bitcast(x, dtype)
    if a > b:
        out = tf.bitcast(x, dtype)
        return tf.reshape(out, tf.concat([tf.shape(x)[:-1], [-1]], 0))
    shape = tf.concat([tf.shape(x)[:-1], [-1, b // a]], 0)
    return tf.bitcast(tf.reshape(x, shape), dtype)




# ---- dimensions unknown while tracing (None in a static shape) -------------
def dynamic_dim(x, axis):
    return tf.shape(x)[axis]


def slice_axis(x, axis, start, size):
    return x[(slice(None),) * axis + (slice(start, start + size),)]


def pad_axis(x, axis, before, after):
    pads = [[0, 0]] * axis + [[before, after]] + \
        [[0, 0]] * (len(x.shape) - axis - 1)
    return tf.pad(x, pads)


def sum_to(g, shape):
    """g summed over the axes on which `shape` (dynamic sizes allowed) was
    broadcast to g's shape, decided when the graph runs."""
    shape = tf.cast(tf.stack(shape), tf.int32) if len(shape) else \
        tf.constant([], tf.int32)
    axes, _ = tf.raw_ops.BroadcastGradientArgs(s0=shape, s1=tf.shape(g))
    return tf.reshape(tf.reduce_sum(g, axes), shape)


def exp2(x):   # (tnp.exp2 converts a bfloat16 tensor through NumPy)
    return tf.math.pow(tf.constant(2, x.dtype), x)


def erfinv(x):   # (no half kernel on CPU: through float32, as Keras)
    if x.dtype in (tf.float16, tf.bfloat16):
        return tf.cast(tf.math.erfinv(tf.cast(x, tf.float32)), x.dtype)
    return tf.math.erfinv(x)


def erf(x):   # (TensorFlow's float64 kernel is nan for |x| >= 1.4e154)
    return _gen.erf(tf.clip_by_value(x, -6.0, 6.0) if x.dtype == tf.float64
                    else x)   # (erf(6) is 1 in float64)


# ---- the gamma family, beta and binomial coefficients ----------------------
def _constant(value, like):   # (through NumPy: tf.constant(-0.0,
    # tf.float64) drops the sign)
    dtype = tf.float64 if like is None else like.dtype
    return tf.constant(np.array(value, dtype.as_numpy_dtype))


def _tf_records():
    """Whether a TensorFlow tape or forward accumulator may record (the one
    private TensorFlow read of the backend: True if it ever goes away)."""
    try:
        from tensorflow.python.eager import record
    except ImportError:
        return True
    return record.could_possibly_record()


_TF = _gamma.Namespace(
    where=tf.where, log=tf.math.log, log1p=tf.math.log1p, exp=tf.math.exp,
    floor=tf.math.floor, round=tf.math.round, abs=tf.math.abs,
    sin=tf.math.sin, cos=tf.math.cos, pow=tf.math.pow,
    isnan=tf.math.is_nan, minimum=tf.math.minimum, maximum=tf.math.maximum,
    lgamma=tf.math.lgamma, constant=_constant)


def _in_float64(fn, *xs):
    if tf.executing_eagerly() and not _tf_records():   # (NumPy's ops are
        # the quicker eagerly; a recording TensorFlow tape, to_tensorflow's
        # second order, needs TensorFlow's)
        return tf.constant(_gamma.on_host(fn, *xs).astype(
            xs[0].dtype.as_numpy_dtype))
    return tf.cast(fn(_TF, *(tf.cast(x, tf.float64) for x in xs)),
                   xs[0].dtype)


def _through_float32(kernel, x):
    if x.dtype in (tf.float16, tf.bfloat16):
        return tf.cast(kernel(tf.cast(x, tf.float32)), x.dtype)
    return kernel(x)


def lgamma(x):
    return _through_float32(tf.math.lgamma, x)


def digamma(x):   # (TensorFlow's loses 6 digits near its root, 1.4616)
    return _in_float64(_gamma.digamma, x)


def polygamma(x, n):   # (TensorFlow's loses 5 digits at x = -171.5, n = 4)
    return _in_float64(lambda xp, v: _gamma.polygamma(xp, n, v), x)


def gamma(x):
    return _in_float64(_gamma.gamma, x)


def lbeta(a, b):
    return _in_float64(_beta.lbeta, a, b)


def beta(a, b):
    return _in_float64(_beta.beta, a, b)


def choose(n, k):
    return _in_float64(_beta.choose, n, k)


def lchoose(n, k):
    return _in_float64(_beta.lchoose, n, k)


__all__ = _kernels(globals())   # (this file's kernels: see backends.kernels)
