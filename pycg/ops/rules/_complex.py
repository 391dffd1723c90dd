"""Complex numbers in gradient rules: TensorFlow's convention.

For a real loss L of z = x + iy the gradient is dL/dx + 1j dL/dy, so a rule
for a holomorphic f multiplies the upstream by conj(f'(z)) (`conjugate`).
"""
import numpy as np

from pycg.backends import COMPLEX_DTYPES
from pycg.ops import creation as C
from pycg.ops import elementwise as E
from pycg.tensor import is_differentiable


def is_complex(x):
    return x._value.dtype in COMPLEX_DTYPES


def conjugate(x):
    """conj(x) for a complex x: TensorFlow's convention, g * conj(f'(z)), so
    a real loss L gets dL/dRe(z) + 1j dL/dIm(z)."""
    return E.conj(x) if is_complex(x) else x


def cast_vjp(g, ans, x, dtype):
    if not is_differentiable(x.dtype):
        return None
    if is_complex(g) and not is_complex(x):
        g = E.real(g)
    return C.cast(g, x.dtype)


def imag_vjp(g, ans, x):
    if not is_complex(x):
        return C.zeros_like(x)
    return C.cast(g, x.dtype) * C.convert_to_tensor(np.asarray(1j, x.dtype))


def abs_vjp(g, ans, x):
    if not is_complex(x):
        return g * E.sign(x)
    # d|z| = z / |z| in this convention (0 at z = 0)
    safe = E.where(E.equal(ans, 0), 1, ans)
    return C.cast(g / safe, x.dtype) * x
