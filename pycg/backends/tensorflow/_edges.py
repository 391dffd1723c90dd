"""TensorFlow kernels where TensorFlow's own answer differs from NumPy's at
edge inputs: NaN in arg extrema, bools in arithmetic, complex numbers in
isnan/isfinite (gathered last by the package, over the topic files)."""
import tensorflow as tf
from tensorflow.python.ops import gen_math_ops as _gen


def argmax(x, axis=None, keepdims=False):
    return _arg_extremum(tf.math.argmax, x, axis, keepdims)


def argmin(x, axis=None, keepdims=False):
    return _arg_extremum(tf.math.argmin, x, axis, keepdims)


def _arg_extremum(fn, x, axis, keepdims):
    if axis is None:
        out = _nan_first(fn, tf.reshape(x, [-1]), 0)
        return tf.reshape(out, [1] * len(x.shape)) if keepdims else out
    out = _nan_first(fn, x, axis)
    return tf.expand_dims(out, axis) if keepdims else out


def _nan_first(fn, x, axis):
    """fn's index, or that of the first NaN where there is one (NumPy and
    JAX; TensorFlow's kernel skips NaNs, or not, by position)."""
    out = fn(x, axis, output_type=tf.int32)
    if not x.dtype.is_floating:
        return out
    nan = tf.math.is_nan(x)
    return tf.where(tf.reduce_any(nan, axis), tf.math.argmax(
        tf.cast(nan, tf.int8), axis, output_type=tf.int32), out)


def _on_bools(kernel):
    """NumPy's meaning of an arithmetic kernel on two bools (TensorFlow's
    has no bool version); None for anything else."""
    return lambda a, b: kernel(a, b) if a.dtype == b.dtype == tf.bool \
        else None


# the ops' fallback where the kernel fails (ops/_dispatch.py binary)
bool_add = bool_maximum = _on_bools(tf.logical_or)
bool_multiply = bool_minimum = _on_bools(tf.logical_and)


def isnan(x):   # (IsNan and IsFinite have no complex kernels: by parts)
    if x.dtype.is_complex:
        return _gen.logical_or(_gen.is_nan(tf.math.real(x)),
                               _gen.is_nan(tf.math.imag(x)))
    return _gen.is_nan(x)


def isfinite(x):
    if x.dtype.is_complex:
        return _gen.logical_and(_gen.is_finite(tf.math.real(x)),
                                _gen.is_finite(tf.math.imag(x)))
    return _gen.is_finite(x)
