"""JAX kernels of the elementwise, reduction, shape and creation ops
(keras.ops numpy names) on jax.numpy."""
import jax
import jax.numpy as jnp
import numpy as np

from pycg.backends.jax.core import _check_width, _traced
from pycg.backends import _numpy_like
from pycg.backends import kernels as _kernels
from pycg.backends._as_numpy import real_only as _real_only

# ---- elementwise ----------------------------------------------------------
abs = jnp.abs
negative = jnp.negative
sqrt = jnp.sqrt
square = jnp.square
exp = jnp.exp
expm1 = jnp.expm1
log = jnp.log
log1p = jnp.log1p
log2 = jnp.log2
log10 = jnp.log10
sin = jnp.sin
cos = jnp.cos
tan = jnp.tan
arcsin = jnp.arcsin
arccos = jnp.arccos
arctan = jnp.arctan
sinh = jnp.sinh
cosh = jnp.cosh
tanh = jnp.tanh
sign = jnp.sign
floor = jnp.floor
ceil = jnp.ceil
reciprocal = jnp.reciprocal
isnan = jnp.isnan
isfinite = jnp.isfinite
logical_not = jnp.logical_not
add = jnp.add
subtract = jnp.subtract
multiply = jnp.multiply
divide = jnp.true_divide
maximum = jnp.maximum
minimum = jnp.minimum
equal = jnp.equal
not_equal = jnp.not_equal
less = jnp.less
less_equal = jnp.less_equal
greater = jnp.greater
greater_equal = jnp.greater_equal
logical_and = jnp.logical_and
logical_or = jnp.logical_or
where = jnp.where


def _complex(x):
    return x.dtype.kind == "c"


# NumPy's refusal of complex numbers where its ufunc has no complex loop
# (JAX answers through a formula of its own)
arctan2 = _real_only("arctan2", jnp.arctan2, _complex)
logaddexp = _real_only("logaddexp", jnp.logaddexp, _complex)


def mod(x, y):
    """NumPy's mod; bools in int8, as NumPy (JAX: int32)."""
    if x.dtype == np.bool_ and y.dtype == np.bool_:
        x, y = x.astype(np.int8), y.astype(np.int8)
    return jnp.mod(x, y)


def power(x, y):
    if x.dtype.kind in "iu" and y.dtype.kind in "iu" and not _traced(y) \
            and bool(jnp.any(y < 0)):   # (NumPy's error; JAX gives 0)
        raise ValueError("Integers to negative integer powers are not "
                         "allowed.")
    return jnp.power(x, y)


# ---- reductions -----------------------------------------------------------
_int_dtype = _numpy_like.int_dtype


def sum(x, axis=None, keepdims=False):
    return jnp.sum(x, axis=axis, keepdims=keepdims, dtype=_int_dtype(x))


def prod(x, axis=None, keepdims=False):
    return jnp.prod(x, axis=axis, keepdims=keepdims, dtype=_int_dtype(x))


def max(x, axis=None, keepdims=False):
    return jnp.max(x, axis=axis, keepdims=keepdims)


def min(x, axis=None, keepdims=False):
    return jnp.min(x, axis=axis, keepdims=keepdims)


# (the same lines as the other NumPy-like backend: backends/_numpy_like.py)
(round, rsqrt, argmax, argmin, cumsum, reshape, transpose, broadcast_to,
 concatenate, pad) = _numpy_like.numpy_kernels(jnp)   # (_numpy_like.NUMPY)


# ---- shapes -----------------------------------------------------------------
def gather_flat(x, positions):
    flat = jnp.reshape(x, -1)
    if not _traced(positions):   # (JAX clamps an index out of range)
        p = np.asarray(positions)
        if p.size and (p.min() < -flat.size or p.max() >= flat.size):
            bad = p[(p < -flat.size) | (p >= flat.size)].flat[0]
            raise IndexError(f"index {bad} is out of bounds for axis 0 "
                             f"with size {flat.size}")
    return flat[positions]


def scatter_flat(values, positions, size):
    """Sum `values` into a zero vector of length `size` at `positions`
    (bools: any, as NumPy's add.at)."""
    out = jnp.zeros(size, dtype=values.dtype).at[jnp.reshape(positions, -1)]
    flat = jnp.reshape(values, -1)
    return out.max(flat) if values.dtype == np.bool_ else out.add(flat)


# ---- creation -------------------------------------------------------------
def zeros(shape, dtype):
    return jnp.zeros(shape, dtype=_check_width(dtype))


def ones(shape, dtype):
    return jnp.ones(shape, dtype=_check_width(dtype))


def full(shape, value, dtype):
    """np.full: a Python number or list as NumPy converts it (2.5 fills
    int32 with 2), a tensor broadcast to the shape."""
    dtype = _check_width(dtype)
    if not isinstance(value, jax.Array):   # (JAX takes no lists, and no
        value = np.asarray(value).astype(dtype)   # foreign arrays)
    return jnp.full(shape, value, dtype=dtype)


def eye(n, m, k, dtype):
    return jnp.eye(n, m, k, dtype=_check_width(dtype))


def arange(start, stop, step, dtype):
    return jnp.asarray(np.arange(start, stop, step, dtype=_check_width(dtype)))


def linspace(start, stop, num, endpoint, dtype):
    return jnp.linspace(start, stop, num, endpoint=endpoint,
                        dtype=_check_width(dtype))


__all__ = _kernels(globals())   # (this file's kernels: see backends.kernels)
