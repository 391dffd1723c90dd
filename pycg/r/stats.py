"""Base R's statistics on tensors, for the R package (R/tensor-stats.R):
median(), scale() and cor() with base R's values, shapes, types and NA,
recorded on tapes (ifelse() is R's rule in pycg/r/replace.py).

A tensor has no integer NA: R reads the int32 value -2**31 back as
NA_integer_ (pycg/r/arith.py), so an integer NA is written as that value; a
logical NA travels as R's NA mask (pycg/r/na.py).
"""
import warnings

import numpy as np

import pycg
from pycg.r.linalg import no_value
from pycg.r.semantics import INT_NA, as_double, from_r_order, r_ravel

ops = pycg.ops


def _na_of(x):
    """R's NA of x's type, (value, mask): NaN, the int32 R reads as
    NA_integer_, or FALSE, with a mask that says NA (R reads NaN as NaN)."""
    kind = x.dtype.kind
    if kind == "b":
        value = pycg.convert_to_tensor(False)
    elif kind in "iu":
        value = pycg.convert_to_tensor(np.int32(INT_NA))
    else:
        value = ops.cast(pycg.convert_to_tensor(np.nan), x.dtype)
    return value, pycg.convert_to_tensor(True)


def median(x, na_rm=False):
    """base R's median(x, na.rm): the middle element of the sorted values
    (of x's type), or the mean of the two middle ones; NA for no values or
    an NA without na_rm. Returns (value, NA mask or None)."""
    v = r_ravel(x)
    if not no_value(v) and v.dtype.kind in "fc":
        missing = np.isnan(np.asarray(v.numpy()))
        if missing.any():
            if not na_rm:
                return _na_of(v)
            v = ops.take(v, np.flatnonzero(~missing))
    n = v.shape[0]
    if n == 0:
        return _na_of(v)
    logical = v.dtype.kind == "b"
    s = ops.sort(ops.cast(v, "int32") if logical else v)
    half = (n + 1) // 2
    if n % 2:
        out = s[half - 1]
        return (ops.cast(out, "bool") if logical else out), None
    a, b = as_double(s[half - 1]), as_double(s[half])
    mean = ops.divide(ops.add(a, b), 2.0)
    # R's mean() corrects a finite first pass by the mean of the residuals
    finite = ops.isfinite(mean)
    a, b, m = (ops.where(finite, v, 0.0) for v in (a, b, mean))
    residual = ops.add(ops.subtract(a, m), ops.subtract(b, m))
    return ops.where(finite, ops.add(m, ops.divide(residual, 2.0)),
                     mean), None


def scale(x, center=True, scale=True):
    """base R's scale(x, center, scale) on x as a matrix (a vector a
    column): (x centred and scaled, the centre or None, the scale or
    None). TRUE centres on the column means and scales by the columns'
    root mean square (divisor n - 1), both leaving NA out."""
    x = as_double(x)
    x = x if x.ndim == 2 else ops.reshape(r_ravel(x), (-1, 1))
    nc = x.shape[1]
    if center is True:
        center = ops.nanmean(x, axis=0)
    elif center is not False:
        center = _per_column(center, nc, "center")
    if center is not False:
        x = ops.subtract(x, center)
    if scale is True:
        present = ops.sum(ops.cast(ops.logical_not(ops.isnan(x)), "float64"),
                          axis=0)
        squares = ops.nansum(ops.square(x), axis=0)
        scale = ops.sqrt(ops.divide(squares,
                                    ops.maximum(ops.subtract(present, 1), 1)))
    elif scale is not False:
        scale = _per_column(scale, nc, "scale")
    if scale is not False:
        x = ops.divide(x, scale)
    return (x, None if center is False else center,
            None if scale is False else scale)


def _per_column(v, nc, what):
    v = r_ravel(as_double(v))
    if v.shape[0] != nc:
        raise ValueError(f"scale(): length of '{what}' must equal the number "
                         f"of columns of 'x' ({v.shape[0]} for {nc})")
    return v


def cor(x, y=None):
    """base R's cor(x, y) (Pearson, use = "everything"): the correlations of
    the columns of x (a vector a column) with those of y; of two vectors, a
    scalar. A column with no spread gives NA with base R's warning."""
    x = as_double(x)
    if y is None and x.ndim != 2:
        raise ValueError("cor(): supply both 'x' and 'y' or a matrix-like "
                         "'x'")
    y = x if y is None else as_double(y)
    vectors = x.ndim != 2 and y.ndim != 2
    x, y = _columns(x), _columns(y)
    if x.shape[0] != y.shape[0]:
        raise ValueError(f"cor(): incompatible dimensions ({x.shape[0]} and "
                         f"{y.shape[0]} rows)")
    xc = ops.subtract(x, ops.mean(x, axis=0))
    yc = ops.subtract(y, ops.mean(y, axis=0))
    sx = ops.sqrt(ops.sum(ops.square(xc), axis=0))
    sy = ops.sqrt(ops.sum(ops.square(yc), axis=0))
    if not no_value(sx) and (np.any(np.asarray(sx.numpy()) == 0) or
                             np.any(np.asarray(sy.numpy()) == 0)):
        warnings.warn("the standard deviation is zero", RuntimeWarning,
                      stacklevel=2)
    spread = ops.multiply(ops.expand_dims(sx, 1), ops.expand_dims(sy, 0))
    spread = ops.where(ops.equal(spread, 0), np.nan, spread)  # NA, quietly
    r = ops.divide(ops.matmul(ops.transpose(xc), yc), spread)
    r = ops.clip(r, -1.0, 1.0)
    return ops.reshape(r, ()) if vectors else r


def _columns(v):
    return v if v.ndim == 2 else ops.reshape(r_ravel(v), (-1, 1))


def slices(x, margin):
    """The arguments base R's apply(x, margin, FUN) passes to FUN, in its
    order: x's sub-arrays at each index of the (0-based) axes `margin`
    (column-major over them), of the other axes' extents (a vector where
    one axis is left)."""
    x = pycg.convert_to_tensor(x)
    margin = [margin] if isinstance(margin, int) else list(margin)
    rest = [a for a in range(x.ndim) if a not in margin]
    inner = [x.shape[a] for a in rest]
    count = int(np.prod([x.shape[a] for a in margin]))
    columns = from_r_order(r_ravel(ops.transpose(x, rest + margin)),
                        (int(np.prod(inner)), count))
    return [from_r_order(columns[:, i], inner if len(inner) > 1 else
                      (int(np.prod(inner)),)) for i in range(count)]


def combine(results, dims):
    """apply()'s simplified answer: the results (tensors or R values, of
    one length each) one after another in R's order, with `dims`."""
    flat = ops.concatenate([r_ravel(r) for r in results])
    return from_r_order(flat, tuple(dims))
