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

from pycg.backends import _as_numpy, _numpy_order
from pycg.backends.jax import linalg as _linalg
from pycg.backends.jax import math as _math
from pycg.backends.jax import numpy as _numpy
from pycg.backends import kernels as _kernels


# ---- NumPy's order of complex numbers (backends/_numpy_order.py) ------------
_order = _numpy_order.Order(
    jnp, jnp.iscomplexobj, lambda x, dtype: x.astype(dtype),
    ints=(np.int8, np.int32),
    moves=(jnp.expand_dims, jnp.transpose, jnp.take_along_axis),
    topics=(_numpy, _math))
(greater, greater_equal, less, less_equal, maximum, minimum, argmax, argmin,
 max, min, argsort) = _order.kernels()   # (_numpy_order.Order.NAMES)


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


det, inv, slogdet = (_as_numpy.on_inexact(k, _inexact) for k in (
    _linalg.det, _linalg.inv, _linalg.slogdet))


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
