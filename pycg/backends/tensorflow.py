"""TensorFlow kernels. Values are tf.Tensor (eager, or symbolic inside
tf.function), so they run wherever TensorFlow places them (a GPU when there
is one)."""
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

tnp = tf.experimental.numpy
name = "tensorflow"
_scalars = {}


def owns(value):
    return isinstance(value, tf.Tensor)


# ---- conversion ---------------------------------------------------------
def convert(value, dtype=None):
    if isinstance(value, tf.Tensor):
        return value if dtype is None else tf.cast(value, dtype)
    return tf.convert_to_tensor(np.asarray(value, dtype=dtype))


def scalar(value, dtype):
    """A cached constant: converting a Python number costs ~30 us."""
    key = (value, dtype)
    c = _scalars.get(key)
    if c is None:
        if len(_scalars) > 4096:
            _scalars.clear()
        c = _scalars[key] = tf.constant(value, dtype=dtype)
    return c


def cast(x, dtype):
    return tf.cast(x, dtype)


def to_numpy(x):
    if not hasattr(x, "numpy"):
        raise TypeError(
            "pycg: this tensor is symbolic (inside pycg.function / "
            "tf.function) and has no value yet; use pycg ops on it instead "
            "of converting it to NumPy")
    return x.numpy()


def dtype_of(x):
    return np.dtype(x.dtype.as_numpy_dtype)


def shape_of(x):
    return tuple(x.shape)


# ---- elementwise ----------------------------------------------------------
abs = tf.math.abs
negative = tf.math.negative
sqrt = tf.math.sqrt
square = tf.math.square
exp = tf.math.exp
expm1 = tf.math.expm1
log = tf.math.log
log1p = tf.math.log1p
sin = tf.math.sin
cos = tf.math.cos
tan = tf.math.tan
arcsin = tf.math.asin
arccos = tf.math.acos
arctan = tf.math.atan
sinh = tf.math.sinh
cosh = tf.math.cosh
tanh = tf.math.tanh
sign = tf.math.sign
floor = tf.math.floor
ceil = tf.math.ceil
reciprocal = tf.math.reciprocal
rsqrt = tf.math.rsqrt
sigmoid = tf.math.sigmoid
softplus = tf.math.softplus
relu = tf.nn.relu
erf = tf.math.erf
isnan = tf.math.is_nan
isfinite = tf.math.is_finite
logical_not = tf.math.logical_not
add = tf.math.add
subtract = tf.math.subtract
multiply = tf.math.multiply
divide = tf.math.truediv
power = tf.math.pow
maximum = tf.math.maximum
minimum = tf.math.minimum
arctan2 = tf.math.atan2
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


def clip(x, lo, hi):
    return tf.math.minimum(tf.math.maximum(x, lo), hi)


# ---- reductions -----------------------------------------------------------
def sum(x, axis=None, keepdims=False):
    return tf.math.reduce_sum(x, axis=axis, keepdims=keepdims)


def mean(x, axis=None, keepdims=False):
    return tf.math.reduce_mean(x, axis=axis, keepdims=keepdims)


def prod(x, axis=None, keepdims=False):
    return tf.math.reduce_prod(x, axis=axis, keepdims=keepdims)


def max(x, axis=None, keepdims=False):
    return tf.math.reduce_max(x, axis=axis, keepdims=keepdims)


def min(x, axis=None, keepdims=False):
    return tf.math.reduce_min(x, axis=axis, keepdims=keepdims)


def argmax(x, axis=None, keepdims=False):
    return tf.cast(tnp.argmax(x, axis=axis, keepdims=keepdims), tf.int32)


def argmin(x, axis=None, keepdims=False):
    return tf.cast(tnp.argmin(x, axis=axis, keepdims=keepdims), tf.int32)


def cumsum(x, axis=None):
    if axis is None:
        return tf.math.cumsum(tf.reshape(x, [-1]))
    return tf.math.cumsum(x, axis=axis)


# ---- shapes -----------------------------------------------------------------
def reshape(x, shape):
    return tf.reshape(x, shape)


def transpose(x, axes=None):
    return tf.transpose(x, axes)


def broadcast_to(x, shape):
    return tf.broadcast_to(x, shape)


def concatenate(xs, axis=0):
    return tf.concat(xs, axis)


def tile(x, repeats):
    return tnp.tile(x, repeats)


def repeat(x, repeats, axis=None):
    return tnp.repeat(x, repeats, axis=axis)


def flip(x, axis=None):
    return tnp.flip(x, axis=axis)


def pad(x, pad_width, constant_values=0):
    return tf.pad(x, pad_width, constant_values=constant_values)


def take(x, indices, axis=None):
    return tnp.take(x, indices, axis=axis)


def take_along_axis(x, indices, axis):
    return tnp.take_along_axis(x, indices, axis=axis)


def gather_flat(x, positions):
    return tf.gather(tf.reshape(x, [-1]), positions)


def scatter_flat(values, positions, size):
    """Sum `values` into a zero vector of length `size` at `positions`."""
    return tf.math.unsorted_segment_sum(
        tf.reshape(values, [-1]), tf.reshape(positions, [-1]), size)


def strided_slice(x, index):
    return x[index]


# ---- linear algebra -------------------------------------------------------
matmul = tf.linalg.matmul


def tensordot(x, y, axes):
    return tf.tensordot(x, y, axes)


def einsum(subscripts, *operands):
    return tf.einsum(subscripts, *operands)


cholesky = tf.linalg.cholesky
inv = tf.linalg.inv
solve = tf.linalg.solve
det = tf.linalg.det


def slogdet(x):
    return tf.linalg.slogdet(x)


# ---- creation -------------------------------------------------------------
def zeros(shape, dtype):
    return tf.zeros(shape, dtype=dtype)


def ones(shape, dtype):
    return tf.ones(shape, dtype=dtype)


def full(shape, value, dtype):
    return tf.fill(shape, tf.constant(value, dtype=dtype))


def eye(n, m, k, dtype):
    return tf.convert_to_tensor(np.eye(n, m, k, dtype=dtype))


def arange(start, stop, step, dtype):
    return tf.range(start, stop, step, dtype=dtype)


def linspace(start, stop, num, endpoint, dtype):
    return tf.cast(tnp.linspace(start, stop, num, endpoint=endpoint), dtype)
