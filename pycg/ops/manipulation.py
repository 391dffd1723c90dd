"""Shape and indexing ops (keras.ops names).

Ops that pick elements of x by a static pattern (indexing, take, flip,
slice; tile and repeat in ops/tiling.py) are one gather of flat positions,
computed with NumPy from the static shape; their gradient is one
scatter-add of the same positions (and the scatter's gradient is the
gather), so they share a rule.
"""
import builtins

import numpy as np

from pycg import backends
from pycg._errors import Axis, Op, Shape, user_error
from pycg.ops._machinery.allocation import guard
from pycg.ops._machinery.arguments import as_sequence, norm_shape
from pycg.ops._machinery.dispatch import apply, as_tensor, cast, norm_axis, result_dtype
from pycg.ops._machinery import dynamic as _dynamic
from pycg.ops import _traced_index
from pycg.tensor import Tensor

__all__ = ("broadcast_to", "concatenate", "expand_dims", "flip", "getitem",
           "pad", "ravel", "reshape", "slice", "squeeze", "stack", "swapaxes",
           "take", "take_along_axis", "transpose")

_slice = builtins.slice


def _positions_of(op, shape, pick):
    grid = np.arange(int(np.prod(shape, dtype=np.int64)),
                     dtype=np.int64).reshape(shape)
    try:
        return np.asarray(pick(grid))
    except (IndexError, ValueError, TypeError) as e:
        raise type(e)(f"pycg.ops.{op}: {e} (tensor shape {shape})") from None


def _gather(x, positions):
    return apply("_gather", backends.active.gather_flat, (x,),
                 {"positions": positions})


def _scatter(g, positions, shape):
    """Sum g into zeros of `shape` at flat `positions`."""
    size = int(np.prod(shape, dtype=np.int64))
    return apply("_scatter", _scatter_kernel, (g,),
                 {"positions": positions, "shape": shape, "size": size})


def _scatter_kernel(g, positions, shape, size):
    K = backends.active
    return K.reshape(K.scatter_flat(g, positions, size), shape)


def _pick(op, x, pick, key=None):
    x = as_tensor(x, op)
    if not _dynamic.known(x.shape):
        raise _dynamic.unknown_error(op, x)
    if key is None:
        pos = _positions_of(op, x.shape, pick)
    else:
        pos = _positions_cached(op, x.shape, key, pick)
    return _gather(x, pos)


_pos_cache = {}


def _positions_cached(op, shape, key, pick):
    k = (op, shape, key)
    pos = _pos_cache.get(k)
    if pos is None:
        if len(_pos_cache) > 1024:
            _pos_cache.clear()
        pos = _pos_cache[k] = _positions_of(op, shape, pick)
    return pos


def _index_key(index):
    parts = index if isinstance(index, tuple) else (index,)
    out = []
    for p in parts:
        if isinstance(p, _slice):
            out.append(("s", p.start, p.stop, p.step))
        elif isinstance(p, bool):
            return None   # a bool indexes as a mask, yet True == 1 as a key
        elif p is None or p is Ellipsis or isinstance(p, (int, np.integer)):
            out.append(p if p is not Ellipsis else "...")
        else:
            return None
    return tuple(out)


def getitem(x, index):
    """NumPy indexing (ints, slices, None, Ellipsis, int or bool arrays).

    Args:
        index: The index: ints, slices, None, Ellipsis, int or bool tensors
            (NumPy's rules).

    Returns:
        A tensor of x's dtype, the selected elements.
    """
    if isinstance(index, list) and any(isinstance(i, Tensor) for i in index):
        index = tuple(index)
    known = _traced_index.known(index)
    if known is _traced_index.TRACED:   # (traced: the backend computes the positions)
        return _traced_index.getitem(_gather, as_tensor(x, "getitem"), index)
    index = np.asarray(known) if isinstance(known, list) else known
    if not _dynamic.known(as_tensor(x, "getitem").shape):
        return _dynamic.getitem(as_tensor(x, "getitem"), index)
    key = _index_key(index)
    return _pick("getitem", x, lambda grid: grid[index], key)


def slice(inputs, start_indices, shape):
    """The block of `shape` starting at `start_indices`.

    Args:
        shape: The block's shape.

    Returns:
        A tensor of `shape` and the input's dtype.
    """
    starts = norm_shape(start_indices, "slice", "start_indices", free=True)
    sizes = norm_shape(shape, "slice")
    idx = tuple(_slice(s, s + n) for s, n in zip(starts, sizes))
    return _pick("slice", inputs, lambda grid: grid[idx], (starts, sizes))


def take(x, indices, axis=None):
    """Elements of x at `indices` along `axis` (None: flattened x).

    Returns:
        A tensor of x's dtype: the indices' shape in place of `axis`.
    """
    ind = _traced_index.known(indices)
    if ind is _traced_index.TRACED:   # (traced: the backend computes the positions)
        return _traced_index.take(_gather, as_tensor(x, "take"), indices, axis)
    ind = np.asarray(ind)
    if ind.dtype.kind not in "iu":
        raise TypeError(f"pycg.ops.take: indices must be integers, got "
                        f"dtype {ind.dtype}")
    return _pick("take", x, lambda grid: np.take(grid, ind, axis=axis))


def take_along_axis(x, indices, axis=None):
    """np.take_along_axis: indices broadcast against x along other axes.

    Returns:
        A tensor of x's dtype of the broadcast shape.
    """
    ind = np.asarray(indices.numpy() if isinstance(indices, Tensor)
                     else indices)
    if axis is None:
        return _pick("take_along_axis", reshape(x, (-1,)),
                     lambda grid: np.take_along_axis(grid, ind, axis=0))
    return _pick("take_along_axis", x,
                 lambda grid: np.take_along_axis(grid, ind, axis=axis))


def flip(x, axis=None):
    """Reverse the order of elements along `axis` (None: all axes).

    Returns:
        A tensor of x's shape and dtype.
    """
    return _pick("flip", x, lambda grid: np.flip(grid, axis=axis),
                 ("flip", axis if not isinstance(axis, list) else tuple(axis)))


def _copy(x):
    """The same values in a new tensor (a recorded identity: a tape tells
    the copy from x, and gradients flow through it)."""
    return apply("_copy", _same, (as_tensor(x, "reshape"),))


def _same(value):
    return value   # backend values are never mutated in place


def reshape(x, newshape):
    """The same elements in a new shape (one entry may be -1).

    Args:
        newshape: The new shape (a tuple of ints, one of them may be -1:
            inferred).

    Returns:
        A tensor of x's dtype holding x's elements (shape below).

    Example:
        >>> from pycg import ops
        >>> ops.reshape(ops.arange(6), (2, -1)).shape
        (2, 3)
    """
    x = as_tensor(x, "reshape")
    if not _dynamic.is_static(newshape):
        return apply("reshape", backends.active.reshape, (x,),
                     {"shape": list(newshape)})
    newshape = norm_shape(newshape, "reshape", "newshape", free=True)
    if not _dynamic.known(x.shape):
        return apply("reshape", backends.active.reshape, (x,),
                     {"shape": list(newshape)})
    try:
        target = np.empty(x.shape, dtype=bool).reshape(newshape).shape
    except ValueError:
        raise user_error(ValueError, "{op}: cannot reshape a tensor of shape "
                         "{shape} ({size} elements) into shape {new}",
                         op=Op("reshape"), shape=Shape(x.shape), size=x.size,
                         new=Shape(newshape)) from None
    if target == x.shape:
        return _copy(x)
    return apply("reshape", backends.active.reshape, (x,),
                 {"shape": target})


def transpose(x, axes=None):
    """Permute the axes (default: reverse them).

    Args:
        axes: The new order of the axes (None: reversed).

    Returns:
        A tensor of x's dtype holding x's elements (shape below).
    """
    x = as_tensor(x, "transpose")
    perm = tuple(range(x.ndim))[::-1] if axes is None else \
        norm_axis(axes, x.ndim, "transpose")
    if sorted(perm) != list(range(x.ndim)):
        raise ValueError(f"pycg.ops.transpose: axes {axes} is not a "
                         f"permutation of the {x.ndim} axes")
    return apply("transpose", backends.active.transpose, (x,),
                 {"axes": perm})


def swapaxes(x, axis1, axis2):
    """x with axes axis1 and axis2 swapped.

    Returns:
        A tensor of x's dtype holding x's elements (shape below).
    """
    x = as_tensor(x, "swapaxes")
    perm = list(range(x.ndim))
    perm[axis1], perm[axis2] = perm[axis2], perm[axis1]
    return transpose(x, perm)


def expand_dims(x, axis):
    """Insert a length-1 axis at `axis`.

    Args:
        axis: Where the new axis goes (or a tuple of places).

    Returns:
        A tensor of x's dtype with one more axis.
    """
    x = as_tensor(x, "expand_dims")
    count = len(axis) if isinstance(axis, (list, tuple)) else 1
    shape = list(_dynamic.shape_of(x))
    nd = x.ndim + count
    for a in sorted(norm_axis(axis, nd, "expand_dims", unique=True)):
        shape.insert(a, 1)
    return reshape(x, shape)


def squeeze(x, axis=None):
    """Remove length-1 axes (all of them, or those in `axis`).

    Args:
        axis: The length-1 axes to remove (None: all).

    Returns:
        A tensor of x's dtype holding x's elements (shape below).
    """
    x = as_tensor(x, "squeeze")
    axes = norm_axis(axis, x.ndim, "squeeze")
    if axes is None:
        axes = tuple(i for i, n in enumerate(x.shape) if n == 1)
    for a in axes:
        if x.shape[a] != 1:
            raise user_error(ValueError, "{op}: axis {axis} has length {n}, "
                             "not 1 (shape {shape})", op=Op("squeeze"),
                             axis=Axis(a), n=x.shape[a], shape=Shape(x.shape))
    return reshape(x, [n for i, n in enumerate(_dynamic.shape_of(x))
                       if i not in axes])


def broadcast_to(x, shape):
    """x broadcast to `shape` (NumPy rules).

    Returns:
        A tensor of `shape` and x's dtype.
    """
    x = as_tensor(x, "broadcast_to")
    if not _dynamic.known(x.shape) or not _dynamic.is_static(shape):
        return apply("broadcast_to", backends.active.broadcast_to, (x,),
                     {"shape": list(shape)})
    shape = norm_shape(shape, "broadcast_to")
    try:
        np.broadcast_shapes(x.shape, shape)
    except ValueError:
        raise user_error(ValueError, "{op}: cannot broadcast shape {shape} "
                         "to {new}", op=Op("broadcast_to"),
                         shape=Shape(x.shape), new=Shape(shape)) from None
    if shape == x.shape:
        return _copy(x)
    guard("broadcast_to", shape, x.dtype)
    return apply("broadcast_to", backends.active.broadcast_to, (x,),
                 {"shape": shape})


def concatenate(xs, axis=0):
    """Join tensors along an existing axis.

    Returns:
        A tensor in the promoted dtype of the inputs (shape below).

    Example:
        >>> from pycg import ops
        >>> ops.concatenate([ops.ones((1, 2)), ops.zeros((1, 2))]).shape
        (2, 2)
    """
    xs = tuple(as_tensor(x, "concatenate") for x in
               as_sequence(xs, "concatenate"))
    if not xs:
        raise ValueError("pycg.ops.concatenate: needs at least one tensor")
    dt = result_dtype(*[x.dtype for x in xs])
    xs = tuple(cast(x, dt) for x in xs)
    (ax,) = norm_axis(axis, xs[0].ndim, "concatenate")
    for x in xs[1:]:
        if x.ndim != xs[0].ndim or any(
                a != b for i, (a, b) in enumerate(zip(x.shape, xs[0].shape))
                if i != ax):
            raise user_error(ValueError, "{op}: shapes {x} and {y} differ "
                             "outside axis {axis}", op=Op("concatenate"),
                             x=Shape(xs[0].shape), y=Shape(x.shape),
                             axis=Axis(ax))
    return apply("concatenate", _concatenate_kernel, xs, {"axis": ax})


def _concatenate_kernel(*values, axis):
    return backends.active.concatenate(values, axis)


def stack(x, axis=0):
    """Join tensors along a new axis.

    Args:
        x: The tensors to stack, all of one shape.

    Returns:
        A tensor in the promoted dtype of the inputs (shape below).

    Differs:
        An empty sequence is refused, as NumPy.
    """
    xs = [as_tensor(t, "stack") for t in as_sequence(x, "stack", "x")]
    if not xs:
        raise ValueError("pycg.ops.stack: needs at least one tensor")
    for t in xs[1:]:
        if t.shape != xs[0].shape:
            raise user_error(ValueError, "{op}: shapes {x} and {y} differ",
                             op=Op("stack"), x=Shape(xs[0].shape), y=Shape(t.shape))
    nd = xs[0].ndim + 1
    return concatenate([expand_dims(t, axis % nd) for t in xs], axis % nd)


def pad(x, pad_width, mode="constant", constant_values=None):
    """Pad with a constant, or with x's own elements (a gather): as np.pad.

    Args:
        pad_width: (before, after) per axis, or one pair / int for all.
        mode: 'constant', 'reflect', 'symmetric', 'edge', 'wrap' ... as np.pad.
        constant_values: The value for mode='constant' (None: 0).

    Returns:
        A tensor of x's dtype, each axis longer by its padding.
    """
    x = as_tensor(x, "pad")
    pw = np.broadcast_to(np.asarray(pad_width, dtype=np.int64),
                         (x.ndim, 2)).tolist()
    guard("pad", [None if d is None else d + a + b
                  for d, (a, b) in zip(x.shape, pw)], x.dtype, "pad_width")
    if mode in ("reflect", "symmetric", "edge", "wrap"):
        return _pick("pad", x, lambda grid: np.pad(grid, pw, mode=mode))
    if mode != "constant":
        raise ValueError(f"pycg.ops.pad: mode must be 'constant', 'reflect', "
                         f"'symmetric', 'edge' or 'wrap'; got {mode!r}")
    return apply("pad", backends.active.pad, (x,),
                 {"pad_width": tuple(map(tuple, pw)),
                  "constant_values": constant_values or 0})


def ravel(x):
    """x flattened to 1-d, in row-major order.

    Returns:
        A 1-d tensor of x's elements (row-major).
    """
    return reshape(x, (-1,))
