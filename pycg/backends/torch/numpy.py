"""torch kernels of the elementwise, reduction, shape and creation ops
(keras.ops numpy names), giving NumPy's answers (the numpy backend's)
where torch's differ: integer sums keep their dtype, arg extrema are
int32, an axis of () reduces nothing."""
import numpy as np
import torch

from pycg.backends.torch._creation import (  # noqa: F401  (kernels)
    arange, eye, full, linspace, ones, zeros)
from pycg.backends.torch.core import _from_numpy, owns
from pycg.backends import kernels as _kernels
from pycg.backends._as_numpy import real_only as _real_only

# ---- elementwise ----------------------------------------------------------
# (torch.Tensor's methods, unbound: ~0.15 us less a call than torch.exp and
# friends, which parse an `input` argument first)
_T = torch.Tensor
negative = _T.negative
sqrt = _T.sqrt
square = _T.square
exp = _T.exp
expm1 = _T.expm1
log = _T.log
log1p = _T.log1p
log2 = _T.log2
log10 = _T.log10
sin = _T.sin
cos = _T.cos
tan = _T.tan
arcsin = _T.arcsin
arccos = _T.arccos
arctan = _T.arctan
sinh = _T.sinh
cosh = _T.cosh
tanh = _T.tanh
isnan = _T.isnan
isfinite = _T.isfinite
logical_not = _T.logical_not
add = torch.add
subtract = torch.subtract
multiply = torch.multiply
equal = torch.eq
not_equal = torch.ne
less = torch.lt
less_equal = torch.le
greater = torch.gt
greater_equal = torch.ge
logical_and = torch.logical_and
logical_or = torch.logical_or


def _is_bool(x):
    return x.dtype is torch.bool


# NumPy's refusal of complex numbers where its ufunc has no complex loop
# (torch's names its own dtype)
arctan2 = _real_only("arctan2", torch.arctan2, torch.is_complex)
logaddexp = _real_only("logaddexp", torch.logaddexp, torch.is_complex)


def abs(x):
    return x if _is_bool(x) else torch.abs(x)


def sign(x):
    if x.is_complex():
        return torch.sgn(x)
    if _is_bool(x):   # (NumPy has no bool loop)
        raise TypeError("ufunc 'sign' did not contain a loop with signature "
                        "matching types <class 'numpy.dtypes.BoolDType'> -> "
                        "None")
    out = torch.sign(x)   # (torch: sign(NaN) is 0; NumPy: NaN)
    return torch.where(torch.isnan(x), x, out) if x.is_floating_point() \
        else out


floor = torch.floor
ceil = torch.ceil
reciprocal = torch.reciprocal


divide = torch.true_divide


def power(x, y):
    if not (x.is_floating_point() or x.is_complex()) and not _is_bool(y) \
            and not y.is_floating_point() and bool(torch.any(y < 0)):
        raise ValueError("Integers to negative integer powers are not "
                         "allowed.")
    if _is_bool(x) and _is_bool(y):   # (NumPy: int8)
        return torch.pow(x.to(torch.int8), y.to(torch.int8))
    return torch.pow(x, y)


def mod(x, y):
    """NumPy's mod: the sign of y; an integer modulo 0 is 0 (torch raises);
    bools in int8."""
    if _is_bool(x) and _is_bool(y):
        x, y = x.to(torch.int8), y.to(torch.int8)
    if x.is_floating_point():
        return torch.remainder(x, y)
    zero = y == 0
    return torch.where(zero, torch.zeros((), dtype=x.dtype, device=x.device),
                       torch.remainder(x, torch.where(zero, 1, y)))


maximum = torch.maximum
minimum = torch.minimum
where = torch.where


def round(x, decimals=0):
    if x.is_complex():   # (torch's round gives complex numbers as they are)
        return torch.complex(round(x.real, decimals), round(x.imag, decimals))
    if not x.is_floating_point():
        if decimals >= 0:
            return x
        return _from_numpy(np.round(x.cpu().numpy(), decimals), x.device)
    return torch.round(x, decimals=decimals)


def rsqrt(x):
    return 1 / torch.sqrt(x)


# ---- reductions -----------------------------------------------------------
def _dims(x, axis):
    """axis as torch's dim argument: None or a tuple; () stays ()."""
    if axis is None:
        return None
    return (axis,) if isinstance(axis, int) else tuple(axis)


def _int_dtype(x):
    # keep the input's integer type (bool: int32), as the numpy backend
    if _is_bool(x):
        return torch.int32
    return None if x.is_floating_point() or x.is_complex() else x.dtype


def _accumulating(whole, x, axis, keepdims):
    """(dims, dtype, the answer or None) of a sum or product of x, which
    accumulates integers in int_dtype: over no axis, x in that dtype; over
    every axis (dims None), whole(x, dtype) in the shape keepdims asks."""
    dims, dt = _dims(x, axis), _int_dtype(x)
    if dims == ():
        return dims, dt, x if dt is None else x.to(dt)
    if dims is None:
        out = whole(x, dt)
        return dims, dt, out.reshape((1,) * x.ndim) if keepdims else out
    return dims, dt, None


def sum(x, axis=None, keepdims=False):
    dims, dt, out = _accumulating(lambda a, dt: torch.sum(a, dtype=dt), x,
                                  axis, keepdims)
    if out is not None:
        return out
    return torch.sum(x, dim=dims, keepdim=keepdims, dtype=dt)


def prod(x, axis=None, keepdims=False):
    dims, dt, out = _accumulating(
        lambda a, dt: torch.prod(a.reshape(-1), 0, dtype=dt), x, axis,
        keepdims)
    if out is not None:
        return out
    out = x if dt is None else x.to(dt)
    for d in sorted((a % x.ndim for a in dims), reverse=True):
        out = torch.prod(out, d, keepdim=keepdims)
    return out


def _empty_axis(x, dims):
    """Whether the reduction runs over an axis of length 0."""
    if dims is None:
        return x.numel() == 0
    return any(x.shape[d] == 0 for d in dims)


def _extremum(reduce, x, axis, keepdims):
    dims = _dims(x, axis)
    if dims == ():
        return x
    if _empty_axis(x, dims):   # (NumPy's error)
        raise ValueError(f"zero-size array to reduction operation "
                         f"{'maximum' if reduce is torch.amax else 'minimum'}"
                         f" which has no identity")
    if dims is None:
        out = reduce(x)
        return out.reshape((1,) * x.ndim) if keepdims else out
    return reduce(x, dim=dims, keepdim=keepdims)


def max(x, axis=None, keepdims=False):
    return _extremum(torch.amax, x, axis, keepdims)


def min(x, axis=None, keepdims=False):
    return _extremum(torch.amin, x, axis, keepdims)


def _arg(reduce, x, axis, keepdims):
    if _empty_axis(x, None if axis is None else (axis,)):
        raise ValueError(f"attempt to get {reduce.__name__} of an empty "
                         f"sequence")
    if _is_bool(x):
        x = x.to(torch.int8)
    if axis is None:
        out = reduce(x.reshape(-1))
        out = out.reshape((1,) * x.ndim) if keepdims else out
    else:
        out = reduce(x, dim=axis, keepdim=keepdims)
    return out.to(torch.int32)


def argmax(x, axis=None, keepdims=False):
    return _arg(torch.argmax, x, axis, keepdims)


def argmin(x, axis=None, keepdims=False):
    return _arg(torch.argmin, x, axis, keepdims)


def cumsum(x, axis=None):
    if axis is None:
        x, axis = x.reshape(-1), 0
    dt = _int_dtype(x)
    return torch.cumsum(x, dim=axis, dtype=dt)


# ---- shapes -----------------------------------------------------------------
def reshape(x, shape):
    return torch.reshape(x, tuple(shape))


def transpose(x, axes=None):
    return x.permute(tuple(reversed(range(x.ndim))) if axes is None
                     else tuple(axes))


def broadcast_to(x, shape):
    return torch.broadcast_to(x, tuple(shape))


def concatenate(xs, axis=0):
    return torch.cat(list(xs), dim=axis)


def pad(x, pad_width, constant_values=0):
    widths = []
    for before, after in reversed([tuple(p) for p in pad_width]):
        widths += [int(before), int(after)]
    if not any(widths):
        return x
    if owns(constant_values):
        constant_values = constant_values.item()
    return torch.nn.functional.pad(x, widths, value=constant_values)


def _positions(p, n, device):
    """Flat positions as an int64 tensor on `device`, NumPy's IndexError
    for one out of range (torch's names a dimension)."""
    if owns(p):
        p = p.to(device, torch.int64)
    else:
        a = np.asarray(p, dtype=np.int64)
        shareable = a.flags.writeable and all(s >= 0 for s in a.strides)
        p = torch.as_tensor(a if shareable else a.copy(), device=device)
    if p.numel():
        bad = (p < -n) | (p >= n)
        if bool(bad.any()):
            raise IndexError(f"index {int(p[bad][0])} is out of bounds for "
                             f"axis 0 with size {n}")
    return p


def gather_flat(x, positions):
    flat = x.reshape(-1)
    return flat[_positions(positions, flat.numel(), x.device)]


def scatter_flat(values, positions, size):
    """Sum `values` into a zero vector of length `size` at `positions`
    (bools: any, as NumPy's add.at)."""
    p = _positions(positions, size, values.device).reshape(-1)
    flat = values.reshape(-1)
    if _is_bool(flat):
        out = torch.zeros(size, dtype=torch.int8, device=values.device)
        return out.index_add(0, p, flat.to(torch.int8)) > 0
    out = torch.zeros(size, dtype=values.dtype, device=values.device)
    return out.index_add(0, p, flat)  # (out of place: torch.func.vmap)


__all__ = _kernels(globals())   # (this file's kernels: see backends.kernels)
