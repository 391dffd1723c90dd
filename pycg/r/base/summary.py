"""R's Summary group (sum, prod, max, min, range, any, all) and pmax()/pmin()
on tensors, for the R package: types and NA by pycg/r/base/semantics.py,
values as base R's summary.c computes them.

As in R: sum() of integers or logicals is integer, or double where the
total leaves the integer range; prod() is double; max(), min() and range()
of integers or logicals are integer, of nothing (or only NAs with
na.rm = TRUE) -Inf or Inf with R's warning; an NA makes the answer NA
(NA_integer_ for integer answers; for doubles an NA wins over a NaN);
any() and all() follow R's three-valued logic and warn when they coerce
doubles. pmax()/pmin() recycle their arguments to the longest (R's warning
where one does not fit a whole number of times), keep the first
argument's dims where it is that long, and skip NAs with na.rm = TRUE.
"""
import numpy as np

import pycg
from pycg.r.base import semantics as rs
from pycg.r.base.arith import truth
from pycg.r.base.na import symbolic, with_mask
from pycg.r.base.semantics import (COMPLEX, DOUBLE, INTEGER, INT_NA, INT_MAX,
                              NA_REAL, ops)


def summary(generic, parts, masks, na_rm):
    """R's <generic>(*parts, na.rm = na_rm); `masks` the NA masks of logical
    parts (None elsewhere)."""
    if generic in ("any", "all"):
        return _logical(generic, parts, masks, na_rm)
    top = max([rs.r_type(p) for p in parts] + [INTEGER])
    if top == COMPLEX and generic in ("max", "min", "range"):
        raise rs.BaseRError(f"`{generic}`: invalid 'type' (complex) of argument")
    if generic == "prod":
        top = max(top, DOUBLE)
    dtype = rs.result_dtype(top, parts)
    flat = [rs.coerce(p, top, dtype, m) for p, m in zip(parts, masks)]
    if len(flat) == 1 and isinstance(flat[0], rs.Tensor) and (
            generic in ("sum", "prod") and top >= DOUBLE and not na_rm):
        return getattr(ops, generic)(flat[0])   # (R's order does not matter)
    if len(flat) == 1 and isinstance(flat[0], rs.Tensor):
        x = flat[0]   # (the order of the elements does not matter)
    else:
        x = ops.concatenate([_flat(p, dtype) for p in flat], axis=0)
    if generic == "sum":
        return _sum(x, top, na_rm)
    if generic == "prod":
        return ops.prod(_drop(x, na_rm, 1))
    if generic == "range":
        return ops.stack([_extreme("min", x, top, na_rm),
                          _extreme("max", x, top, na_rm)])
    return _extreme(generic, x, top, na_rm)


def _flat(x, dtype):
    if isinstance(x, rs.Tensor):
        return rs.r_ravel(x)
    return pycg.convert_to_tensor(np.array([x], dtype=dtype))


def _drop(x, na_rm, identity):
    """x with its NAs (and NaNs) replaced by `identity` where na_rm (sum's 0,
    prod's 1: as if left out; traced graphs too)."""
    if not na_rm:
        return x
    missing = rs.missing(x)
    return x if missing is None else ops.where(missing, identity, x)


def _sum(x, top, na_rm):
    if top != INTEGER:
        return ops.sum(_drop(x, na_rm, 0))
    missing = rs.missing(x)
    total = ops.sum(ops.cast(ops.where(missing, 0, x), "int64"))
    if symbolic(x):   # (a graph's dtype is fixed: NA where it overflows)
        bad = ops.logical_or(ops.logical_or(ops.greater(total, INT_MAX),
                                            ops.less_equal(total, INT_NA)),
                             ops.logical_and(ops.any(missing), not na_rm))
        return ops.cast(ops.where(bad, INT_NA, total), "int32")
    if not na_rm and bool(np.asarray(ops.any(missing))):
        return pycg.convert_to_tensor(np.int32(INT_NA))
    if INT_NA < int(total.numpy()) <= INT_MAX:
        return ops.cast(total, "int32")
    return ops.cast(total, "float64")


def _extreme(generic, x, top, na_rm):
    """max(x) or min(x) by R's rules."""
    reduce = ops.max if generic == "max" else ops.min
    if symbolic(x):
        return getattr(ops, "nan" + generic)(x) if na_rm else reduce(x)
    missing = rs.host_missing(x)
    if missing.any() and not na_rm:
        if top == INTEGER:
            return pycg.convert_to_tensor(np.int32(INT_NA))
        value = NA_REAL if rs.is_na(x).any() else float("nan")
        return pycg.convert_to_tensor(value, x.dtype.name)
    kept = x if not missing.any() else ops.take(
        ops.reshape(x, (-1,)), np.flatnonzero(~missing.reshape(-1)), axis=0)
    if not rs.length(kept):
        bound = "-Inf" if generic == "max" else "Inf"
        rs.warn(f"no non-missing arguments to {generic}; returning {bound}")
        dtype = x.dtype.name if top >= DOUBLE else "float64"
        return pycg.convert_to_tensor(float(bound), dtype)
    return reduce(kept)


def _logical(generic, parts, masks, na_rm):
    """any() or all() by R's three-valued logic."""
    values, missing = [], []
    for p, m in zip(parts, masks):
        if rs.r_type(p) >= DOUBLE and rs.length(p):
            kind = "double" if rs.r_type(p) == DOUBLE else "complex"
            rs.warn(f"coercing argument of type '{kind}' to logical")
        v, na = truth(p, m)
        values.append(ops.reshape(v, (-1,)) if isinstance(v, rs.Tensor)
                      else pycg.convert_to_tensor(np.array([v])))
        missing.append(None if na is None else np.asarray(
            na.numpy() if isinstance(na, rs.Tensor) else na).reshape(-1))
    v = values[0] if len(values) == 1 else ops.concatenate(values, axis=0)
    if symbolic(v):
        return getattr(ops, generic)(v)
    value = np.asarray(v.numpy()).reshape(-1)
    m = np.concatenate([np.zeros(len(a), bool) if b is None else
                        np.broadcast_to(b, a.shape) for a, b in
                        zip([np.asarray(x.numpy()).reshape(-1)
                             for x in values], missing)])
    if generic == "all":
        out = not (value & ~m).size or bool((value | m).all())
        unsettled = out and m.any()
    else:
        out = bool((value & ~m).any())
        unsettled = not out and m.any()
    na = None if na_rm or not unsettled else np.True_
    return with_mask(pycg.convert_to_tensor(np.bool_(out)), na)


def parallel(generic, args, masks, na_rm):
    """R's pmax(*args) or pmin(*args)."""
    if len(args) == 1:
        return args[0]
    lengths = [rs.length(a) for a in args]
    n = 0 if min(lengths) == 0 else max(lengths)
    top = max([rs.r_type(a) for a in args] + [INTEGER])
    dtype = rs.result_dtype(top, args)
    if n and any(n % k for k in lengths):
        rs.warn("an argument will be fractionally recycled")
    first = args[0]
    if rs.dims(first) is not None and lengths[0] == n:
        shape = rs.dims(first)
    elif n == 1 and not any(isinstance(a, rs.Tensor) and a.ndim
                            for a in args):
        shape = ()
    else:
        shape = (n,)
    values = [rs.filled(rs.coerce(a, top, dtype, m), shape, dtype)
              for a, m in zip(args, masks)]
    out = values[0]
    pick = ops.greater if generic == "pmax" else ops.less
    for t in values[1:]:
        r_na, t_na = rs.missing(out), rs.missing(t)
        better = ops.logical_and(ops.logical_and(ops.logical_not(r_na),
                                                 ops.logical_not(t_na)),
                                 pick(t, out))
        take = ops.logical_or(better, r_na if na_rm else t_na)
        out = ops.where(take, t, out)
    return out


def proportions(x, sums, margin):
    """base R's proportions(x, margin): x divided by its margin sums `sums`
    (those of marginSums(x, margin), whose axes are x's axes `margin`,
    1-based, in that order), as sweep(x, margin, sums, "/") computes it."""
    x, sums = rs.as_double(x), rs.as_double(sums)
    axes = [int(m) - 1 for m in margin]
    ascending = sorted(range(len(axes)), key=axes.__getitem__)
    if ascending != list(range(len(axes))):
        sums = ops.transpose(sums, ascending)
    shape = [x.shape[i] if i in axes else 1 for i in range(x.ndim)]
    return ops.divide(x, ops.reshape(sums, shape))
