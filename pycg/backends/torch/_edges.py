"""torch kernels where torch's answer differs from NumPy's at bool and
complex inputs (the jax backend's _edges.py, on torch): complex numbers in
NumPy's order (by real part, then imaginary part; a comparison with NaN is
False, NaN wins maximum and minimum, arg extrema find the first NaN,
sorting puts NaN last; torch has no complex comparisons), bools in conj and
round, the matrix functions of integers and bools in float64 (as NumPy;
torch refuses them). Gathered last by the package, over the topic files."""
import torch

from pycg.backends.torch import linalg as _linalg
from pycg.backends.torch import math as _math
from pycg.backends.torch import numpy as _numpy
from pycg.backends import kernels as _kernels


def _complex(*xs):
    return any(x.is_complex() for x in xs)


# ---- comparisons, maximum and minimum ------------------------------------------
def _after(a, b, or_equal):
    """a > b (a >= b) in NumPy's order of complex numbers; NaN: never."""
    ra, ia, rb, ib = a.real, a.imag, b.real, b.imag
    second = ia >= ib if or_equal else ia > ib
    after = (ra > rb) | ((ra == rb) & second)
    return after & ~(torch.isnan(a) | torch.isnan(b))


def _compare(real_kernel, a_b, or_equal):
    def kernel(x1, x2):
        if not _complex(x1, x2):
            return real_kernel(x1, x2)
        a, b = (x1, x2) if a_b else (x2, x1)
        return _after(a, b, or_equal)
    kernel.__name__ = real_kernel.__name__
    return kernel


greater = _compare(torch.gt, True, False)
greater_equal = _compare(torch.ge, True, True)
less = _compare(torch.lt, False, False)
less_equal = _compare(torch.le, False, True)


def _pick(a, b, a_wins):
    """a where a_wins, else b; a NaN wins (NumPy's maximum and minimum)."""
    out = torch.where(a_wins, a, b)
    out = torch.where(torch.isnan(b), b, out)
    return torch.where(torch.isnan(a), a, out)


def maximum(x1, x2):
    if not _complex(x1, x2):
        return torch.maximum(x1, x2)
    return _pick(x1, x2, _after(x1, x2, True))


def minimum(x1, x2):
    if not _complex(x1, x2):
        return torch.minimum(x1, x2)
    return _pick(x1, x2, _after(x2, x1, True))


# ---- extrema and sorting ----------------------------------------------------
def _first(mask, axis):
    return torch.argmax(mask.to(torch.int8), dim=axis).to(torch.int32)


def _complex_argmax(x, axis):
    """The first index of the largest real part, and among those of the
    largest imaginary part; the first NaN where there is one."""
    re, im = x.real, x.imag
    top = re == torch.amax(re, dim=axis, keepdim=True)
    low = torch.tensor(float("-inf"), dtype=im.dtype, device=im.device)
    best = torch.amax(torch.where(top, im, low), dim=axis, keepdim=True)
    out = _first(top & (im == best), axis)
    nan = torch.isnan(x)
    return torch.where(torch.any(nan, dim=axis), _first(nan, axis), out)


def _arg_extremum(x, axis, keepdims):
    if x.numel() == 0:
        raise ValueError("attempt to get argmax of an empty sequence")
    if axis is None:
        out = _complex_argmax(x.reshape(-1), 0)
        return out.reshape((1,) * x.ndim) if keepdims else out
    out = _complex_argmax(x, axis)
    return out.unsqueeze(axis) if keepdims else out


def argmax(x, axis=None, keepdims=False):
    if not _complex(x):
        return _numpy.argmax(x, axis, keepdims)
    return _arg_extremum(x, axis, keepdims)


def argmin(x, axis=None, keepdims=False):
    if not _complex(x):
        return _numpy.argmin(x, axis, keepdims)
    # (by parts: -x's max; -1 * x would make inf * 0 a NaN)
    return _arg_extremum(torch.neg(x), axis, keepdims)


def _complex_extremum(arg, x, axis, keepdims):
    """The element at arg's index over the axes (an int, a tuple or None):
    those axes moved last and merged into one."""
    axes = range(x.ndim) if axis is None else [
        a % x.ndim for a in (axis if isinstance(axis, (tuple, list))
                             else (axis,))]
    kept = [a for a in range(x.ndim) if a not in axes]
    moved = x.permute(*kept, *axes)
    rows = moved.reshape(tuple(moved.shape[:len(kept)]) + (-1,))
    index = arg(rows, -1).to(torch.int64).unsqueeze(-1)
    out = torch.take_along_dim(rows, index, dim=-1)[..., 0]
    for a in sorted(axes) if keepdims else ():
        out = out.unsqueeze(a)
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
    re, im = x.real, x.imag
    nan_kind = torch.isnan(im).to(torch.int8) + \
        2 * torch.isnan(re).to(torch.int8)
    order = _math.argsort(im, axis).to(torch.int64)
    for key in (re, nan_kind):
        step = _math.argsort(torch.take_along_dim(key, order, axis),
                             axis).to(torch.int64)
        order = torch.take_along_dim(order, step, axis)
    return order.to(torch.int32)


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


def det(x):
    return _linalg.det(_inexact(x))


def inv(x):
    return _linalg.inv(_inexact(x))


def slogdet(x):
    return _linalg.slogdet(_inexact(x))


def cholesky(x):
    """LAPACK's: the lower triangle and the diagonal's real part are read."""
    x = _inexact(x)
    d = torch.diagonal(x, dim1=-2, dim2=-1).real.to(x.dtype)
    lower = torch.tril(x, -1)
    x = lower + torch.swapaxes(lower, -1, -2).conj_physical() + \
        torch.diag_embed(d)
    return _linalg.cholesky(x)


__all__ = _kernels(globals())   # (this file's kernels: see backends.kernels)
