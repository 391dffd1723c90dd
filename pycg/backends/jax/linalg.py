"""JAX kernels of the linear algebra ops (keras.ops linalg names). Where
jax.numpy answers a failed factorisation with NaN (a matrix that is not
positive definite, a singular one), these raise NumPy's LinAlgError, as
the numpy and tensorflow backends do, whenever the value is concrete."""
import jax
import jax.numpy as jnp
import jax.scipy.linalg as _scipy
import numpy as np
from pycg.backends import _numpy_like
from pycg.backends import kernels as _kernels


def matmul(a, b, transpose_a=False, transpose_b=False):
    if transpose_a:
        a = jnp.swapaxes(a, -1, -2)
    if transpose_b:
        b = jnp.swapaxes(b, -1, -2)
    return jnp.matmul(a, b)


def einsum(subscripts, *operands):
    return jnp.einsum(subscripts, *operands)


def _failed(out, inputs, message):
    """out, or LinAlgError where it is not finite though the inputs are."""
    if any(isinstance(v, jax.core.Tracer) for v in (out,) + inputs):
        return out
    if not bool(jnp.all(jnp.isfinite(out))) and all(
            bool(jnp.all(jnp.isfinite(v))) for v in inputs):
        raise np.linalg.LinAlgError(message)
    return out


def cholesky(x):
    return _failed(jnp.linalg.cholesky(x), (x,),
                   "Matrix is not positive definite")


def inv(x):
    return _failed(jnp.linalg.inv(x), (x,), "Singular matrix")


def solve(a, b):
    return _failed(jnp.linalg.solve(a, b), (a, b), "Singular matrix")


def det(x):
    return jnp.linalg.det(x)


def slogdet(x):
    return tuple(jnp.linalg.slogdet(x))


# ---- decompositions: several outputs packed into one array ---------------
# (the same lines as the other NumPy-like backend: backends/_numpy_like.py)
svd_packed = _numpy_like.svd_packed(jnp)
qr_packed = _numpy_like.qr_packed(jnp)
eigh_packed = _numpy_like.eigh_packed(jnp)


def eig(x):
    # complex always, as TensorFlow's: complex64 for float32, complex128
    # for float64 (JAX's own rule)
    w, v = jnp.linalg.eig(x)
    return w, v


def lu_factor(x):
    """LAPACK getrf: (lu, 0-based pivots) of a square matrix or a batch."""
    lu, piv = _scipy.lu_factor(x)
    return lu, piv.astype(np.int32)


def solve_triangular(a, b, lower):
    a = jnp.tril(a) if lower else jnp.triu(a)
    return _failed(jnp.linalg.solve(a, b), (a, b), "Singular matrix")


__all__ = _kernels(globals())   # (this file's kernels: see backends.kernels)
