"""Searching and counting (keras.ops names): searchsorted, digitize,
bincount, histogram, unique. None of them is differentiable."""
import builtins

import numpy as np

from pycg import backends, config
from pycg._errors import Dtype, Op, Shape, user_error
from pycg.ops._machinery.allocation import guard
from pycg.ops._machinery.dispatch import apply_nograd, as_tensor, promote
from pycg.ops.creation import arange, cast, convert_to_tensor
from pycg.ops.elementwise import (equal, floor, greater, less, logical_and,
                                  where)
from pycg.ops.manipulation import expand_dims, reshape
from pycg.ops.reduction import max, min, sum
from pycg.tensor import Tensor, is_float

__all__ = ("bincount", "digitize", "histogram", "searchsorted", "unique")


def searchsorted(sorted_sequence, values, side="left"):
    """Insertion indices (int32) of values into a sorted 1-d sequence.

    Args:
        sorted_sequence: The 1-d ascending sequence.
        values: The values to place.
        side: 'left' (the first valid index) or 'right' (the last).

    Returns:
        An int32 tensor of values' shape; not differentiable.
    """
    if side not in ("left", "right"):
        raise ValueError(f"pycg.ops.searchsorted: side must be 'left' or "
                         f"'right', got {side!r}")
    seq, v = promote(sorted_sequence, values, "searchsorted")
    if seq.ndim != 1:
        raise user_error(ValueError, "{op}: sorted_sequence must be 1-d, got "
                         "shape {shape}", op=Op("searchsorted"),
                         shape=Shape(seq.shape))
    return apply_nograd(backends.active.searchsorted, (seq, v),
                        {"side": side})


def digitize(x, bins):
    """Index of the bin of each x (bins increasing): bins[i-1] <= x <
    bins[i].

    Args:
        bins: The bin edges: a 1-d increasing tensor.

    Returns:
        An int32 tensor of x's shape; not differentiable.
    """
    return searchsorted(bins, x, side="right")


def bincount(x, weights=None, minlength=0, sparse=False):
    """Counts (or summed weights) of each non-negative integer in 1-d x.

    Args:
        x: The values: a 1-d tensor of non-negative integers.
        weights: One weight per element of x (None: counts).
        minlength: The result's least length.

    Returns:
        A 1-d tensor of length max(max(x) + 1, minlength): int32 counts, or the
        weights' dtype.

    Differs:
        A complex input is refused by name.

    Example:
        >>> from pycg import ops
        >>> ops.bincount([0, 1, 1, 3]).numpy().tolist()
        [1, 2, 0, 1]
    """
    x = as_tensor(x, "bincount")
    if x.ndim != 1 or x.dtype.kind not in "iu":
        raise user_error(ValueError, "{op}: x must be a 1-d integer tensor, "
                         "got shape {shape} and dtype {dtype}", op=Op("bincount"),
                         shape=Shape(x.shape), dtype=Dtype(x.dtype))
    if sparse:
        raise ValueError("pycg.ops.bincount: sparse=True is not supported")
    n = int(minlength)
    if x.size:
        n = builtins.max(n, int(max(x).numpy()) + 1)
    guard("bincount", (n,), "int32", "minlength")
    guard("bincount", (x.size, n), "int32", "minlength")   # (the one-hot)
    ones = (cast(expand_dims(x, 1), "int32")
            == reshape(arange(n), (1, -1)))
    if weights is None:
        return sum(cast(ones, "int32"), 0)
    w = as_tensor(weights, "bincount")
    return sum(where(ones, expand_dims(w, 1), 0), 0)


def histogram(x, bins=10, range=None):
    """(counts, bin_edges) of 1-d x in `bins` equal bins over `range`
    (default: x's min and max).

    Args:
        bins: The number of equal bins.
        range: (low, high), the interval the bins cover. None: x's min and max.

    Returns:
        A tuple (counts, bin_edges): int32 counts of length bins, bins + 1
        float edges; not differentiable.
    """
    x = as_tensor(x, "histogram")
    if x.ndim != 1:
        raise user_error(ValueError, "{op}: x must be 1-d, got shape {shape}",
                         op=Op("histogram"), shape=Shape(x.shape))
    x = x if is_float(x.dtype) else cast(x, config.floatx())
    lo, hi = (min(x), max(x)) if range is None else (
        convert_to_tensor(float(range[0]), x.dtype),
        convert_to_tensor(float(range[1]), x.dtype))
    same = equal(hi, lo)  # NumPy widens an empty range by 0.5 each way
    lo, hi = where(same, lo - 0.5, lo), where(same, hi + 0.5, hi)
    guard("histogram", (int(bins) + 1,), x.dtype, "bins")
    guard("histogram", (x.size, int(bins)), "int32", "bins")   # (hit)
    steps = cast(arange(int(bins) + 1), x.dtype)
    edges = lo + (hi - lo) * steps * (1.0 / int(bins))
    idx = cast(floor((x - lo) / (hi - lo) * int(bins)), "int32")
    idx = where(equal(x, hi), int(bins) - 1, idx)
    inside = logical_and(greater(x, lo) | equal(x, lo), less(x, hi) |
                         equal(x, hi))
    hit = logical_and(expand_dims(inside, 1),
                      equal(expand_dims(idx, 1),
                            reshape(arange(int(bins)), (1, -1))))
    return sum(cast(hit, "int32"), 0), edges


def unique(x, sorted=True, return_index=False, return_inverse=False,
           return_counts=False, axis=None, size=None, fill_value=None):
    """np.unique (its length depends on the values, so x must have one:
    not traced); not differentiable.

    Args:
        sorted: Accepted for keras.ops' signature; the values always come
            sorted.
        return_index: Also return the index of each value's first occurrence.
        return_inverse: Also return, for each element of x, the index of its
            value.
        return_counts: Also return how often each value occurs.
        size: A fixed length for the result (padded with fill_value, or cut).
            None: as many as there are.
        fill_value: The padding when size is longer (None: the smallest value).

    Returns:
        The sorted unique values (1-d, or slices along axis); with any return_*
        asked, a tuple of them followed by the first indices, the inverse and
        the counts (int32), as asked.

    Differs:
        NaN sorts last, as NumPy and JAX (TensorFlow's sort places NaN by
        position).
    """
    v = np.asarray(as_tensor(x, "unique").numpy())
    res = np.unique(v, return_index=return_index,
                    return_inverse=return_inverse,
                    return_counts=return_counts, axis=axis)
    res = res if isinstance(res, tuple) else (res,)
    if size is not None:
        u = res[0]
        guard("unique", (int(size),) + u.shape[1:], u.dtype, "size")
        pad = np.full((int(size),) + u.shape[1:], fill_value if fill_value
                      is not None else (u.min() if u.size else 0), u.dtype)
        pad[:builtins.min(int(size), len(u))] = u[:int(size)]
        res = (pad,) + res[1:]
    out = tuple(Tensor(backends.active.convert(
        r if i == 0 else r.astype(np.int32))) for i, r in enumerate(res))
    return out[0] if len(out) == 1 else out
