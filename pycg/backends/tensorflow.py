"""TensorFlow kernels. Values are tf.Tensor (eager, or symbolic inside
tf.function), so they run wherever TensorFlow places them (a GPU when there
is one)."""
import numpy as np

from pycg import backends as _registry

tf = _registry.import_tensorflow()  # quietly: see _tf_import.py

from tensorflow.python.ops import gen_math_ops as _gen  # noqa: E402
from tensorflow.python.framework.ops import EagerTensor  # noqa: E402
from tensorflow.python.ops import gen_nn_ops as _gen_nn  # noqa: E402

tnp = tf.experimental.numpy
float_dtypes = (tf.float16, tf.bfloat16, tf.float32, tf.float64)
name = "tensorflow"
_scalars = {}


# named, not found by making a tensor: importing pycg must leave TensorFlow's
# context unstarted, or tf.distribute.MultiWorkerMirroredStrategy() fails
types = frozenset((EagerTensor,))


def owns(value):
    return type(value) in types or isinstance(value, tf.Tensor)


# ---- conversion ---------------------------------------------------------
def convert(value, dtype=None):
    if isinstance(value, tf.Tensor):
        return value if dtype is None else tf.cast(value, dtype)
    return tf.convert_to_tensor(np.asarray(value, dtype=dtype))


def _constant(value, dtype):
    # eager even while tracing, so the cache is safe to reuse in any graph;
    # from a NumPy array, because tf.constant's own scalar cache returns a
    # cached -0.0 for 0.0
    with tf.init_scope():
        return tf.convert_to_tensor(np.asarray(value, dtype=dtype))


def scalar(value, dtype):
    """A cached constant: converting a Python number costs ~30 us."""
    key = (value, dtype) if value else (repr(value), dtype)
    c = _scalars.get(key)
    if c is None:
        if len(_scalars) > 4096:
            _scalars.clear()
        c = _scalars[key] = _constant(value, dtype)
    return c


def scalar_like(number, x):
    """`number` as a cached constant of x's dtype (weakly typed)."""
    dt = x.dtype
    key = (number, type(number), dt) if number else (repr(number), dt)
    c = _scalars.get(key)
    if c is None:
        if len(_scalars) > 4096:
            _scalars.clear()
        c = _scalars[key] = _constant(number, dt.as_numpy_dtype)
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


# ---- elementwise ----------------------------------------------------------
# The hot elementwise kernels call the generated op wrappers directly: the
# public tf.math names add ~20% of Python dispatch per eager op.
abs = _gen._abs
negative = _gen.neg
sqrt = _gen.sqrt
square = _gen.square
exp = _gen.exp
expm1 = _gen.expm1
log = _gen.log
log1p = _gen.log1p
sin = _gen.sin
cos = _gen.cos
tan = _gen.tan
arcsin = _gen.asin
arccos = _gen.acos
arctan = _gen.atan
sinh = _gen.sinh
cosh = _gen.cosh
tanh = _gen.tanh
sign = _gen.sign
floor = _gen.floor
ceil = _gen.ceil
reciprocal = _gen.reciprocal
rsqrt = _gen.rsqrt
sigmoid = _gen.sigmoid
softplus = tf.math.softplus
relu = tf.nn.relu
erf = _gen.erf
isnan = _gen.is_nan
isfinite = _gen.is_finite
logical_not = _gen.logical_not
add = _gen.add_v2
subtract = _gen.sub
multiply = _gen.mul
power = _gen._pow
mod = tf.math.floormod
floor_divide = tf.math.floordiv
maximum = _gen.maximum
minimum = _gen.minimum
arctan2 = _gen.atan2


tanh_grad = _gen.tanh_grad      # TensorFlow's fused gradient kernels
sigmoid_grad = _gen.sigmoid_grad
relu_grad = _gen_nn.relu_grad


def divide(x, y):
    if x.dtype.is_floating:
        return _gen.real_div(x, y)
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
    return tf.math.reduce_sum(x, axis=axis, keepdims=keepdims)


def prod(x, axis=None, keepdims=False):
    if x.dtype == tf.bool:
        x = tf.cast(x, tf.int32)
    return tf.math.reduce_prod(x, axis=axis, keepdims=keepdims)


def max(x, axis=None, keepdims=False):
    return tf.math.reduce_max(x, axis=axis, keepdims=keepdims)


def min(x, axis=None, keepdims=False):
    return tf.math.reduce_min(x, axis=axis, keepdims=keepdims)


def argmax(x, axis=None, keepdims=False):
    return _arg_extremum(tf.math.argmax, x, axis, keepdims)


def argmin(x, axis=None, keepdims=False):
    return _arg_extremum(tf.math.argmin, x, axis, keepdims)


def _arg_extremum(fn, x, axis, keepdims):
    if axis is None:
        out = fn(tf.reshape(x, [-1]), 0, output_type=tf.int32)
        return tf.reshape(out, [1] * len(x.shape)) if keepdims else out
    out = fn(x, axis, output_type=tf.int32)
    return tf.expand_dims(out, axis) if keepdims else out


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


def pad(x, pad_width, constant_values=0):
    return tf.pad(x, pad_width, constant_values=constant_values)


def gather_flat(x, positions):
    return tf.gather(tf.reshape(x, [-1]), positions)


def scatter_flat(values, positions, size):
    """Sum `values` into a zero vector of length `size` at `positions`."""
    return tf.math.unsorted_segment_sum(
        tf.reshape(values, [-1]), tf.reshape(positions, [-1]), size)


# ---- linear algebra -------------------------------------------------------
matmul = tf.linalg.matmul  # takes transpose_a / transpose_b itself


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
    return tf.fill(shape, tf.cast(value, dtype))  # 2.0 fills int32 too


def eye(n, m, k, dtype):
    return tf.convert_to_tensor(np.eye(n, m, k, dtype=dtype))


def arange(start, stop, step, dtype):
    return tf.range(start, stop, step, dtype=dtype) if not tf.as_dtype(
        dtype).is_integer else tf.cast(tf.range(start, stop, step), dtype)


def linspace(start, stop, num, endpoint, dtype):
    return tf.cast(tnp.linspace(start, stop, num, endpoint=endpoint), dtype)


# ---- variables: a tf.Variable, read afresh (also inside tf.function) ------
def variable(value):
    return tf.Variable(value, trainable=False)


def read(store):
    return store.value()


def assign(store, value):
    store.assign(value)
    return store


# ---- host calls: a NumPy function run when the graph runs ------------------
def host_call(fn, args, dtype, shape):
    if tf.executing_eagerly():
        return tf.convert_to_tensor(fn(*[np.asarray(a) for a in args]))
    out = tf.numpy_function(fn, list(args), tf.as_dtype(dtype),
                            stateful=False)
    out.set_shape(shape)
    return out


def outside_graph():
    """A context where new variables are created eagerly, also while a
    pycg.function traces (optimizer slots, seed states)."""
    return tf.init_scope()
