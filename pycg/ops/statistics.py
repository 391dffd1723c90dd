"""More reductions and scans (keras.ops names): NaN-ignoring reductions,
products, differences, weighted and windowed sums. All but cumprod are
compositions of differentiable ops."""
import builtins
import math

import numpy as np

from pycg import backends
from pycg._errors import Axis, Op, Shape, user_error
from pycg.ops._machinery.arguments import as_int
from pycg.ops._machinery.dispatch import apply, as_tensor, norm_axis, promote
from pycg.ops._machinery.floats import as_float
from pycg.ops.creation import cast, zeros_like
from pycg.ops.elementwise import (equal, isnan, logical_not, real, sqrt,
                                  where)
from pycg.ops.manipulation import (getitem, pad, reshape)
from pycg.ops.reduction import (abs_squared, argmax, argmin, cumsum, max,
                                mean, min, sum)
from pycg.tensor import is_differentiable

__all__ = ("amax", "amin", "average", "corrcoef", "correlate", "cumprod",
           "diff", "nanargmax", "nanargmin", "nancumprod", "nancumsum",
           "nanmax", "nanmean", "nanmin", "nanprod", "nanstd", "nansum",
           "nanvar", "ptp", "trapezoid")


def amax(x, axis=None, keepdims=False):
    """The maximum over `axis` (max without `initial`); ties share the gradient
    equally.

    Returns:
        A tensor: x's shape without the reduced axes (kept as length 1 with
        keepdims), in x's dtype.
    """
    return max(x, axis, keepdims)


def amin(x, axis=None, keepdims=False):
    """The minimum over `axis` (min without `initial`); ties share the gradient
    equally.

    Returns:
        A tensor: x's shape without the reduced axes (kept as length 1 with
        keepdims), in x's dtype.
    """
    return min(x, axis, keepdims)


def ptp(x, axis=None, keepdims=False):
    """max - min along `axis` (peak to peak).

    Returns:
        A tensor: x's shape without the reduced axes (kept as length 1 with
        keepdims), in x's dtype.

    Differs:
        Over an all-NaN or empty slice the answer is NaN; over an empty axis
        pycg raises an error naming the op (Keras' nanmax answers nan, its ptp
        -inf).
    """
    return max(x, axis, keepdims) - min(x, axis, keepdims)


def cumprod(x, axis=None, dtype=None):
    """Cumulative product along `axis` (None: the flattened tensor).

    Returns:
        A tensor of x's shape (1-d when axis is None), in `dtype` when given.

    Example:
        >>> from pycg import ops
        >>> ops.cumprod(ops.convert_to_tensor([1.0, 2.0, 3.0])).numpy().tolist()
        [1.0, 2.0, 6.0]
    """
    x = as_tensor(x, "cumprod")
    if axis is None:
        x, axis = reshape(x, (-1,)), 0
    (axis,) = norm_axis(axis, x.ndim, "cumprod")
    out = apply("cumprod", backends.active.cumprod, (x,), {"axis": axis})
    return out if dtype is None else cast(out, dtype)


def average(x, axis=None, weights=None):
    """The weighted mean along `axis`; 1-d weights run along that axis.

    Args:
        weights: The weights: x's shape, or 1-d along `axis`. None: the plain
            mean.

    Returns:
        A float tensor: x's shape without the reduced axes (kept as length 1
        with keepdims); floatx for an integer or bool x.
    """
    x = as_float(x, "average")
    if weights is None:
        return mean(x, axis)
    x, w = promote(x, weights, "average")
    if w.shape != x.shape:
        if axis is None or w.ndim != 1:
            raise user_error(ValueError, "{op}: weights of shape {w} differ "
                             "from x's {x}; pass 1-d weights with an axis",
                             op=Op("average"), w=Shape(w.shape),
                             x=Shape(x.shape))
        (ax,) = norm_axis(axis, x.ndim, "average")
        if w.shape[0] != x.shape[ax]:
            raise user_error(ValueError, "{op}: weights have length {n}, axis "
                             "{axis} of x has length {m}", op=Op("average"),
                             n=w.shape[0], axis=Axis(ax), m=x.shape[ax])
        w = reshape(w, [-1 if i == ax else 1 for i in range(x.ndim)])
    return sum(x * w, axis) / sum(w + zeros_like(x), axis)


# ---- ignoring NaN -----------------------------------------------------------
def _nan_filled(op, x, fill):
    x = as_tensor(x, op)
    if not is_differentiable(x.dtype):
        return x, None
    missing = isnan(x)
    return where(missing, fill, x), missing


def nansum(x, axis=None, keepdims=False):
    """The sum over `axis` with NaNs counted as 0.

    Returns:
        A tensor: x's shape without the reduced axes (kept as length 1 with
        keepdims), in x's dtype.
    """
    return sum(_nan_filled("nansum", x, 0.0)[0], axis, keepdims)


def nanprod(x, axis=None, keepdims=False):
    """The product over `axis` with NaNs counted as 1.

    Returns:
        A tensor: x's shape without the reduced axes (kept as length 1 with
        keepdims), in x's dtype.
    """
    from pycg.ops.reduction import prod
    return prod(_nan_filled("nanprod", x, 1.0)[0], axis, keepdims)


def nancumsum(x, axis=None, dtype=None):
    """Cumulative sum along `axis` with NaNs counted as 0.

    Returns:
        A tensor of x's shape (1-d when axis is None), in `dtype` when given.

    Differs:
        An inf in x is carried on, as NumPy (Keras loses it).
    """
    out = cumsum(_nan_filled("nancumsum", x, 0.0)[0], axis)
    return out if dtype is None else cast(out, dtype)


def nancumprod(x, axis=None, dtype=None):
    """Cumulative product along `axis` with NaNs counted as 1.

    Returns:
        A tensor of x's shape (1-d when axis is None), in `dtype` when given.

    Differs:
        An inf in x is carried on, as NumPy (Keras loses it).
    """
    return cumprod(_nan_filled("nancumprod", x, 1.0)[0], axis, dtype)


def _count(missing, x, axis, keepdims):
    if missing is None:
        return sum(zeros_like(x, "int32") + 1, axis, keepdims)
    return sum(cast(logical_not(missing), "int32"), axis, keepdims)


def nanmean(x, axis=None, keepdims=False):
    """mean ignoring NaNs (NaN where a slice is all NaN).

    Returns:
        A float tensor: x's shape without the reduced axes (kept as length 1
        with keepdims); floatx for an integer or bool x.

    Differs:
        The mean of a complex x keeps its imaginary part, as NumPy (Keras drops
        it).

    Example:
        >>> import math
        >>> from pycg import ops
        >>> float(ops.nanmean(ops.convert_to_tensor([1.0, math.nan, 3.0])))
        2.0
    """
    x = as_float(x, "nanmean")
    filled, missing = _nan_filled("nanmean", x, 0.0)
    n = cast(_count(missing, x, axis, keepdims), x.dtype)
    return sum(filled, axis, keepdims) / n


def nanvar(x, axis=None, keepdims=False):
    """Population variance ignoring NaNs.

    Returns:
        A float tensor: x's shape without the reduced axes (kept as length 1
        with keepdims); floatx for an integer or bool x.
    """
    x = as_float(x, "nanvar")
    filled, missing = _nan_filled("nanvar", x, 0.0)
    n = cast(_count(missing, x, axis, True), x.dtype)
    centred = where(missing, 0.0, x - sum(filled, axis, True) / n)
    out = sum(abs_squared(centred), axis, True) / real(n)
    return out if keepdims else reshape(out, sum(centred, axis).shape)


def nanstd(x, axis=None, keepdims=False):
    """The population standard deviation over `axis`, ignoring NaNs.

    Returns:
        A float tensor: x's shape without the reduced axes (kept as length 1
        with keepdims); floatx for an integer or bool x.
    """
    return sqrt(nanvar(x, axis, keepdims))


def _nan_extremum(op, reduce, fill, x, axis, keepdims):
    x = as_tensor(x, op)
    filled, missing = _nan_filled(op, x, fill)
    out = reduce(filled, axis, keepdims)
    if missing is None:
        return out
    n = _count(missing, x, axis, keepdims)
    return where(equal(n, 0), math.nan, out)


def nanmax(x, axis=None, keepdims=False):
    """The maximum over `axis`, ignoring NaNs.

    Returns:
        A tensor: x's shape without the reduced axes (kept as length 1 with
        keepdims), in x's dtype.

    Differs:
        Over an all-NaN or empty slice the answer is NaN; over an empty axis
        pycg raises an error naming the op (Keras' nanmax answers nan, its ptp
        -inf).
    """
    return _nan_extremum("nanmax", max, -math.inf, x, axis, keepdims)


def nanmin(x, axis=None, keepdims=False):
    """The minimum over `axis`, ignoring NaNs.

    Returns:
        A tensor: x's shape without the reduced axes (kept as length 1 with
        keepdims), in x's dtype.

    Differs:
        Over an all-NaN or empty slice the answer is NaN; over an empty axis
        pycg raises an error naming the op (Keras' nanmax answers nan, its ptp
        -inf).
    """
    return _nan_extremum("nanmin", min, math.inf, x, axis, keepdims)


def nanargmax(x, axis=None, keepdims=False):
    """argmax ignoring NaNs (-1 where a slice is all NaN).

    Returns:
        An int32 tensor of 0-based indices: x's shape without `axis` (kept as
        length 1 with keepdims); not differentiable.
    """
    return _nan_arg("nanargmax", argmax, -math.inf, x, axis, keepdims)


def nanargmin(x, axis=None, keepdims=False):
    """argmin ignoring NaNs (-1 where a slice is all NaN).

    Returns:
        An int32 tensor of 0-based indices: x's shape without `axis` (kept as
        length 1 with keepdims); not differentiable.
    """
    return _nan_arg("nanargmin", argmin, math.inf, x, axis, keepdims)


def _nan_arg(op, arg, fill, x, axis, keepdims):
    x = as_tensor(x, op)
    filled, missing = _nan_filled(op, x, fill)
    out = arg(filled, axis, keepdims)
    if missing is None:
        return out
    if axis is None:
        missing = reshape(missing, (-1,))
        axis = 0
    n = _count(missing, missing, axis, keepdims)
    return where(equal(n, 0), -1, out)


# ---- differences and integrals ----------------------------------------------
def diff(a, n=1, axis=-1):
    """The n-th discrete difference along `axis`.

    Args:
        a: The input: a Tensor or anything ops.convert_to_tensor takes.
        n: How many times to take the difference.

    Returns:
        A tensor one (n) shorter along `axis`.
    """
    x = as_tensor(a, "diff")
    (ax,) = norm_axis(axis, x.ndim, "diff")
    pre, n, length = (slice(None),) * ax, as_int(n, "diff", "n"), x.shape[ax]
    if n < 0:
        raise ValueError(f"pycg.ops.diff: `n` must be non-negative, got {n}")
    for _ in range(n if length is None else builtins.min(n, length)):
        x = getitem(x, pre + (slice(1, None),)) - getitem(
            x, pre + (slice(None, -1),))
    return x


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """The integral of y along `axis` by the trapezoid rule.

    Args:
        y: The values to integrate.
        x: The sample points (None: spaced by dx).
        dx: The spacing of the samples when x is None.

    Returns:
        A float tensor: y's shape without `axis`.
    """
    y = as_float(y, "trapezoid")
    (ax,) = norm_axis(axis, y.ndim, "trapezoid")
    pre = (slice(None),) * ax
    mid = (getitem(y, pre + (slice(1, None),)) +
           getitem(y, pre + (slice(None, -1),))) * 0.5
    if x is None:
        return sum(mid, ax) * dx
    d = diff(x, axis=-1 if as_tensor(x).ndim == 1 else ax)
    if d.ndim == 1:
        d = reshape(d, [-1 if i == ax else 1 for i in range(y.ndim)])
    return sum(mid * d, ax)


def corrcoef(x):
    """Pearson correlation of the rows of x (each row a variable).

    Returns:
        A (rows, rows) float tensor of correlations.
    """
    x = as_float(x, "corrcoef", complex_ok=False)
    if x.ndim == 1:
        x = reshape(x, (1, -1))
    c = x - mean(x, axis=1, keepdims=True)
    cov = _gram(c)
    d = sqrt(getitem(cov, (np.arange(cov.shape[0]),) * 2))
    out = cov / reshape(d, (-1, 1)) / reshape(d, (1, -1))
    return out[0, 0] if out.shape == (1, 1) else out


def _gram(c):
    from pycg.ops.linalg import matmul
    from pycg.ops.manipulation import transpose
    return matmul(c, transpose(c))


def correlate(x1, x2, mode="valid"):
    """Cross-correlation of two 1-d tensors (np.correlate).

    Args:
        x1: The first 1-d signal.
        x2: The second 1-d signal.
        mode: 'valid' (only full overlaps), 'same' (x1's length) or 'full'
            (every overlap).

    Returns:
        A 1-d tensor, its length set by `mode`.

    Differs:
        A complex input is refused by name.
    """
    if mode not in ("valid", "same", "full"):
        raise ValueError(f"pycg.ops.correlate: mode must be 'valid', 'same' "
                         f"or 'full', got {mode!r}")
    a, v = promote(as_float(x1, "correlate", complex_ok=False), x2,
                   "correlate")
    if a.ndim != 1 or v.ndim != 1:
        raise user_error(ValueError, "{op}: x1 and x2 must be 1-d, got shapes "
                         "{x} and {y}", op=Op("correlate"), x=Shape(a.shape),
                         y=Shape(v.shape))
    n, m = a.shape[0], v.shape[0]
    if n < m:
        from pycg.ops.manipulation import flip
        return flip(correlate(v, a, mode))
    lo = {"valid": 0, "same": m // 2, "full": m - 1}[mode]
    hi = {"valid": 0, "same": m - 1 - m // 2, "full": m - 1}[mode]
    ap = pad(a, ((lo, hi),))
    count = ap.shape[0] - m + 1
    windows = getitem(ap, np.arange(count)[:, None] + np.arange(m)[None])
    return sum(windows * reshape(v, (1, -1)), 1)
