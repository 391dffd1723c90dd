"""TensorFlow kernels. Values are tf.Tensor (eager, or symbolic inside
tf.function), so they run wherever TensorFlow places them (a GPU when there
is one)."""
import numpy as np

from pycg import backends as _registry

tf = _registry.import_tensorflow()  # quietly: see _tf_import.py

from tensorflow.python.ops import gen_math_ops as _gen  # noqa: E402
from tensorflow.python.framework.ops import EagerTensor  # noqa: E402
from tensorflow.python.ops import gen_array_ops as _gen_array  # noqa: E402
from tensorflow.python.ops import gen_nn_ops as _gen_nn  # noqa: E402

from pycg.backends._tf_fast import _FLOAT_ENUMS, _int32  # noqa: E402
from pycg.backends._tf_fast import fast as _fast  # noqa: E402
from pycg.backends._tf_fast import (  # noqa: E402, F401
    complex_dtypes, dtype_key, float_dtypes, grad_like, inexact, scalar,
    scalar_like, weak_caches, weak_scalar)

tnp = tf.experimental.numpy
name = "tensorflow"
out_of_memory = (MemoryError, tf.errors.ResourceExhaustedError)


# named, not found by making a tensor: importing pycg must leave TensorFlow's
# context unstarted, or tf.distribute.MultiWorkerMirroredStrategy() fails
types = frozenset((EagerTensor,))
float_types = frozenset()   # (an EagerTensor's type says nothing of its dtype)


def owns(value):
    return type(value) in types or isinstance(value, tf.Tensor)


# ---- conversion ---------------------------------------------------------
def convert(value, dtype=None):
    if isinstance(value, tf.Tensor):
        return value if dtype is None else tf.cast(value, dtype)
    return tf.convert_to_tensor(np.asarray(value, dtype=dtype))


def cast(x, dtype):
    return tf.cast(x, dtype)


def stop_gradient(x):  # a TF op only where tf.gradients sees it (traced)
    return x if type(x) in types else tf.stop_gradient(x)


def to_numpy(x):
    if not hasattr(x, "numpy"):
        raise TypeError(
            "pycg: this tensor is symbolic (inside pycg.function / "
            "tf.function) and has no value yet; use pycg ops on it instead "
            "of converting it to NumPy")
    return x.numpy()


def dtype_of(x):
    return np.dtype(x.dtype.as_numpy_dtype)


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
sigmoid = _fast("Sigmoid", _gen.sigmoid)
softplus = tf.math.softplus
relu = tf.nn.relu
from pycg.backends._tensorflow_fixes import erf  # noqa: E402,F401
real = tf.math.real
imag = tf.math.imag
conj = tf.math.conj

logical_not = _gen.logical_not
add = _fast("AddV2", _gen.add_v2, 2)
subtract = _fast("Sub", _gen.sub, 2)
multiply = _fast("Mul", _gen.mul, 2)
mod = tf.math.floormod
floor_divide = tf.math.floordiv
maximum = _fast("Maximum", _gen.maximum, 2)
minimum = _fast("Minimum", _gen.minimum, 2)
arctan2 = _gen.atan2


# TensorFlow's fused gradient kernels
tanh_grad = _fast("TanhGrad", _gen.tanh_grad, 2)
sigmoid_grad = _fast("SigmoidGrad", _gen.sigmoid_grad, 2)
relu_grad = _fast("ReluGrad", _gen_nn.relu_grad, 2)
sqrt_grad = _fast("SqrtGrad", _gen.sqrt_grad, 2)   # (0 where dy is 0)
rsqrt_grad = _fast("RsqrtGrad", _gen.rsqrt_grad, 2)
reciprocal_grad = _fast("ReciprocalGrad", _gen.reciprocal_grad, 2)


_real_div = _fast("RealDiv", _gen.real_div, 2)


def divide(x, y):
    # (an eager tensor's dtype enum first: reading x.dtype costs ~0.1 us)
    if type(x) is EagerTensor and x._datatype_enum() in _FLOAT_ENUMS or \
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


# ---- linear algebra -------------------------------------------------------
def matmul(a, b, transpose_a=False, transpose_b=False):
    """2-D floats through the generated op (TF's C fast path when eager)."""
    if a.dtype.is_floating and a.shape.rank == 2 and b.shape.rank == 2:
        return _gen.mat_mul(a, b, transpose_a=transpose_a,
                            transpose_b=transpose_b)
    return tf.linalg.matmul(a, b, transpose_a=transpose_a,
                            transpose_b=transpose_b)


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
    return tf.cast(tnp.linspace(start, stop, num, endpoint=endpoint), dtype)


from pycg.backends._tensorflow_state import (  # noqa: E402,F401
    assign, assign_add, assign_sub, host_call, outside_graph, read, variable)
from pycg.backends._tensorflow_more import *  # noqa: E402,F401,F403
from pycg.backends._tensorflow_edges import *  # noqa: E402,F401,F403
from pycg.backends._tensorflow_conv import *  # noqa: E402,F401,F403
