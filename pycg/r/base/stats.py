"""Base R's statistics on tensors, for the R package (R/tensor-stats.R):
median() and scale() with base R's values, shapes, types and NA,
recorded on tapes (ifelse() is R's rule in pycg/r/base/replace.py).

A tensor has no integer NA: R reads the int32 value -2**31 back as
NA_integer_ (pycg/r/base/arith.py), so an integer NA is written as that value; a
logical NA travels as R's NA mask (pycg/r/base/na.py).
"""
import numpy as np

import pycg
from pycg.r.base.na import symbolic
from pycg.r.base.semantics import (INT_MAX, INT_NA, INTEGER, as_double,
                             from_r_order, r_ravel, r_type)

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
    if not symbolic(v) and v.dtype.kind in "fc":
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


def rowsum(x, positions, groups, na_rm=False):
    """base R's rowsum(x, group): the sums of x's rows by group (`positions`
    each row's group, 0-based, of `groups`), a matrix (anything else: its
    first elements, one per group entry, as one column). Integers as base R
    adds them in order: NA from the first partial sum outside the integer
    range, or an NA (without na_rm)."""
    x = pycg.convert_to_tensor(x)
    ids = np.asarray(ops.convert_to_numpy(positions), np.int64).reshape(-1)
    m = x if x.ndim == 2 else \
        ops.reshape(r_ravel(x)[:ids.shape[0]], (-1, 1))
    if r_type(m) != INTEGER:
        data = ops.where(ops.isnan(m), 0.0, m) if na_rm else m
        return ops.segment_sum(data, ids, num_segments=groups)
    if symbolic(m):
        total = ops.segment_sum(ops.cast(m, "int64"), ids,
                                num_segments=groups)
        outside = ops.logical_or(ops.greater(total, INT_MAX),
                                 ops.less_equal(total, INT_NA))
        return ops.cast(ops.where(outside, INT_NA, total), "int32")
    a = np.asarray(m.numpy()).astype(np.int64)
    missing = a == INT_NA
    a = np.where(missing, 0, a)
    order = np.argsort(ids, kind="stable")
    partial = np.cumsum(a[order], axis=0)
    first = np.searchsorted(ids[order], ids[order])
    partial -= np.where((first > 0)[:, None], partial[first - 1], 0)
    na = np.zeros((groups, a.shape[1]), bool)
    np.logical_or.at(na, ids[order], (partial > INT_MAX) |
                     (partial <= INT_NA))
    if not na_rm:
        np.logical_or.at(na, ids, missing)
    totals = np.zeros((groups, a.shape[1]), np.int64)
    np.add.at(totals, ids, a)
    return pycg.convert_to_tensor(np.where(na, INT_NA, totals)
                                  .astype(np.int32))
