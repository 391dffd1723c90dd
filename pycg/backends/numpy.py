"""NumPy kernels. Values are numpy arrays or numpy scalars."""
import math
import operator
import warnings

import numpy as np

name = "numpy"
out_of_memory = (MemoryError,)   # what a kernel raises when it cannot fit


def activate():
    """On import and at each set_backend("numpy"): TensorFlow's kernels are
    silent where a value overflows or is invalid, and so are these. NumPy's
    "... encountered in ..." RuntimeWarnings raised from pycg's own frames
    are ignored (inf and nan still flow; pycg.debug.check_numerics() finds
    them). No cost per op; np.errstate(over="raise") still raises, a filter
    the user adds later comes first, NumPy in user code still warns."""
    if not _silence or _silence[0] not in warnings.filters:  # (pytest resets)
        warnings.filterwarnings("ignore", message=r".*encountered in",
                                category=RuntimeWarning, module=r"pycg\.")
        _silence[:] = [warnings.filters[0]]


_silence = []
activate()
from pycg.backends._numpy_scalars import (  # noqa: E402,F401
    complex_dtypes, dtype_key, float_dtypes, float_types, owns, scalar,
    scalar_like, types, weak_caches, weak_scalar, inexact, grad_like)

_erf = np.frompyfunc(math.erf, 1, 1)


# ---- conversion ---------------------------------------------------------
def convert(value, dtype=None):
    return np.asarray(value, dtype=dtype)


def cast(x, dtype):
    return np.asarray(x).astype(dtype, copy=False)


def to_numpy(x):
    return np.asarray(x)


def stop_gradient(x):
    return x


def dtype_of(x):
    return x.dtype


# ---- elementwise ----------------------------------------------------------
abs = np.abs
negative = np.negative
sqrt = np.sqrt
square = np.square
exp = np.exp
expm1 = np.expm1
log = np.log
log1p = np.log1p
log2 = np.log2
log10 = np.log10
sin = np.sin
cos = np.cos
tan = np.tan
arcsin = np.arcsin
arccos = np.arccos
arctan = np.arctan
sinh = np.sinh
cosh = np.cosh
tanh = np.tanh
sign = np.sign
floor = np.floor
ceil = np.ceil
reciprocal = np.reciprocal
real = np.real
imag = np.imag
conj = np.conj
isnan = np.isnan
isfinite = np.isfinite
logical_not = np.logical_not
# the operators, not the ufuncs: on NumPy scalars np.multiply costs ~1.2 us
# and `*` ~0.1 us (NumPy's scalar fast path); on arrays they are the same
add = operator.add
subtract = operator.sub
multiply = operator.mul
divide = operator.truediv
power = operator.pow
mod = np.mod
maximum = np.maximum
minimum = np.minimum
arctan2 = np.arctan2
logaddexp = np.logaddexp
equal = np.equal
not_equal = np.not_equal
less = np.less
less_equal = np.less_equal
greater = np.greater
greater_equal = np.greater_equal
logical_and = np.logical_and
logical_or = np.logical_or
where = np.where


def round(x, decimals=0):
    return np.round(x, decimals)


def rsqrt(x):
    return 1 / np.sqrt(x)


def sigmoid(x):
    if x.dtype.kind == "c":   # (|x| would lose the phase)
        return (1 / (1 + np.exp(-x))).astype(x.dtype)[()]
    # exp of a non-positive number only: no overflow warning at either end
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1 / (1 + e), e / (1 + e)).astype(x.dtype)[()]


def softplus(x):
    return (np.maximum(x, 0) + np.log1p(np.exp(-np.abs(x)))).astype(x.dtype)


def relu(x):
    return np.maximum(x, np.zeros((), x.dtype))


def erf(x):
    return np.asarray(_erf(x), dtype=np.asarray(x).dtype)[()]


_ones = {}   # dtype -> 1 of that dtype (dtype.type(1) costs 0.2 us)


def _one(dt):
    one = _ones.get(dt)
    if one is None:
        one = _ones[dt] = dt.type(1)
    return one


def tanh_grad(y, dy):
    one = _ones.get(y.dtype) or _one(y.dtype)
    return dy * (one - y * y)


def relu_grad(dy, x):
    return np.where(x > 0, dy, np.zeros((), dy.dtype))[()]


def sigmoid_grad(y, dy):
    return dy * y * (_one(y.dtype) - y)


# TensorFlow's SqrtGrad, RsqrtGrad and ReciprocalGrad: 0 where dy is 0, even
# where the local derivative is infinite (the guard idiom where(c, f(x), 0))
def _zero_at_zero(dy, d):
    return np.where(dy == 0, np.zeros((), d.dtype), d)[()]


def sqrt_grad(y, dy):   # (numbers as y's dtype: bfloat16 * 0.5 is float32)
    return _zero_at_zero(dy, dy * y.dtype.type(0.5) / np.conj(y))


def rsqrt_grad(y, dy):
    c = np.conj(y)
    return _zero_at_zero(dy, dy * y.dtype.type(-0.5) * (c * c * c))


def reciprocal_grad(y, dy):
    c = np.conj(y)
    return _zero_at_zero(dy, -dy * (c * c))


# ---- reductions -----------------------------------------------------------
def _int_dtype(x):
    # NumPy sums int32 into int64; keep the input's integer type (bool: int32)
    k = x.dtype.kind
    return np.int32 if k == "b" else x.dtype if k in "iu" else None


def sum(x, axis=None, keepdims=False):   # (reduce: see max and min below)
    return np.add.reduce(x, axis=axis, keepdims=keepdims, dtype=_int_dtype(x))


def prod(x, axis=None, keepdims=False):
    return np.multiply.reduce(x, axis=axis, keepdims=keepdims,
                              dtype=_int_dtype(x))


# the ufuncs' reduce (what np.max calls): a NaN's "invalid value" warning
# (R's NA is a signalling NaN) then comes from pycg's frame, which
# activate() silences
max, min = np.maximum.reduce, np.minimum.reduce


def argmax(x, axis=None, keepdims=False):
    return np.argmax(x, axis=axis, keepdims=keepdims).astype(np.int32)


def argmin(x, axis=None, keepdims=False):
    return np.argmin(x, axis=axis, keepdims=keepdims).astype(np.int32)


def cumsum(x, axis=None):
    return np.cumsum(x, axis=axis, dtype=_int_dtype(x))


# ---- shapes -----------------------------------------------------------------
def reshape(x, shape):
    return np.reshape(x, shape)


def transpose(x, axes=None):
    return np.transpose(x, axes)


def broadcast_to(x, shape):
    return np.broadcast_to(x, shape)


def concatenate(xs, axis=0):
    return np.concatenate(xs, axis=axis)


def pad(x, pad_width, constant_values=0):
    return np.pad(x, pad_width, constant_values=constant_values)


def gather_flat(x, positions):
    return np.reshape(x, -1)[positions]


def scatter_flat(values, positions, size):
    """Sum `values` into a zero vector of length `size` at `positions`."""
    out = np.zeros(size, dtype=values.dtype)
    np.add.at(out, np.reshape(positions, -1), np.reshape(values, -1))
    return out


# ---- linear algebra -------------------------------------------------------
def matmul(a, b, transpose_a=False, transpose_b=False):
    if transpose_a:
        a = np.swapaxes(a, -1, -2)
    if transpose_b:
        b = np.swapaxes(b, -1, -2)
    out = np.matmul(a, b)   # (bfloat16, kind V: NumPy gives float32)
    return out if a.dtype.kind != "V" else out.astype(a.dtype)


def einsum(subscripts, *operands):
    if operands and operands[0].dtype.kind == "V":   # (bfloat16)
        return einsum(subscripts, *[o.astype(np.float32) for o in operands]
                      ).astype(operands[0].dtype)
    return np.einsum(subscripts, *operands)


cholesky = np.linalg.cholesky
inv = np.linalg.inv
solve = np.linalg.solve
det = np.linalg.det


def slogdet(x):
    return np.linalg.slogdet(x)


# ---- creation -------------------------------------------------------------
def zeros(shape, dtype):
    return np.zeros(shape, dtype=dtype)


def ones(shape, dtype):
    return np.ones(shape, dtype=dtype)


def full(shape, value, dtype):
    return np.full(shape, value, dtype=dtype)


def eye(n, m, k, dtype):
    return np.eye(n, m, k, dtype=dtype)


def arange(start, stop, step, dtype):
    return np.arange(start, stop, step, dtype=dtype)


def linspace(start, stop, num, endpoint, dtype):
    return np.linspace(start, stop, num, endpoint=endpoint, dtype=dtype)


from pycg.backends._numpy_state import (  # noqa: E402,F401
    assign, assign_add, assign_sub, host_call, outside_graph, read, variable)
from pycg.backends._numpy_more import *  # noqa: E402,F401,F403
from pycg.backends._numpy_conv import *  # noqa: E402,F401,F403
