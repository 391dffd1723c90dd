"""Values placed into tensors by R's rules, for the R package: `x[i] <- value`
(`[<-` and `[[<-`) and ifelse(test, yes, no); types and NA by
pycg/r/base/semantics.py.

As in base R: the result has the higher R type of x and the value
(x[1] <- 9L makes a logical x integer, x[1] <- 1.5 an integer x double),
whether or not an element is replaced; the value is recycled in R's order
over the positions, with R's warning "number of items to replace is not a
multiple of replacement length"; where a position repeats the last value
wins. ifelse() has test's shape, yes's values where test is TRUE and no's
where it is FALSE (each recycled to test's length, as rep() does, without a
warning), NA where test is NA, and the higher type of logical and the
values it uses. Gradients flow to x, to the value, and to yes and no (summed
over recycled positions).
"""
import numpy as np

import pycg
from pycg.r.base import semantics as rs
from pycg.r.base.arith import truth
from pycg.r.base.na import symbolic, with_mask
from pycg.r.base.semantics import LOGICAL, ops


def replace(x, positions, value, x_na=None, value_na=None, weak=True,
            array=False):
    """x with the elements at `positions` (0-based, in R's column-major
    order; a list or NumPy vector) replaced by `value`, recycled; `array`
    for x[i, j] <- value, where base R stops rather than warns when the
    value does not fit a whole number of times."""
    positions = np.asarray(positions, dtype=np.int64).reshape(-1)
    k, m = len(positions), rs.length(value)
    if k and not m:
        raise rs.BaseRError("`[<-`: replacement has length zero")
    if k % max(m, 1) and array:
        raise rs.BaseRError("`[<-`: number of items to replace is not a multiple "
                        "of replacement length")
    top = max(rs.r_type(x), rs.r_type(value))
    dtype = rs.result_dtype(top, [x, value], (False, weak))
    base = rs.coerce(x, top, dtype, x_na)
    if not k:
        return with_mask(base, x_na) if top == LOGICAL else base
    if k % m:
        rs.warn("number of items to replace is not a multiple of "
                "replacement length")
    last = _last_of_each(positions)
    positions, order = positions[last], np.arange(k)[last]
    updates = _recycled(rs.coerce(value, top, dtype, value_na), m, order,
                        dtype)
    flat = ops.scatter_update(rs.r_ravel(base) if base.ndim else
                              ops.reshape(base, (1,)),
                              positions.reshape(-1, 1), updates)
    out = rs.from_r_order(flat, tuple(x.shape))
    if top != LOGICAL:
        return out
    return with_mask(out, _mask_update(x, x_na, positions, value_na, m,
                                       order))


def _last_of_each(positions):
    """Where each position is assigned for the last time (R's last wins)."""
    _, first_from_end = np.unique(positions[::-1], return_index=True)
    keep = np.zeros(len(positions), bool)
    keep[len(positions) - 1 - first_from_end] = True
    return keep


def _recycled(value, m, order, dtype):
    """The values at `order` of `value` recycled (value[order % m])."""
    if not isinstance(value, rs.Tensor):
        return ops.full((len(order),), value, dtype=dtype)
    return ops.take(rs.r_ravel(value) if value.ndim else
                    ops.reshape(value, (1,)), order % m, axis=0)


def _mask_update(x, x_na, positions, value_na, m, order):
    """The NA mask of a logical result: x's, with the value's placed."""
    if x_na is None and value_na is None:
        return None
    mask = _flat_mask(x_na, rs.length(x)) if x_na is not None else \
        np.zeros(rs.length(x), bool)
    mask = mask.copy()
    new = _flat_mask(value_na, m) if value_na is not None else \
        np.zeros(m, bool)
    mask[positions] = new[order % m]
    shape = tuple(x.shape)
    return mask.reshape(tuple(reversed(shape))).T if len(shape) > 1 else \
        mask.reshape(shape)


def _flat_mask(na, n):
    a = np.asarray(na.numpy() if isinstance(na, rs.Tensor) else na)
    a = np.broadcast_to(a, a.shape if a.size == n else (n,))
    return a.T.reshape(-1) if a.ndim > 1 else a.reshape(-1)


def concatenate(values, nas, weak):
    """R's c() of tensors and R data (`weak` flags R data): one 1-d tensor
    of their elements in R's order, of the highest R type among them, NA
    kept (a logical result with its mask)."""
    top = max([LOGICAL] + [rs.r_type(v) for v in values])
    dtype = rs.result_dtype(top, values, weak)
    parts, masks = [], []
    for v, na in zip(values, nas):
        n = rs.length(v)
        v = rs.coerce(v, top, dtype, None if top == LOGICAL else na)
        parts.append(rs.r_ravel(v) if isinstance(v, rs.Tensor) else
                     ops.full((1,), v, dtype=dtype))
        masks.append(_flat_mask(na, n) if na is not None else
                     np.zeros(n, bool))
    out = ops.concatenate(parts)
    if top != LOGICAL:
        return out
    return with_mask(out, np.concatenate(masks) if masks else None)


def nas(x, n):
    """n NAs of x's type: a 1-d tensor (with its mask, for logical x)."""
    out = rs.filled(pycg.convert_to_tensor(np.zeros(0, x.dtype.name)), (n,),
                    x.dtype.name)
    return with_mask(out, np.ones(n, bool)) if rs.r_type(x) == LOGICAL \
        else out


def ifelse(test, yes, no, test_na=None, yes_na=None, no_na=None,
           weak=3):
    """R's ifelse(test, yes, no); `weak` flags R data (1: yes, 2: no)."""
    value, missing = truth(test, test_na)
    value = value if isinstance(value, rs.Tensor) else \
        pycg.convert_to_tensor(np.bool_(value))
    shape = tuple(value.shape)
    if symbolic(value):
        used_yes = used_no = True
    else:
        v = np.asarray(value.numpy())
        m = np.zeros(v.shape, bool) if missing is None else \
            np.broadcast_to(np.asarray(missing), v.shape)
        used_yes, used_no = bool((v & ~m).any()), bool((~v & ~m).any())
    types = [LOGICAL] + [rs.r_type(e) for e, used in ((yes, used_yes),
                                                      (no, used_no)) if used]
    top = max(types)
    dtype = rs.result_dtype(top, [yes, no], (weak & 1, weak & 2))
    picks = [rs.filled(rs.coerce(e, top, dtype, na), shape, dtype)
             for e, na in ((yes, yes_na), (no, no_na))]
    out = ops.where(value, picks[0], picks[1])
    if top != LOGICAL:
        return out if missing is None else \
            ops.where(missing, rs.NA_REAL if top >= rs.DOUBLE else rs.INT_NA,
                      out)
    masks = [rs.filled(na, shape, "bool") if na is not None else None
             for na in (yes_na, no_na)]
    mask = None
    if masks[0] is not None or masks[1] is not None:
        mask = ops.where(value, masks[0] if masks[0] is not None else False,
                         masks[1] if masks[1] is not None else False)
    if missing is not None:
        mask = missing if mask is None else ops.logical_or(mask, missing)
    return with_mask(out, mask)
