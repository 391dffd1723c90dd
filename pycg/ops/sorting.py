"""Sorting, selection and order statistics (keras.ops names).

Values are picked by one gather of flat positions (manipulation._gather),
whose rule scatters the gradient back; the positions come from the backend's
argsort, so sort, top_k, median and quantile are differentiable and run
traced too.
"""
import math

import numpy as np

from pycg import backends, config
from pycg._errors import Axis, Op, Position, Shape, user_error
from pycg.ops._machinery.arguments import as_int
from pycg.ops._machinery.dispatch import (as_tensor, norm_axis)
from pycg.ops.creation import cast
from pycg.ops.elementwise import (ceil, equal, floor, greater, isnan, less,
                                  logical_not, maximum, minimum,
                                  where)
from pycg.ops.manipulation import (_gather, getitem, reshape,
                                   take_along_axis, transpose)
from pycg.ops.logic import any
from pycg.ops.reduction import sum
from pycg.tensor import Tensor, is_float

__all__ = ("argpartition", "argsort", "in_top_k", "median", "nanmedian",
           "nanpercentile", "nanquantile", "percentile", "quantile", "sort",
           "top_k")


def _to_last(x, axis, op):
    """x with `axis` (an int, a tuple, or None: all) moved last and merged:
    (x', undo) where undo(y) puts a last axis of y back."""
    x = as_tensor(x, op)
    if x.ndim == 0:
        x = reshape(x, (1,))
    axes = norm_axis(tuple(range(x.ndim)) if axis is None else axis, x.ndim,
                     op)
    rest = [i for i in range(x.ndim) if i not in axes]
    moved = transpose(x, rest + list(axes)) if rest + list(axes) != list(
        range(x.ndim)) else x
    last = [x.shape[i] for i in axes]   # (-1 is ambiguous with no elements)
    n = -1 if None in last else int(np.prod(last, dtype=np.int64))
    merged = reshape(moved, [x.shape[i] for i in rest] + [n])
    perm = np.argsort(rest + list(axes))

    def undo(y):
        if len(axes) != 1:
            return y
        return transpose(y, perm) if list(perm) != list(range(x.ndim)) else y
    return merged, undo, axes, x.shape


def _take_last(x, idx):
    """x[..., idx] batched: idx is a backend int value of shape (..., k)."""
    n = x.shape[-1]
    base = np.arange(int(np.prod(x.shape[:-1], dtype=np.int64)),
                     dtype=np.int64).reshape(x.shape[:-1] + (1,)) * n
    K = backends.active
    positions = K.add(K.convert(base.astype(np.int32)), K.cast(
        idx, np.dtype(np.int32)))
    return _gather(x, positions)


def _argsort_last(x):
    return backends.active.argsort(x._value, -1)


def sort(x, axis=-1):
    """x sorted ascending along `axis` (None: flattened); differentiable.

    Returns:
        A tensor of x's shape and dtype (1-d when axis is None).

    Differs:
        NaN sorts last, as NumPy and JAX (TensorFlow's sort places NaN by
        position).

    Example:
        >>> from pycg import ops
        >>> ops.sort(ops.convert_to_tensor([3.0, 1.0, 2.0])).numpy().tolist()
        [1.0, 2.0, 3.0]
    """
    if axis is None:
        x = reshape(as_tensor(x, "sort"), (-1,))
        axis = -1
    t, undo, _, _ = _to_last(x, axis, "sort")
    return undo(_take_last(t, _argsort_last(t)))


def argsort(x, axis=-1):
    """Indices (int32) that sort x along `axis` (stable; None: flattened).

    Returns:
        An int32 tensor of x's shape; not differentiable.

    Differs:
        NaN sorts last, as NumPy and JAX (TensorFlow's sort places NaN by
        position).
    """
    if axis is None:
        x = reshape(as_tensor(x, "argsort"), (-1,))
        axis = -1
    t, undo, _, _ = _to_last(x, axis, "argsort")
    return undo(Tensor(_argsort_last(t)))


def argpartition(x, kth, axis=-1):
    """Indices that partition x around its kth element (a full argsort is
    one such partition).

    Args:
        kth: The element (index in sorted order) to partition around.

    Returns:
        An int32 tensor of x's shape; not differentiable.
    """
    t = as_tensor(x, "argpartition")
    (ax,) = norm_axis(axis, t.ndim, "argpartition")
    if not -t.shape[ax] <= as_int(kth, "argpartition", "kth") < t.shape[ax]:
        raise user_error(ValueError, "{op}: kth={kth} is out of range for axis "
                         "{axis} of length {n}", op=Op("argpartition"),
                         kth=Position(as_int(kth, "argpartition", "kth")),
                         axis=Axis(ax), n=t.shape[ax])
    return argsort(t, ax)


def top_k(x, k, sorted=True):
    """(values, indices) of the k largest entries along the last axis,
    largest first; the values are differentiable.

    Args:
        k: How many of the largest entries.
        sorted: Whether the k come largest first (pycg always sorts them).

    Returns:
        A tuple (values, indices): x's shape with the last axis k long; indices
        int32.

    Example:
        >>> from pycg import ops
        >>> values, indices = ops.top_k(ops.convert_to_tensor([1.0, 4.0, 3.0]), 2)
        >>> values.numpy().tolist(), indices.numpy().tolist()
        ([4.0, 3.0], [1, 2])
    """
    x, k = as_tensor(x, "top_k"), as_int(k, "top_k", "k")
    if x.ndim == 0 or not 0 <= k <= x.shape[-1]:
        raise ValueError(f"pycg.ops.top_k: k={k} is out of range for a last "
                         f"axis of length {x.shape[-1] if x.ndim else 0}")
    idx = backends.active.top_k_indices(x._value, k)
    return _take_last(x, idx), Tensor(idx)


def in_top_k(targets, predictions, k):
    """True where the prediction for the target class is among the k
    largest of its row (ties count in its favour).

    Args:
        targets: The target class of each row, integers.
        predictions: The scores, (rows, classes).
        k: How many of the largest scores count.

    Returns:
        A bool tensor, one per row; not differentiable.
    """
    p = as_tensor(predictions, "in_top_k")
    t = as_tensor(targets, "in_top_k")
    if p.ndim != 2 or t.shape != p.shape[:1]:
        raise user_error(ValueError, "{op}: expected predictions of shape "
                         "(batch, classes) and targets of shape (batch,), got "
                         "{p} and {t}", op=Op("in_top_k"), p=Shape(p.shape),
                         t=Shape(t.shape))
    mine = take_along_axis(p, reshape(t, (-1, 1)), axis=1)
    return less(sum(cast(greater(p, mine), "int32"), axis=1),
                as_int(k, "in_top_k", "k"))


# ---- quantiles --------------------------------------------------------------
_METHODS = ("linear", "lower", "higher", "midpoint", "nearest")


def quantile(x, q, axis=None, method="linear", keepdims=False):
    """The q-th quantiles (q in [0, 1]) along `axis`; differentiable.

    Returns:
        A float tensor: q's shape followed by x's shape without the reduced
        axes (kept as length 1 with keepdims).

    Example:
        >>> from pycg import ops
        >>> x = ops.convert_to_tensor([1.0, 2.0, 3.0, 4.0])
        >>> ops.quantile(x, [0.25, 0.5]).numpy().tolist()
        [1.75, 2.5]
    """
    return _quantile("quantile", x, q, axis, method, keepdims, nan=False)


def nanquantile(x, q, axis=None, method="linear", keepdims=False):
    """quantile ignoring NaNs (NaN where a slice is all NaN).

    Returns:
        A float tensor: q's shape followed by x's shape without the reduced
        axes (kept as length 1 with keepdims).
    """
    return _quantile("nanquantile", x, q, axis, method, keepdims, nan=True)


def percentile(x, q, axis=None, method="linear", keepdims=False):
    """The q-th percentiles (q in [0, 100]).

    Args:
        q: The percentiles, in [0, 100]: a number or a 1-d tensor.

    Returns:
        A float tensor: q's shape followed by x's shape without the reduced
        axes (kept as length 1 with keepdims).

    Example:
        >>> from pycg import ops
        >>> float(ops.percentile([1.0, 2.0, 3.0], 50))
        2.0
    """
    return _quantile("percentile", x, q, axis, method, keepdims, nan=False,
                     scale=100)


def nanpercentile(x, q, axis=None, method="linear", keepdims=False):
    """percentile ignoring NaNs (NaN where a slice is all NaN).

    Args:
        q: The percentiles, in [0, 100]: a number or a 1-d tensor.

    Returns:
        A float tensor: q's shape followed by x's shape without the reduced
        axes (kept as length 1 with keepdims).
    """
    return _quantile("nanpercentile", x, q, axis, method, keepdims, nan=True,
                     scale=100)


def median(x, axis=None, keepdims=False):
    """The median along `axis` (None: all).

    Returns:
        A float tensor: x's shape without the reduced axes (kept as length 1
        with keepdims).
    """
    return _quantile("median", x, 0.5, axis, "linear", keepdims, nan=False)


def nanmedian(x, axis=None, keepdims=False):
    """The median along `axis` ignoring NaNs (NaN where a slice is all NaN).

    Returns:
        A float tensor: x's shape without the reduced axes (kept as length 1
        with keepdims).

    Differs:
        Over an empty axis pycg raises an error naming the op.
    """
    return _quantile("nanmedian", x, 0.5, axis, "linear", keepdims, nan=True)


def _quantile(op, x, q, axis, method, keepdims, nan, scale=1):
    if method not in _METHODS:
        raise ValueError(f"pycg.ops.{op}: method must be one of "
                         f"{', '.join(map(repr, _METHODS))}, got {method!r}")
    qs = np.asarray(q.numpy() if isinstance(q, Tensor) else q,
                    dtype=np.float64) / scale
    if qs.ndim > 1 or not np.all((qs >= 0) & (qs <= 1)):   # (NaN: no)
        raise ValueError(f"pycg.ops.{op}: q must be a scalar or 1-d, inside "
                         f"[0, {scale}], got {q!r}")
    x = as_tensor(x, op)
    if x.dtype.kind == "c":
        raise TypeError(f"pycg.ops.{op}: complex values have no order (got "
                        f"dtype {x.dtype.name}); take ops.real or ops.abs "
                        f"first")
    if not is_float(x.dtype):
        x = cast(x, config.floatx())
    t, _, axes, shape = _to_last(x, axis, op)
    missing = isnan(t)
    if nan:
        count = sum(cast(logical_not(missing), "int32"), -1, keepdims=True)
        t = where(missing, math.inf, t)
    else:   # (a NaN makes the slice's quantiles NaN: NumPy, TensorFlow)
        count = Tensor(backends.active.full(t.shape[:-1] + (1,),
                                            t.shape[-1], np.dtype("int32")))
        count = where(any(missing, -1, keepdims=True), 0, count)
    s = _take_last(t, _argsort_last(t))
    last = cast(maximum(count - 1, 0), t.dtype)
    if isinstance(q, Tensor) and is_float(q.dtype):   # (q gets a gradient)
        qt = cast(q, t.dtype) / scale
        q_items = [qt] if qs.ndim == 0 else [getitem(qt, i)
                                             for i in range(qs.size)]
    else:
        q_items = [float(qi) for qi in np.atleast_1d(qs)]
    outs = [_pick_quantile(s, last, qi, method) for qi in q_items]
    outs = [where(equal(count, 0), math.nan, o) for o in outs]
    kept = [1 if i in axes else n for i, n in enumerate(shape)]
    outs = [reshape(o, kept if keepdims else
                    [n for i, n in enumerate(shape) if i not in axes])
            for o in outs]
    if qs.ndim == 0:
        return outs[0]
    from pycg.ops.manipulation import stack
    return stack(outs)


def _pick_quantile(s, last, q, method):
    pos = last * q
    if method == "linear":   # (Keras' form: at a knot, the gradient with
        hi = ceil(pos)       # respect to q is the left segment's)
        lo = maximum(hi - 1, 0)
        hi = minimum(lo + 1, last)
        f = hi - pos
        return _take_last(s, cast(hi, "int32")._value) * (1 - f) + \
            _take_last(s, cast(lo, "int32")._value) * f
    lo = floor(pos)
    hi = minimum(lo + 1, last)
    if method == "nearest":
        from pycg.ops.elementwise import round
        lo = hi = round(pos)
    elif method == "lower":
        hi = lo
    elif method == "higher":
        lo = hi = where(greater(pos, lo), hi, lo)
    a = _take_last(s, cast(lo, "int32")._value)
    if method in ("lower", "higher", "nearest"):
        return a
    b = _take_last(s, cast(hi, "int32")._value)
    return where(equal(lo, pos), a, (a + b) * 0.5)   # (midpoint)
