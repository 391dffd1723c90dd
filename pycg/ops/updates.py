"""Scatter, slice updates and segment reductions (keras.ops core/math
names). All are compositions: a scatter is manipulation._scatter at flat
positions computed from the indices, so values get gradients."""
import numpy as np

from pycg import backends
from pycg._errors import Dtype, Op, Position, Shape, user_error
from pycg.ops._machinery.allocation import guard
from pycg.ops._machinery.dispatch import as_tensor, promote
from pycg.ops.creation import cast, ones_like
from pycg.ops.elementwise import equal, greater, maximum, minimum, where
from pycg.ops.manipulation import _scatter, expand_dims, pad, reshape
from pycg.ops.reduction import max, min, prod, sum
from pycg.tensor import Tensor, is_float

__all__ = ("saturate_cast", "scatter", "scatter_update", "segment_max",
           "segment_min", "segment_prod", "segment_sum", "slice_update")


def _flat_positions(op, indices, shape):
    """Flat positions (a backend int32 value) of the slices that rows of
    `indices` (N, k) pick in a tensor of `shape`, in the shape of the values
    that fill them: (N,) + shape[k:]."""
    idx = as_tensor(indices, op)
    if idx.dtype.kind not in "iu":
        raise TypeError(f"pycg.ops.{op}: indices must be integers, got dtype "
                        f"{idx.dtype}")
    if idx.ndim == 1:
        idx = reshape(idx, (-1, 1))
    k = idx.shape[-1]
    if k > len(shape):
        raise user_error(ValueError, "{op}: indices of depth {k} do not fit "
                         "shape {shape}", op=Op(op), k=k, shape=Shape(shape))
    strides = np.cumprod((tuple(shape[1:]) + (1,))[::-1])[::-1]
    inner = int(np.prod(shape[k:], dtype=np.int64))
    K = backends.active
    rows = sum(cast(idx, "int32") * Tensor(K.convert(
        (strides[:k]).astype(np.int32))), -1, keepdims=True)
    want = idx.shape[:-1] + tuple(shape[k:])
    flat = K.add(rows._value, K.convert(np.arange(inner, dtype=np.int32)))
    return K.reshape(flat, want), want


def scatter(indices, values, shape):
    """Zeros of `shape` with `values` added at `indices` (rows of
    coordinates; repeated indices add up).

    Args:
        indices: The coordinates: (n, len(shape)) ints (or fewer columns, for
            whole slices).
        values: What to add at each row of indices.

    Returns:
        A tensor of `shape` and values' dtype.

    Example:
        >>> from pycg import ops
        >>> ops.scatter([[1], [3], [1]], ops.convert_to_tensor([1.0, 2.0, 3.0]),
        ...             (4,)).numpy().tolist()
        [0.0, 4.0, 0.0, 2.0]
    """
    shape = tuple(int(s) for s in shape)
    pos, want = _flat_positions("scatter", indices, shape)
    v = as_tensor(values, "scatter")
    guard("scatter", shape, v.dtype)
    if v.size != int(np.prod(want)):
        raise user_error(ValueError, "{op}: values of shape {v} do not fit "
                         "indices that pick slices of shape {want}",
                         op=Op("scatter"), v=Shape(v.shape), want=Shape(want))
    return _scatter(reshape(v, want), pos, shape)


def scatter_update(inputs, indices, updates, reduction=None):
    """inputs with the entries at `indices` replaced by `updates` (or
    combined with them: reduction 'add', 'mul', 'max' or 'min').

    Args:
        indices: The coordinates to update: (n, rank) ints.
        updates: The new values, one per row of indices.
        reduction: None (replace), 'add', 'mul', 'max' or 'min'.

    Returns:
        A tensor of inputs' shape and dtype.
    """
    x = as_tensor(inputs, "scatter_update")
    u = cast(as_tensor(updates, "scatter_update"), x.dtype)
    hit = greater(scatter(indices, ones_like(u, "float32"), x.shape), 0)
    if reduction in (None, "add"):
        placed = scatter(indices, u, x.shape)
        return where(hit, placed, x) if reduction is None else x + placed
    if reduction not in ("mul", "max", "min"):
        raise ValueError(f"pycg.ops.scatter_update: reduction must be None, "
                         f"'add', 'mul', 'max' or 'min', got {reduction!r}")
    placed = scatter(indices, u, x.shape)
    combine = {"mul": lambda a, b: a * b, "max": maximum, "min": minimum}
    return where(hit, combine[reduction](x, placed), x)


def slice_update(inputs, start_indices, updates):
    """inputs with the block at start_indices replaced by `updates`.

    Args:
        updates: The block to write.

    Returns:
        A tensor of inputs' shape and dtype.
    """
    x, u = promote(inputs, updates, "slice_update")
    starts = [int(s) for s in np.asarray(
        start_indices.numpy() if isinstance(start_indices, Tensor)
        else start_indices).reshape(-1)]
    if len(starts) != x.ndim or u.ndim != x.ndim or any(
            s < 0 or s + n > m for s, n, m in zip(starts, u.shape, x.shape)):
        raise user_error(ValueError, "{op}: updates of shape {u} at {at} do "
                         "not fit inside shape {shape}", op=Op("slice_update"),
                         u=Shape(u.shape), at=Position(tuple(starts)),
                         shape=Shape(x.shape))
    widths = [(s, m - s - n) for s, n, m in zip(starts, u.shape, x.shape)]
    mask = np.zeros(x.shape, bool)
    mask[tuple(slice(s, s + n) for s, n in zip(starts, u.shape))] = True
    return where(Tensor(backends.active.convert(mask)), pad(u, widths), x)


# ---- segment reductions -----------------------------------------------------
def _segments(op, data, segment_ids, num_segments):
    data = as_tensor(data, op)
    ids = as_tensor(segment_ids, op)
    if ids.ndim != 1 or ids.dtype.kind not in "iu" or \
            ids.shape[0] != data.shape[0]:
        raise user_error(ValueError, "{op}: segment_ids must be a 1-d integer "
                         "tensor with one id per row of data ({n}), got shape "
                         "{shape} and dtype {dtype}", op=Op(op), n=data.shape[0],
                         shape=Shape(ids.shape), dtype=Dtype(ids.dtype))
    if num_segments is None and ids.size:
        try:
            num_segments = int(np.max(ids.numpy())) + 1   # (on the host:
        except TypeError:   # NumPy ids have a value in a trace, traced none)
            raise user_error(
                TypeError, "{op}: segment_ids has no value yet inside a "
                "compiled function, so the number of segments cannot be "
                "read from it; pass num_segments", op=Op(op)) from None
    num_segments = 0 if num_segments is None else int(num_segments)
    guard(op, (num_segments,) + data.shape[1:], data.dtype, "num_segments")
    return data, ids, num_segments


def segment_sum(data, segment_ids, num_segments=None, sorted=False):
    """Sums of the rows of data that share a segment id.

    Returns:
        A tensor (num_segments, *data.shape[1:]) of data's dtype.

    Example:
        >>> from pycg import ops
        >>> ops.segment_sum(ops.convert_to_tensor([1.0, 2.0, 3.0]),
        ...                 ops.convert_to_tensor([0, 0, 1])).numpy().tolist()
        [3.0, 3.0]
    """
    data, ids, n = _segments("segment_sum", data, segment_ids, num_segments)
    return scatter(reshape(ids, (-1, 1)), data, (n,) + data.shape[1:])


def _masked(op, data, segment_ids, num_segments, fill, reduce):
    data, ids, n = _segments(op, data, segment_ids, num_segments)
    guard(op, (n,) + data.shape, data.dtype, "num_segments")   # (where())
    hit = equal(reshape(ids, (1, -1) + (1,) * (data.ndim - 1)),
                reshape(Tensor(backends.active.convert(
                    np.arange(n, dtype=np.dtype(ids.dtype)))),
                    (-1, 1) + (1,) * (data.ndim - 1)))
    return reduce(where(hit, expand_dims(data, 0), fill), 1)


def _lowest(dtype):
    return float(backends.finfo(dtype).min) if is_float(dtype) else int(
        np.iinfo(dtype).min)


def _highest(dtype):
    return float(backends.finfo(dtype).max) if is_float(dtype) else int(
        np.iinfo(dtype).max)


def segment_max(data, segment_ids, num_segments=None, sorted=False):
    """Maxima per segment (the dtype's lowest value for an empty one).

    Returns:
        A tensor (num_segments, *data.shape[1:]) of data's dtype.
    """
    d = as_tensor(data, "segment_max")
    return _masked("segment_max", d, segment_ids, num_segments,
                   _lowest(d.dtype), max)


def segment_min(data, segment_ids, num_segments=None, sorted=False):
    """Minima per segment (the dtype's highest value for an empty one).

    Returns:
        A tensor (num_segments, *data.shape[1:]) of data's dtype.
    """
    d = as_tensor(data, "segment_min")
    return _masked("segment_min", d, segment_ids, num_segments,
                   _highest(d.dtype), min)


def segment_prod(data, segment_ids, num_segments=None, sorted=False):
    """Products per segment (1 for an empty one).

    Returns:
        A tensor (num_segments, *data.shape[1:]) of data's dtype.
    """
    return _masked("segment_prod", data, segment_ids, num_segments, 1, prod)


def saturate_cast(x, dtype):
    """x cast to `dtype`, values clipped to its range first.

    Args:
        dtype: The dtype to convert to.

    Returns:
        A tensor of x's shape in `dtype`.
    """
    x = as_tensor(x, "saturate_cast")
    dt = np.dtype(dtype)
    if _overflows(x.dtype, dt):
        info = np.iinfo(dt) if dt.kind in "iu" else backends.finfo(dt)
        num = float if is_float(x.dtype) else int
        x = minimum(maximum(x, num(info.min)), num(info.max))
    return cast(x, dt)


def _overflows(src, dst):
    """Whether values of dtype src can lie outside the range of dst."""
    if is_float(src):   # (bfloat16 reaches float32's range, float16 not)
        return dst.kind in "iu" or (
            is_float(dst) and backends.finfo(src).max > backends.finfo(dst).max)
    if src.kind in "iu" and dst.kind in "iu":
        s, d = np.iinfo(src), np.iinfo(dst)
        return s.min < d.min or s.max > d.max
    return False
