"""R's x[i, j, ...] of a tensor (R/tensor-index.R): R's indices as the
positions they select."""
import numpy as np

import pycg
from pycg.r.base import na, semantics
from pycg.tensor import Tensor


def subset(x, index, drop):
    """x[i, j, ...] with R's rules: 1-based positive indices select,
    negative ones exclude, logical ones mask (recycled), NULL (a missing
    index) keeps the whole extent; one index on an array indexes it in
    column-major order; `drop` removes every extent of length 1."""
    ops = pycg.ops
    x = pycg.convert_to_tensor(x)
    if len(index) == 1 and x.ndim != 1:
        if index[0] is None:
            return x
        x = semantics.r_ravel(x)
    elif len(index) != x.ndim:
        raise IndexError(
            f"pycg: incorrect number of dimensions: {len(index)} indices for "
            f"a tensor of {x.ndim} dimensions")
    for axis, i in enumerate(index):
        if i is not None:
            x = ops.take(x, _positions(i, x.shape[axis], axis), axis=axis)
    if drop and 1 in x.shape:
        x = ops.reshape(x, tuple(d for d in x.shape if d != 1))
    return x


def _positions(i, extent, axis):
    if na.symbolic(i):   # (an R constant is a constant of the graph)
        i = na.static_value(i)
    if i is None:
        raise IndexError(
            "`[`: the index is a tensor being traced (inside pycg_function), "
            "whose values, and so the length of x[i], are not known yet; "
            "use op_where(i, x, 0) to keep the shape, or take x[i] outside "
            "pycg_function")
    a = np.asarray(i.numpy() if isinstance(i, Tensor) else i)
    a = a.reshape(-1, order="F")  # an R matrix of indices reads by column
    if a.dtype == bool:
        if a.size > extent:
            raise IndexError(
                f"pycg: logical index of length {a.size} for an extent of "
                f"{extent} (dimension {axis + 1})")
        return np.flatnonzero(np.resize(a, extent) if a.size else a)
    if a.dtype.kind not in "iuf":
        raise IndexError(f"pycg: indices must be numbers or logicals, "
                         f"got {a.dtype}")
    a = np.trunc(a).astype(np.int64)
    if (a > extent).any():
        raise IndexError(
            f"pycg: subscript out of bounds: index {a.max()} for an extent "
            f"of {extent} (dimension {axis + 1})")
    if (a >= 0).all():
        return a[a != 0] - 1
    if (a <= 0).all():
        keep = np.ones(extent, dtype=bool)
        keep[-a[(a != 0) & (a >= -extent)] - 1] = False
        return np.flatnonzero(keep)
    raise IndexError("pycg: can't mix positive and negative subscripts")
