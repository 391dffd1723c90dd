"""TensorFlow kernels of the elementwise, reduction, shape and creation ops
(keras.ops numpy names)."""
import numpy as np
import tensorflow as tf
from tensorflow.python.framework.ops import EagerTensor as _EagerTensor
from tensorflow.python.ops import gen_array_ops as _gen_array
from tensorflow.python.ops import gen_math_ops as _gen

from pycg.backends.tensorflow._fast import _FLOAT_ENUMS, _int32, scalar
from pycg.backends.tensorflow._fast import fast as _fast
from pycg.backends import kernels as _kernels

tnp = tf.experimental.numpy


# ---- elementwise ----------------------------------------------------------
# The hot elementwise kernels call the generated op wrappers directly: the
# public tf.math names add ~20% of Python dispatch per eager op.
_abs = _fast("Abs", _gen._abs)


def abs(x):
    return tf.math.abs(x) if x.dtype.is_complex else _abs(x)


negative = _fast("Neg", _gen.neg)
sqrt = _fast("Sqrt", _gen.sqrt)
square = _fast("Square", _gen.square)
exp = _fast("Exp", _gen.exp)
expm1 = _fast("Expm1", _gen.expm1)
log = _fast("Log", _gen.log)
log1p = _fast("Log1p", _gen.log1p)
sin = _fast("Sin", _gen.sin)
cos = _fast("Cos", _gen.cos)
tan = _gen.tan
arcsin = _gen.asin
arccos = _gen.acos
arctan = _gen.atan
sinh = _gen.sinh
cosh = _gen.cosh
tanh = _fast("Tanh", _gen.tanh)
sign = _gen.sign
floor = _gen.floor
ceil = _gen.ceil
reciprocal = _fast("Reciprocal", _gen.reciprocal)
rsqrt = _fast("Rsqrt", _gen.rsqrt)
logical_not = _gen.logical_not
add = _fast("AddV2", _gen.add_v2, 2)
subtract = _fast("Sub", _gen.sub, 2)
multiply = _fast("Mul", _gen.mul, 2)
def _integer_by_zero_is_zero(op):
    """op, where an integer y == 0 gives 0 (NumPy's, JAX's and the other
    backends' answer) instead of TensorFlow's InvalidArgumentError."""
    def kernel(x, y):
        if not x.dtype.is_integer:
            return op(x, y)
        zero = tf.equal(y, 0)
        q = op(x, tf.where(zero, tf.ones_like(y), y))
        return tf.where(zero, tf.zeros_like(q), q)
    kernel.__name__ = op.__name__
    return kernel


mod = _integer_by_zero_is_zero(tf.math.floormod)
floor_divide = _integer_by_zero_is_zero(tf.math.floordiv)
maximum = _fast("Maximum", _gen.maximum, 2)
minimum = _fast("Minimum", _gen.minimum, 2)
arctan2 = _gen.atan2


_real_div = _fast("RealDiv", _gen.real_div, 2)


def divide(x, y):
    # (an eager tensor's dtype enum first: reading x.dtype costs ~0.1 us)
    if type(x) is _EagerTensor and x._datatype_enum() in _FLOAT_ENUMS or \
            x.dtype.is_floating:
        return _real_div(x, y)
    return tf.math.truediv(x, y)


logaddexp = tnp.logaddexp
equal = tf.math.equal
not_equal = tf.math.not_equal
less = tf.math.less
less_equal = tf.math.less_equal
greater = tf.math.greater
greater_equal = tf.math.greater_equal
logical_and = tf.math.logical_and
logical_or = tf.math.logical_or
where = tf.where


def log2(x):
    return tf.math.log(x) / tf.math.log(tf.constant(2, x.dtype))


def log10(x):
    return tf.math.log(x) / tf.math.log(tf.constant(10, x.dtype))


def round(x, decimals=0):
    if decimals == 0:
        return tf.math.round(x)
    f = tf.constant(10.0 ** decimals, x.dtype)
    return tf.math.round(x * f) / f


# ---- reductions -----------------------------------------------------------
def sum(x, axis=None, keepdims=False):
    if x.dtype == tf.bool:
        x = tf.cast(x, tf.int32)
    if axis is None:
        axis = tuple(range(x.shape.rank))
    return _gen._sum(x, _int32(axis), keep_dims=keepdims)


def prod(x, axis=None, keepdims=False):
    if x.dtype == tf.bool:
        x = tf.cast(x, tf.int32)
    return tf.math.reduce_prod(x, axis=axis, keepdims=keepdims)


def max(x, axis=None, keepdims=False):
    return tf.math.reduce_max(x, axis=axis, keepdims=keepdims)


def min(x, axis=None, keepdims=False):
    return tf.math.reduce_min(x, axis=axis, keepdims=keepdims)


def cumsum(x, axis=None):
    if axis is None:
        return tf.math.cumsum(tf.reshape(x, [-1]))
    return tf.math.cumsum(x, axis=axis)


# ---- shapes -----------------------------------------------------------------
def reshape(x, shape):
    if type(shape) is tuple and all(type(n) is int for n in shape):
        return _gen_array.reshape(x, _int32(shape))
    return tf.reshape(x, shape)


def transpose(x, axes=None):
    return tf.transpose(x, axes)


def broadcast_to(x, shape):
    return tf.broadcast_to(x, shape)


def concatenate(xs, axis=0):
    return tf.concat(xs, axis)


def pad(x, pad_width, constant_values=0):
    return tf.pad(x, pad_width, constant_values=constant_values)


def gather_flat(x, positions):
    return tf.gather(tf.reshape(x, [-1]), positions)


def scatter_flat(values, positions, size):
    """Sum `values` into a zero vector of length `size` at `positions`
    (bools: any, as NumPy's add.at)."""
    flat = tf.reshape(values, [-1])
    if values.dtype == tf.bool:
        return tf.math.unsorted_segment_max(
            tf.cast(flat, tf.int8), tf.reshape(positions, [-1]), size) > 0
    return tf.math.unsorted_segment_sum(
        flat, tf.reshape(positions, [-1]), size)


# ---- creation -------------------------------------------------------------
def zeros(shape, dtype):
    return tf.zeros(shape, dtype=dtype)


def ones(shape, dtype):
    if shape == () and isinstance(dtype, np.dtype) and tf.executing_eagerly():
        return scalar(1, dtype)   # cached (a scalar target's seed)
    return tf.ones(shape, dtype=dtype)


def full(shape, value, dtype):
    return tf.fill(shape, tf.cast(value, dtype))  # 2.0 fills int32 too


def eye(n, m, k, dtype):
    return tf.convert_to_tensor(np.eye(n, m, k, dtype=dtype))


def arange(start, stop, step, dtype):
    return tf.range(start, stop, step, dtype=dtype) if not tf.as_dtype(
        dtype).is_integer else tf.cast(tf.range(start, stop, step), dtype)


def linspace(start, stop, num, endpoint, dtype):
    if num > 2**31 - 1:   # (TensorFlow's LinSpace counts in int32)
        return tf.cast(_linspace_int64(start, stop, num, endpoint), dtype)
    return tf.cast(tnp.linspace(start, stop, num, endpoint=endpoint), dtype)


def _linspace_int64(start, stop, num, endpoint):
    """np.linspace in float64 for any `num` (2**32 + 3 is not 3 values)."""
    div = num - 1 if endpoint else num
    steps = tf.cast(tf.range(num, dtype=tf.int64), tf.float64)
    values = start + steps * ((stop - start) / div if div else 0.0)
    return tf.concat([values[:-1], [stop]], 0) if endpoint and num > 1 \
        else values


_SIGNED = {tf.uint8: tf.int16, tf.uint16: tf.int32, tf.uint32: tf.int64,
           tf.uint64: tf.int64}


def power(x, y):
    # (TensorFlow's Pow has no unsigned kernels: through a signed type, the
    # product wrapping as the unsigned one would)
    signed = _SIGNED.get(x.dtype)
    if signed is None:
        return _gen._pow(x, y)
    return tf.cast(_gen._pow(tf.cast(x, signed), tf.cast(y, signed)),
                   x.dtype)


__all__ = _kernels(globals())   # (this file's kernels: see backends.kernels)
