"""torch kernels where torch's answer differs from NumPy's at bool and
complex inputs (the jax backend's _edges.py, on torch): complex numbers in
NumPy's order (by real part, then imaginary part; a comparison with NaN is
False, NaN wins maximum and minimum, arg extrema find the first NaN,
sorting puts NaN last; torch has no complex comparisons), bools in conj and
round, the matrix functions of integers and bools in float64 (as NumPy;
torch refuses them). Gathered last by the package, over the topic files."""
import torch

from pycg.backends import _as_numpy, _numpy_order
from pycg.backends.torch import linalg as _linalg
from pycg.backends.torch import math as _math
from pycg.backends.torch import numpy as _numpy
from pycg.backends import kernels as _kernels


# ---- NumPy's order of complex numbers (backends/_numpy_order.py) ------------
def _take(x, index, axis):
    return torch.take_along_dim(x, index.to(torch.int64), axis)


_order = _numpy_order.Order(
    torch, torch.is_complex, lambda x, dtype: x.to(dtype),
    ints=(torch.int8, torch.int32),
    moves=(torch.unsqueeze, torch.permute, _take),
    topics=(_numpy, _math), refuse_empty=True)
(greater, greater_equal, less, less_equal, maximum, minimum, argmax, argmin,
 max, min, argsort) = _order.kernels()   # (_numpy_order.Order.NAMES)


# ---- bools as NumPy reads them ------------------------------------------------
def conj(x):   # (NumPy's conjugate of bools is int8)
    return x.to(torch.int8) if x.dtype is torch.bool else _math.conj(x)


def round(x, decimals=0):
    if x.dtype is torch.bool:   # (NumPy: float16)
        return x.to(torch.float16)
    return _numpy.round(x, decimals)


# ---- matrix functions -------------------------------------------------------
def _inexact(x):
    return x if x.is_floating_point() or x.is_complex() else \
        x.to(torch.float64)


det, inv, slogdet = (_as_numpy.on_inexact(k, _inexact) for k in (
    _linalg.det, _linalg.inv, _linalg.slogdet))


def cholesky(x):
    """LAPACK's: the lower triangle and the diagonal's real part are read."""
    x = _inexact(x)
    d = torch.diagonal(x, dim1=-2, dim2=-1).real.to(x.dtype)
    lower = torch.tril(x, -1)
    x = lower + torch.swapaxes(lower, -1, -2).conj_physical() + \
        torch.diag_embed(d)
    return _linalg.cholesky(x)


__all__ = _kernels(globals())   # (this file's kernels: see backends.kernels)
