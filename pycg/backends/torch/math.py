"""torch kernels of the special functions, integer and bit ops, sorting and
searching, Fourier transforms, complex parts and dimensions known only
while tracing (keras.ops math names)."""
import builtins
import functools

import numpy as np
import torch

from pycg.backends import _beta, _gamma, _numpy_like
from pycg.backends.torch.core import _NUMPY_DTYPES, _torch_dtype
from pycg.backends import kernels as _kernels

arccosh = torch.arccosh
arcsinh = torch.arcsinh
arctanh = torch.arctanh
exp2 = torch.exp2
erf = torch.erf
erfc = torch.erfc
erfinv = torch.erfinv
isinf = torch.isinf
isneginf = torch.isneginf
isposinf = torch.isposinf
signbit = torch.signbit
gcd = torch.gcd
lcm = torch.lcm
bitwise_and = torch.bitwise_and
bitwise_or = torch.bitwise_or
bitwise_xor = torch.bitwise_xor
bitwise_invert = torch.bitwise_not
left_shift = torch.bitwise_left_shift
right_shift = torch.bitwise_right_shift
logical_xor = torch.logical_xor


def cbrt(x):
    """The real cube root (torch has none): |x| ** (1/3) with x's sign,
    then one Newton step (exact cubes come out exact)."""
    y = torch.sign(x) * torch.abs(x) ** (1 / 3)
    ok = (y != 0) & torch.isfinite(y)
    step = torch.where(ok, (y * y * y - x) / torch.where(ok, 3 * y * y, 1),
                       0)
    return (y - step).to(x.dtype)


def nextafter(x1, x2):
    """NumPy's: integers and bools in the float that holds them (float16
    for bools and 8-bit integers, float32 for 16-bit, float64 above)."""
    if not x1.is_floating_point():
        dt = _torch_dtype(np.promote_types(_NUMPY_DTYPES[x1.dtype],
                                           np.float16))
        x1, x2 = x1.to(dt), x2.to(dt)
    return torch.nextafter(x1, x2)


def _numpy_ints(x, y):
    """Bools as NumPy's integer maths takes them: int8."""
    return tuple(v.to(torch.int8) if v.dtype is torch.bool else v
                 for v in (x, y))


def floor_divide(x, y):
    """TensorFlow's FloorDiv: floor(x / y) for floats (NumPy's floor_divide
    rounds the exact quotient: -1.2 // 0.4 is -4 there and -3 here); integers
    and bools as NumPy (bools in int8, a division by zero is 0; torch
    raises)."""
    if x.is_floating_point() or x.is_complex():
        return torch.floor(torch.true_divide(x, y))
    x, y = _numpy_ints(x, y)
    zero = y == 0
    q = torch.floor_divide(x, torch.where(zero, 1, y).to(y.dtype))
    return torch.where(zero, torch.zeros((), dtype=q.dtype, device=q.device),
                       q)


def trunc(x):
    return x if not x.is_floating_point() else torch.trunc(x)


def i0(x):
    return torch.special.i0(x).to(x.dtype)


def i1(x):
    return torch.special.i1(x).to(x.dtype)


# ---- sorting and searching ----------------------------------------------
def argsort(x, axis):
    if x.ndim == 0:
        return torch.zeros((), dtype=torch.int32, device=x.device)
    return torch.argsort(x, dim=axis, stable=True).to(torch.int32)


def top_k_indices(x, k):
    """Indices of the k largest along the last axis, lower index first on
    ties (as tf.math.top_k), NaN last (as the numpy backend)."""
    if x.dtype is torch.bool or not (x.is_floating_point() or
                                     x.is_complex()):
        key = torch.bitwise_not(x)   # (~x = -x - 1: no overflow)
    else:
        key = -x
    order = torch.argsort(key, dim=-1, stable=True)
    return order[..., :k].to(torch.int32)


def cumprod(x, axis):
    dt = torch.int32 if x.dtype is torch.bool else x.dtype
    return torch.cumprod(x, dim=axis, dtype=dt)


def isin(x1, x2):
    if x1.dtype is torch.bool:   # (torch's isin has no bools)
        x1, x2 = x1.to(torch.uint8), x2.to(torch.uint8)
    if x1.is_complex() or x2.is_complex():   # (nor complex numbers: NumPy's
        # equality, every element against every one; NaN never equal)
        hit = x1.reshape(-1, 1) == x2.reshape(1, -1).to(x1.device)
        return hit.any(dim=1).reshape(x1.shape)
    return torch.isin(x1, x2)


def searchsorted(seq, values, side):
    return torch.searchsorted(seq, values.to(seq.dtype).contiguous(),
                              side=side).to(torch.int32)


def bincount(x, weights, minlength):
    """NumPy's: int64 counts, or float64 sums of the weights."""
    length = builtins.max(int(minlength), int(x.max()) + 1 if x.numel()
                          else 0)
    if weights is not None:
        weights = weights.to(torch.float64)
    return torch.bincount(x, weights, length)


# ---- Fourier transforms on (real, imaginary) stacked on axis 0 -------------
def to_complex_pair(z):
    return torch.complex(z[0], z[1])


def _complex(z):
    """z as complex numbers: float16 and bfloat16 through float32."""
    if z.dtype not in (torch.float32, torch.float64):
        z = z.to(torch.float32)
    return to_complex_pair(z)


def _pair(c, dtype):
    return torch.stack([c.real, c.imag]).to(dtype)


def fft_pair(z, axes):
    if 0 in z.shape:   # (no points: nothing, as TensorFlow)
        return z
    return _pair(torch.fft.fftn(_complex(z), dim=tuple(axes)), z.dtype)


def ifft_pair(z, axes):
    if 0 in z.shape:
        return z
    return _pair(torch.fft.ifftn(_complex(z), dim=tuple(axes)), z.dtype)


# ---- complex parts -------------------------------------------------------
def real(x):
    return torch.real(x)


def imag(x):
    return torch.imag(x) if x.is_complex() else torch.zeros_like(x)


def conj(x):
    return torch.conj_physical(x) if x.is_complex() else x


def angle(x):
    if x.is_complex() or x.is_floating_point():
        return torch.angle(x)
    return torch.angle(x.to(torch.float64))   # (NumPy: float64)


def view(x, dtype):
    """ndarray.view: a bitcast, with the last axis merged or split."""
    dt = _torch_dtype(dtype)
    np_dt = _NUMPY_DTYPES[dt]
    if x.ndim == 0 and np_dt.itemsize != _NUMPY_DTYPES[x.dtype].itemsize:
        raise ValueError("Changing the dtype of a 0d array is only "
                         "supported if the itemsize is unchanged")
    return x.contiguous().view(dt)


# ---- the gamma family, beta and binomial coefficients: the shared algorithms
# (pycg/backends/_gamma.py, _beta.py) in float64, as on the other backends
# (torch's digamma and polygamma lose digits where TensorFlow's and JAX's
# do) -------------------------------------------------------------------------
def _constant(value, like):
    if like is None:
        return torch.tensor(value, dtype=torch.float64)
    return torch.as_tensor(value, dtype=like.dtype, device=like.device)


_TORCH = _gamma.Namespace(
    where=torch.where, log=torch.log, log1p=torch.log1p, exp=torch.exp,
    floor=torch.floor, round=torch.round, abs=torch.abs, sin=torch.sin,
    cos=torch.cos, pow=torch.pow, isnan=torch.isnan,
    minimum=torch.minimum, maximum=torch.maximum, constant=_constant)


def _in_float64(fn, *xs):
    out = fn(_TORCH, *(x.to(torch.float64) for x in xs))
    return out.to(xs[0].dtype)


lgamma = functools.partial(_in_float64, _gamma.lgamma)
digamma = functools.partial(_in_float64, _gamma.digamma)
gamma = functools.partial(_in_float64, _gamma.gamma)
lbeta = functools.partial(_in_float64, _beta.lbeta)
beta = functools.partial(_in_float64, _beta.beta)
choose = functools.partial(_in_float64, _beta.choose)
lchoose = functools.partial(_in_float64, _beta.lchoose)


def polygamma(x, n):
    return _in_float64(lambda xp, v: _gamma.polygamma(xp, n, v), x)


# ---- the TensorFlow backend's kernels for dimensions unknown while tracing,
# here for parity (torch's shapes are always known) --------------------------
def dynamic_dim(x, axis):
    return x.shape[axis]


def slice_axis(x, axis, start, size):
    return x[(slice(None),) * axis + (slice(start, start + size),)]


def pad_axis(x, axis, before, after):
    widths = [0, 0] * (x.ndim - 1 - axis % x.ndim) + [before, after]
    return torch.nn.functional.pad(x, widths)


# (the numpy and jax backends' lines: backends/_numpy_like.py)
sum_to = _numpy_like.sum_to(torch)


__all__ = _kernels(globals())   # (this file's kernels: see backends.kernels)
