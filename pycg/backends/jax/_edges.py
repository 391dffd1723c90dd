"""JAX kernels where jax.numpy's answer differs from NumPy's at bool and
complex inputs: complex numbers in NumPy's order (by real part, then
imaginary part; a comparison with NaN is False, NaN wins maximum and
minimum, arg extrema find the first NaN, sorting puts NaN last), bools in
conj and round, the matrix functions of integers and bools in float64 (as
NumPy; JAX's 64-bit mode off: float32, as JAX), the Cholesky factor from
the lower triangle and the real diagonal (as LAPACK reads it; JAX
symmetrizes the input first). Gathered last by the package, over
the topic files (as the tensorflow backend's _edges.py)."""
import jax
import jax.numpy as jnp
import numpy as np

from pycg.backends.jax import linalg as _linalg
from pycg.backends.jax import math as _math
from pycg.backends.jax import numpy as _numpy
from pycg.backends import kernels as _kernels


def _complex(*xs):
    return any(x.dtype.kind == "c" for x in xs)


# ---- comparisons, maximum and minimum ------------------------------------------
def _after(a, b, or_equal):
    """a > b (a >= b) in NumPy's order of complex numbers; NaN: never."""
    ra, ia, rb, ib = jnp.real(a), jnp.imag(a), jnp.real(b), jnp.imag(b)
    second = ia >= ib if or_equal else ia > ib
    after = (ra > rb) | ((ra == rb) & second)
    return after & ~(jnp.isnan(a) | jnp.isnan(b))


def _compare(real_kernel, a_b, or_equal):
    def kernel(x1, x2):
        if not _complex(x1, x2):
            return real_kernel(x1, x2)
        a, b = (x1, x2) if a_b else (x2, x1)
        return _after(a, b, or_equal)
    kernel.__name__ = real_kernel.__name__
    return kernel


greater = _compare(jnp.greater, True, False)
greater_equal = _compare(jnp.greater_equal, True, True)
less = _compare(jnp.less, False, False)
less_equal = _compare(jnp.less_equal, False, True)


def _pick(a, b, a_wins):
    """a where a_wins, else b; a NaN wins (NumPy's maximum and minimum)."""
    out = jnp.where(a_wins, a, b)
    out = jnp.where(jnp.isnan(b), b, out)
    return jnp.where(jnp.isnan(a), a, out)


def maximum(x1, x2):
    if not _complex(x1, x2):
        return jnp.maximum(x1, x2)
    return _pick(x1, x2, _after(x1, x2, True))


def minimum(x1, x2):
    if not _complex(x1, x2):
        return jnp.minimum(x1, x2)
    return _pick(x1, x2, _after(x2, x1, True))


# ---- extrema and sorting ----------------------------------------------------
def _first(mask, axis):
    return jnp.argmax(mask.astype(np.int8), axis=axis).astype(np.int32)


def _complex_argmax(x, axis):
    """The first index of the largest real part, and among those of the
    largest imaginary part; the first NaN where there is one."""
    re, im = jnp.real(x), jnp.imag(x)
    top = re == jnp.max(re, axis=axis, keepdims=True)
    best = jnp.max(jnp.where(top, im, -jnp.inf), axis=axis, keepdims=True)
    out = _first(top & (im == best), axis)
    nan = jnp.isnan(x)
    return jnp.where(jnp.any(nan, axis=axis), _first(nan, axis), out)


def _arg_extremum(x, axis, keepdims):
    if axis is None:
        out = _complex_argmax(jnp.reshape(x, -1), 0)
        return jnp.reshape(out, (1,) * x.ndim) if keepdims else out
    out = _complex_argmax(x, axis)
    return jnp.expand_dims(out, axis) if keepdims else out


def argmax(x, axis=None, keepdims=False):
    if not _complex(x):
        return _numpy.argmax(x, axis, keepdims)
    return _arg_extremum(x, axis, keepdims)


def argmin(x, axis=None, keepdims=False):
    if not _complex(x):
        return _numpy.argmin(x, axis, keepdims)
    # (by parts: -x's max; -1 * x would make inf * 0 a NaN)
    return _arg_extremum(jnp.negative(x), axis, keepdims)


def _complex_extremum(arg, x, axis, keepdims):
    """The element at arg's index over the axes (an int, a tuple or None):
    those axes moved last and merged into one."""
    axes = range(x.ndim) if axis is None else [
        a % x.ndim for a in (axis if isinstance(axis, (tuple, list))
                             else (axis,))]
    kept = [a for a in range(x.ndim) if a not in axes]
    moved = jnp.transpose(x, kept + list(axes))
    rows = jnp.reshape(moved, moved.shape[:len(kept)] + (-1,))
    index = jnp.expand_dims(arg(rows, -1), -1)
    out = jnp.take_along_axis(rows, index, axis=-1)[..., 0]
    for a in sorted(axes) if keepdims else ():
        out = jnp.expand_dims(out, a)
    return out


def max(x, axis=None, keepdims=False):
    if not _complex(x):
        return _numpy.max(x, axis, keepdims)
    return _complex_extremum(argmax, x, axis, keepdims)


def min(x, axis=None, keepdims=False):
    if not _complex(x):
        return _numpy.min(x, axis, keepdims)
    return _complex_extremum(argmin, x, axis, keepdims)


def argsort(x, axis):
    if not _complex(x):
        return _math.argsort(x, axis)
    # NumPy's: [R + Rj, R + nanj, nan + Rj, nan + nanj], each by real part,
    # then imaginary part: three stable sorts, the last key first
    re, im = jnp.real(x), jnp.imag(x)
    nan_kind = jnp.isnan(im).astype(np.int8) + \
        2 * jnp.isnan(re).astype(np.int8)
    order = _math.argsort(im, axis)
    for key in (re, nan_kind):
        step = _math.argsort(jnp.take_along_axis(key, order, axis), axis)
        order = jnp.take_along_axis(order, step, axis)
    return order


# ---- bools as NumPy reads them ------------------------------------------------
def conj(x):   # (NumPy's conjugate of bools is int8)
    return x.astype(np.int8) if x.dtype == np.bool_ else jnp.conj(x)


def round(x, decimals=0):
    if x.dtype == np.bool_:   # (NumPy: float16)
        return x.astype(np.float16)
    return _numpy.round(x, decimals)


# ---- matrix functions -------------------------------------------------------
def _inexact(x):
    if x.dtype.kind in "fcV":
        return x
    return x.astype(np.float64 if jax.config.jax_enable_x64 else np.float32)


def det(x):
    return _linalg.det(_inexact(x))


def inv(x):
    return _linalg.inv(_inexact(x))


def slogdet(x):
    return _linalg.slogdet(_inexact(x))


def cholesky(x):
    """LAPACK's: the lower triangle and the diagonal's real part are read
    (JAX's would average the matrix with its conjugate transpose)."""
    x = _inexact(x)
    d = jnp.real(jnp.diagonal(x, axis1=-2, axis2=-1)).astype(x.dtype)
    lower = jnp.tril(x, -1)
    x = lower + jnp.conj(jnp.swapaxes(lower, -1, -2)) + \
        d[..., None] * jnp.eye(x.shape[-1], dtype=x.dtype)
    return _linalg.cholesky(x)


__all__ = _kernels(globals())   # (this file's kernels: see backends.kernels)
