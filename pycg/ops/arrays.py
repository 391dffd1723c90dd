"""Diagonals, triangles, rolls, axis moves, stacking and splitting
(keras.ops names). All are compositions of differentiable ops: a static
pick of elements is one gather (manipulation._pick)."""
import builtins

import numpy as np

from pycg import backends
from pycg._errors import Axis, Op, Shape, user_error
from pycg.ops._machinery import dynamic as _dynamic
from pycg.ops._machinery.allocation import guard
from pycg.ops._machinery.arguments import as_int, as_sequence, norm_shape
from pycg.ops._machinery.dispatch import as_tensor, norm_axis
from pycg.ops.creation import zeros_like
from pycg.ops.elementwise import where
from pycg.ops.manipulation import (_pick, concatenate, flip,
                                   getitem, reshape, transpose)
from pycg.ops.reduction import sum
from pycg.tensor import Tensor

__all__ = ("append", "array_split", "diag", "diagflat", "diagonal", "dsplit",
           "dstack", "fliplr", "flipud", "get_item", "hsplit", "hstack",
           "moveaxis", "roll", "rot90", "select", "split", "trace", "tril",
           "triu", "unstack", "vsplit", "vstack")


def _rank(op, x, ranks):
    x = as_tensor(x, op)
    if x.ndim not in ranks:
        want = " or ".join(map(str, ranks))
        raise user_error(ValueError, "{op}: expected a tensor of rank {want}, "
                         "got shape {shape}", op=Op(op), want=want,
                         shape=Shape(x.shape))
    return x


def diagonal(x, offset=0, axis1=0, axis2=1):
    """The diagonal at `offset` of the matrices in axes (axis1, axis2),
    as a new last axis.

    Returns:
        A tensor of x's dtype: x without axis1 and axis2, the diagonal last.
    """
    x = as_tensor(x, "diagonal")
    if x.ndim < 2:
        raise user_error(ValueError, "{op}: expected a tensor of rank >= 2, "
                         "got shape {shape}", op=Op("diagonal"),
                         shape=Shape(x.shape))
    a1, a2 = norm_axis((axis1, axis2), x.ndim, "diagonal")
    if a1 == a2:
        raise user_error(ValueError, "{op}: axis1 and axis2 are both {axis}",
                         op=Op("diagonal"), axis=Axis(a1))
    offset = as_int(offset, "diagonal", "offset")
    key = ("diagonal", offset, a1, a2)
    return _pick("diagonal", x, lambda grid: np.diagonal(
        grid, offset, a1, a2), key)


def diag(x, k=0):
    """The k-th diagonal of a matrix, or a matrix with 1-d x on it.

    Returns:
        A 1-d tensor (x 2-d) or a 2-d tensor (x 1-d) of x's dtype.

    Example:
        >>> from pycg import ops
        >>> ops.diag(ops.convert_to_tensor([1.0, 2.0])).numpy().tolist()
        [[1.0, 0.0], [0.0, 2.0]]
    """
    return _diag_as("diag", x, k)


def _diag_as(op, x, k):
    """diag, its errors naming `op` (diagflat is one)."""
    x, k = _rank(op, x, (1, 2)), as_int(k, op, "k")
    if x.ndim == 2:
        return diagonal(x, k)
    n = x.shape[0] + abs(k)
    guard(op, (n, n), x.dtype, "k")
    rows = np.arange(x.shape[0]) + max(-k, 0)
    cols = np.arange(x.shape[0]) + max(k, 0)
    from pycg.ops.manipulation import _scatter
    return _scatter(x, rows * n + cols, (n, n))


def diagflat(x, k=0):
    """diag of the flattened x.

    Returns:
        A 2-d tensor of x's dtype.
    """
    return _diag_as("diagflat", reshape(as_tensor(x, "diagflat"), (-1,)), k)


def trace(x, offset=0, axis1=0, axis2=1):
    """The sum along a diagonal.

    Returns:
        A tensor of x's dtype without axis1 and axis2.
    """
    return sum(diagonal(x, offset, axis1, axis2), -1)


def _triangle(op, x, k, lower):
    x = as_tensor(x, op)
    if x.ndim < 2:
        raise user_error(ValueError, "{op}: expected a tensor of rank >= 2, "
                         "got shape {shape}", op=Op(op), shape=Shape(x.shape))
    n, m = x.shape[-2:]
    k = as_int(k, op, "k")
    keep = np.tri(n, m, k, dtype=bool)
    keep = keep if lower else ~np.tri(n, m, k - 1, dtype=bool)
    mask = Tensor(backends.active.convert(keep))
    return where(mask, x, zeros_like(x))


def tril(x, k=0):
    """x with the entries above the k-th diagonal zeroed.

    Returns:
        A tensor of x's shape and dtype.

    Example:
        >>> from pycg import ops
        >>> ops.tril(ops.ones((2, 2))).numpy().tolist()
        [[1.0, 0.0], [1.0, 1.0]]
    """
    return _triangle("tril", x, k, lower=True)


def triu(x, k=0):
    """x with the entries below the k-th diagonal zeroed.

    Returns:
        A tensor of x's shape and dtype.
    """
    return _triangle("triu", x, k, lower=False)


def roll(x, shift, axis=None):
    """Elements shifted by `shift` along `axis` (None: the flattened x),
    wrapping around.

    Args:
        shift: How far (an int, or one per axis).

    Returns:
        A tensor of x's shape and dtype.
    """
    x = as_tensor(x, "roll")
    if axis is not None:
        axis = norm_axis(axis, x.ndim, "roll")
    sh = tuple(np.atleast_1d(shift).tolist())
    return _pick("roll", x, lambda grid: np.roll(
        grid, sh if len(sh) > 1 else sh[0], axis), ("roll", sh, axis))


def rot90(array, k=1, axes=(0, 1)):
    """Rotate by 90 degrees k times in the plane of `axes`.

    Args:
        array: The input tensor (2-d or more).
        k: How many quarter turns (negative: clockwise).
        axes: The plane, two axes.

    Returns:
        A tensor of x's dtype holding x's elements (shape below).
    """
    x = as_tensor(array, "rot90")
    axes = norm_axis(axes, x.ndim, "rot90")
    if len(axes) != 2 or axes[0] == axes[1]:
        raise ValueError(f"pycg.ops.rot90: axes must be two different axes, "
                         f"got {axes}")
    k = as_int(k, "rot90", "k")
    return _pick("rot90", x, lambda grid: np.rot90(grid, k, axes),
                 ("rot90", k % 4, axes))


def fliplr(x):
    """x with its axis 1 reversed (left-right).

    Returns:
        A tensor of x's shape and dtype.

    Differs:
        x needs two axes, as NumPy.
    """
    return flip(_at_least("fliplr", x, 2), 1)


def flipud(x):
    """x with its axis 0 reversed (up-down).

    Returns:
        A tensor of x's shape and dtype.
    """
    return flip(_at_least("flipud", x, 1), 0)


def _at_least(op, x, rank):
    x = as_tensor(x, op)
    if x.ndim < rank:
        raise user_error(ValueError, "{op}: expected a tensor of rank >= "
                         "{rank}, got shape {shape}", op=Op(op), rank=rank,
                         shape=Shape(x.shape))
    return x


def moveaxis(x, source, destination):
    """Move axes `source` to positions `destination`.

    Args:
        source: The axes to move (an int or a sequence).
        destination: Their new positions, as many as source.

    Returns:
        A tensor of x's dtype holding x's elements (shape below).
    """
    x = as_tensor(x, "moveaxis")
    src = norm_axis(source, x.ndim, "moveaxis")
    dst = norm_axis(destination, x.ndim, "moveaxis")
    if len(src) != len(dst):
        raise user_error(ValueError, "{op}: source {source} and destination "
                         "{destination} differ in length", op=Op("moveaxis"),
                         source=Axis(source), destination=Axis(destination))
    perm = [i for i in range(x.ndim) if i not in src]
    for d, s in sorted(zip(dst, src)):
        perm.insert(d, s)
    return transpose(x, perm)


# ---- stacking and splitting -------------------------------------------------
def _at_least_nd(x, n):
    x = as_tensor(x)
    if x.ndim >= n:
        return x
    if n == 3:
        return reshape(x, (1,) + x.shape + (1,) if x.ndim == 1 else
                       x.shape + (1,) if x.ndim == 2 else (1, 1, 1))
    return reshape(x, (1,) * (n - x.ndim) + x.shape)


def hstack(xs):
    """Concatenate along axis 1 (axis 0 for 0-d and 1-d tensors).

    Returns:
        A tensor in the promoted dtype of the inputs (shape below).
    """
    xs = [as_tensor(x, "hstack") for x in as_sequence(xs, "hstack")]
    if xs and xs[0].ndim <= 1:
        return concatenate([reshape(x, (-1,)) for x in xs], 0)
    return concatenate(xs, 1)


def vstack(xs):
    """Concatenate along axis 0, 1-d tensors as rows.

    Returns:
        A tensor in the promoted dtype of the inputs (shape below).
    """
    return concatenate([_at_least_nd(x, 2)
                        for x in as_sequence(xs, "vstack")], 0)


def dstack(xs):
    """Concatenate along axis 2 (tensors lifted to 3-d).

    Returns:
        A tensor in the promoted dtype of the inputs (shape below).
    """
    return concatenate([_at_least_nd(x, 3)
                        for x in as_sequence(xs, "dstack")], 2)


def append(x1, x2, axis=None):
    """x2 appended to x1 along `axis` (None: both flattened).

    Returns:
        A tensor in the promoted dtype of the inputs (shape below).
    """
    if axis is None:
        return concatenate([reshape(as_tensor(x1, "append"), (-1,)),
                            reshape(as_tensor(x2, "append"), (-1,))])
    return concatenate([x1, x2], axis)


def split(x, indices_or_sections, axis=0):
    """Split into equal sections, or at the given indices, along `axis`.

    Returns:
        A list of tensors of x's dtype, the sections in order.
    """
    x = as_tensor(x, "split")
    (ax,) = norm_axis(axis, x.ndim, "split")
    n = x.shape[ax]
    if isinstance(indices_or_sections, (int, np.integer)):
        k = int(indices_or_sections)
        if k <= 0 or n % k:
            raise user_error(ValueError, "{op}: axis {axis} of length {n} "
                             "cannot be split into {k} equal sections",
                             op=Op("split"), axis=Axis(ax), n=n, k=k)
        cuts = [n // k * i for i in range(1, k)]
    else:
        cuts = list(norm_shape(indices_or_sections, "split",
                               "indices_or_sections", free=True))
    bounds = [0] + cuts + [n]
    if not _dynamic.known(x.shape):  # other dimensions unknown: slices
        return [_dynamic.slice_axis(x, ax, a, b - a)
                for a, b in zip(bounds[:-1], bounds[1:])]
    pre = (builtins.slice(None),) * ax
    return [getitem(x, pre + (builtins.slice(a, b),))
            for a, b in zip(bounds[:-1], bounds[1:])]


def array_split(x, indices_or_sections, axis=0):
    """Split into sections of nearly equal size (the first ones longer).

    Args:
        indices_or_sections: An int N (N sections, the first ones longer when
            the axis does not divide) or a sorted list of split points.

    Returns:
        A list of tensors of x's dtype, the sections in order.
    """
    x = as_tensor(x, "array_split")
    (ax,) = norm_axis(axis, x.ndim, "array_split")
    if isinstance(indices_or_sections, (int, np.integer)):
        k = int(indices_or_sections)
        if k <= 0:
            raise ValueError(f"pycg.ops.array_split: the number of sections "
                             f"must be positive, got {k}")
        q, r = divmod(x.shape[ax], k)
        sizes = [q + 1] * r + [q] * (k - r)
        indices_or_sections = np.cumsum(sizes)[:-1].tolist()
    return split(x, indices_or_sections, ax)


def hsplit(x, indices_or_sections):
    """split along axis 1 (axis 0 for a 1-d x).

    Args:
        indices_or_sections: An int N (N equal sections) or a sorted list of
            split points.

    Returns:
        A list of tensors of x's dtype, the sections in order.
    """
    x = as_tensor(x, "hsplit")
    return split(x, indices_or_sections, 0 if x.ndim == 1 else 1)


def vsplit(x, indices_or_sections):
    """split along axis 0.

    Args:
        indices_or_sections: An int N (N equal sections) or a sorted list of
            split points.

    Returns:
        A list of tensors of x's dtype, the sections in order.
    """
    return split(_at_least("vsplit", x, 2), indices_or_sections, 0)


def dsplit(x, indices_or_sections):
    """split along axis 2.

    Args:
        indices_or_sections: An int N (N equal sections) or a sorted list of
            split points.

    Returns:
        A list of tensors of x's dtype, the sections in order.
    """
    return split(_at_least("dsplit", x, 3), indices_or_sections, 2)


def unstack(x, num=None, axis=0):
    """The slices of x along `axis`, as a list.

    Args:
        num: The length of `axis` (None: read from x).

    Returns:
        A list of tensors, x's shape without `axis`.
    """
    x = as_tensor(x, "unstack")
    (ax,) = norm_axis(axis, x.ndim, "unstack")
    if num is not None and as_int(num, "unstack", "num") != x.shape[ax]:
        raise user_error(ValueError, "{op}: num={num} but axis {axis} has "
                         "length {n}", op=Op("unstack"), num=num,
                         axis=Axis(ax), n=x.shape[ax])
    pre = (slice(None),) * ax
    return [getitem(x, pre + (i,)) for i in range(x.shape[ax])]


def get_item(x, key):
    """x[key] (NumPy indexing).

    Returns:
        A tensor of x's dtype, the selected elements.
    """
    return getitem(x, key)


def select(condlist, choicelist, default=0):
    """The first choice whose condition holds, else `default`.

    Args:
        condlist: A list of bool tensors.
        choicelist: A list of tensors, one per condition.
        default: The value where no condition holds.

    Returns:
        A tensor in the choices' promoted dtype, of their broadcast shape.
    """
    if len(condlist) != len(choicelist) or not condlist:
        raise ValueError(f"pycg.ops.select: condlist and choicelist must be "
                         f"non-empty lists of one length, got "
                         f"{len(condlist)} and {len(choicelist)}")
    out = default
    for c, v in reversed(list(zip(condlist, choicelist))):
        out = where(c, v, out)
    return out

