"""TensorFlow kernels where TensorFlow's own answer differs from NumPy's at
edge inputs, or where it has no kernel for a dtype that NumPy answers for:
NaN in arg extrema; bools in arithmetic, bitwise_invert, real, conj, round
and the matrix functions; complex numbers in isnan/isfinite/isinf and round,
and in NumPy's order (by real part, then imaginary part, NaN last) for
comparisons, maximum, minimum, max, min, the arg extrema and sorting.
Gathered last by the package, over the topic files; the `edge_<kernel>`
functions are the ops' fallback where the kernel fails (ops/_machinery/dispatch.py
binary): NumPy's meaning, or None where they have none."""
import numpy as np
import tensorflow as tf
from tensorflow.python.ops import gen_math_ops as _gen

from pycg.backends.tensorflow.math import argsort as _argsort_real
from pycg.backends import kernels as _kernels


def argmax(x, axis=None, keepdims=False):
    return _arg_extremum(tf.math.argmax, x, axis, keepdims)


def argmin(x, axis=None, keepdims=False):
    return _arg_extremum(tf.math.argmin, x, axis, keepdims)


def _arg_extremum(fn, x, axis, keepdims):
    if x.dtype.is_complex:   # (the min of x is the max of -x, by parts)
        fn = _complex_argmax if fn is tf.math.argmax else \
            lambda v, a, **_: _complex_argmax(-v, a)
    if axis is None:
        out = _nan_first(fn, tf.reshape(x, [-1]), 0)
        return tf.reshape(out, [1] * len(x.shape)) if keepdims else out
    out = _nan_first(fn, x, axis)
    return tf.expand_dims(out, axis) if keepdims else out


def _nan_first(fn, x, axis):
    """fn's index, or that of the first NaN where there is one (NumPy and
    JAX; TensorFlow's kernel skips NaNs, or not, by position)."""
    out = fn(x, axis, output_type=tf.int32)
    if not (x.dtype.is_floating or x.dtype.is_complex):
        return out
    nan = isnan(x)
    return tf.where(tf.reduce_any(nan, axis), _first(nan, axis), out)


def _first(mask, axis):
    return tf.math.argmax(tf.cast(mask, tf.int8), axis, output_type=tf.int32)


def _complex_argmax(x, axis, output_type=tf.int32):
    """The first index of the largest real part, and among those of the
    largest imaginary part (NaNs are the caller's)."""
    re, im = tf.math.real(x), tf.math.imag(x)
    top = tf.equal(re, tf.reduce_max(re, axis, keepdims=True))
    best = tf.reduce_max(tf.where(top, im, tf.constant(-np.inf, im.dtype)),
                         axis, keepdims=True)
    return _first(tf.logical_and(top, tf.equal(im, best)), axis)


def max(x, axis=None, keepdims=False):
    if x.dtype.is_complex:
        return _complex_extremum(argmax, x, axis, keepdims)
    return tf.math.reduce_max(x, axis=axis, keepdims=keepdims)


def min(x, axis=None, keepdims=False):
    if x.dtype.is_complex:
        return _complex_extremum(argmin, x, axis, keepdims)
    return tf.math.reduce_min(x, axis=axis, keepdims=keepdims)


def _complex_extremum(arg, x, axis, keepdims):
    """The element at arg's index over the axes (an int, a tuple or None):
    those axes moved last and merged into one."""
    rank = len(x.shape)
    axes = range(rank) if axis is None else \
        [a % rank for a in (axis if isinstance(axis, (tuple, list))
                            else (axis,))]
    kept = [a for a in range(rank) if a not in axes]
    moved = tf.transpose(x, kept + list(axes))
    kept_shape = tf.shape(moved)[:len(kept)]
    rows = tf.reshape(moved, tf.concat([kept_shape, [-1]], 0))
    out = tf.gather(rows, arg(rows, -1), axis=len(kept),
                    batch_dims=len(kept))
    for a in sorted(axes) if keepdims else ():
        out = tf.expand_dims(out, a)
    return out


def argsort(x, axis):
    if not x.dtype.is_complex:
        return _argsort_real(x, axis)
    # NumPy's: [R + Rj, R + nanj, nan + Rj, nan + nanj], each by real part,
    # then imaginary part: three stable sorts, the last key first
    re, im = tf.math.real(x), tf.math.imag(x)
    nan_kind = tf.cast(tf.math.is_nan(im), tf.int8) + \
        2 * tf.cast(tf.math.is_nan(re), tf.int8)
    order = _argsort_real(im, axis)
    for key in (re, nan_kind):
        order = _take(order, _argsort_real(_take(key, order, axis), axis),
                      axis)
    return order


def _take(x, indices, axis):
    return tf.experimental.numpy.take_along_axis(x, indices, axis)


# ---- the ops' fallbacks where the kernel fails -------------------------------
def _after(a, b, or_equal):
    """a > b (a >= b) in NumPy's order of complex numbers."""
    ra, ia, rb, ib = tf.math.real(a), tf.math.imag(a), tf.math.real(b), \
        tf.math.imag(b)
    second = tf.greater_equal(ia, ib) if or_equal else tf.greater(ia, ib)
    after = tf.logical_or(tf.greater(ra, rb),
                          tf.logical_and(tf.equal(ra, rb), second))
    return tf.logical_and(after, tf.logical_not(   # (a NaN: never)
        tf.logical_or(isnan(a), isnan(b))))


def _pick(a, b, a_wins):
    """a where a_wins, else b; a NaN wins (NumPy's maximum and minimum)."""
    out = tf.where(a_wins, a, b)
    out = tf.where(isnan(b), b, out)
    return tf.where(isnan(a), a, out)


def _fallback(on_bools, on_complex):
    def kernel(a, b):
        if a.dtype == b.dtype == tf.bool and on_bools is not None:
            return on_bools(a, b)
        if a.dtype.is_complex and a.dtype == b.dtype:
            return on_complex(a, b)
        return None
    return kernel


edge_add = _fallback(tf.logical_or, None)
edge_multiply = _fallback(tf.logical_and, None)
edge_maximum = _fallback(tf.logical_or,
                         lambda a, b: _pick(a, b, _after(a, b, True)))
edge_minimum = _fallback(tf.logical_and,
                         lambda a, b: _pick(a, b, _after(b, a, True)))
edge_greater = _fallback(None, lambda a, b: _after(a, b, False))
edge_greater_equal = _fallback(None, lambda a, b: _after(a, b, True))
edge_less = _fallback(None, lambda a, b: _after(b, a, False))
edge_less_equal = _fallback(None, lambda a, b: _after(b, a, True))


# ---- complex numbers by parts, bools as NumPy reads them --------------------
def isnan(x):   # (IsNan, IsInf and IsFinite have no complex kernels)
    if x.dtype.is_complex:
        return _gen.logical_or(_gen.is_nan(tf.math.real(x)),
                               _gen.is_nan(tf.math.imag(x)))
    return _gen.is_nan(x)


def isfinite(x):
    if x.dtype.is_complex:
        return _gen.logical_and(_gen.is_finite(tf.math.real(x)),
                                _gen.is_finite(tf.math.imag(x)))
    return _gen.is_finite(x)


def isinf(x):
    if x.dtype.is_complex:
        return _gen.logical_or(_gen.is_inf(tf.math.real(x)),
                               _gen.is_inf(tf.math.imag(x)))
    return _gen.is_inf(x)


def round(x, decimals=0):
    if x.dtype == tf.bool:   # (NumPy: float16)
        return tf.cast(x, tf.float16)
    if x.dtype.is_complex:
        return tf.complex(round(tf.math.real(x), decimals),
                          round(tf.math.imag(x), decimals))
    if decimals == 0:
        return tf.math.round(x)
    f = tf.constant(10.0 ** decimals, x.dtype)
    return tf.math.round(x * f) / f


def bitwise_invert(x):
    return tf.logical_not(x) if x.dtype == tf.bool else tf.bitwise.invert(x)


def real(x):
    return x if x.dtype == tf.bool else tf.math.real(x)


def conj(x):   # (NumPy's conjugate of bools is int8)
    return tf.cast(x, tf.int8) if x.dtype == tf.bool else tf.math.conj(x)


# the matrix functions of integers and bools compute in float64, as NumPy's
def _inexact(x):
    return x if x.dtype.is_floating or x.dtype.is_complex else \
        tf.cast(x, tf.float64)


def det(x):
    return tf.linalg.det(_inexact(x))


def inv(x):
    return tf.linalg.inv(_inexact(x))


def cholesky(x):
    """NumPy's (LAPACK's): of a complex matrix, the lower triangle and the
    real part of the diagonal are read; a matrix that is not positive
    definite is an error where TensorFlow's CPU kernel answers NaN, or
    numbers of no meaning (eagerly: a traced graph keeps TensorFlow's)."""
    if x.dtype.is_complex:
        x = tf.linalg.set_diag(x, tf.cast(tf.math.real(
            tf.linalg.diag_part(x)), x.dtype))
    out = tf.linalg.cholesky(x)
    if tf.executing_eagerly() and not bool(tf.reduce_all(
            tf.math.real(tf.linalg.diag_part(out)) > 0)):
        raise tf.errors.InvalidArgumentError(
            None, None, "Matrix is not positive definite")
    return out


def slogdet(x):   # (NumPy's log|det| is real for complex matrices too)
    sign, logdet = tf.linalg.slogdet(_inexact(x))
    return sign, tf.math.real(logdet)


# ---- creation ---------------------------------------------------------------
def arange(start, stop, step, dtype):
    numbers = (int, float, np.integer, np.floating)
    if all(isinstance(v, numbers) for v in (start, stop, step)) and \
            (stop - start) * step <= 0:   # (Range refuses; NumPy: nothing)
        return tf.zeros([0], dtype)
    return tf.range(start, stop, step, dtype=dtype) if not tf.as_dtype(
        dtype).is_integer else tf.cast(tf.range(start, stop, step), dtype)


def full(shape, value, dtype):
    """np.full: a Python number as NumPy converts it (2.5 fills int32 with
    2, 10**30 fills float32), a tensor broadcast to the shape."""
    if not tf.is_tensor(value):
        value = np.asarray(value).astype(dtype)
    value = tf.cast(value, dtype)
    if value.shape.rank == 0:
        return tf.fill(shape, value)
    return tf.broadcast_to(value, shape)


__all__ = _kernels(globals())   # (this file's kernels: see backends.kernels)
