"""Tensors repeated along their axes (keras.ops names): `tile` repeats the
whole tensor, `repeat` each element. Each is one gather of flat positions
(manipulation._pick), its result's size checked before anything is
allocated (ops/_machinery/allocation.py)."""
import operator

import numpy as np

from pycg.ops._machinery.allocation import guard
from pycg.ops._machinery.dispatch import as_tensor
from pycg.ops.manipulation import _pick

__all__ = ("repeat", "tile")


def tile(x, repeats):
    """Repeat the whole tensor `repeats` times along each axis.

    Returns:
        A tensor of x's dtype, each axis times its repeats.
    """
    x = as_tensor(x, "tile")
    reps = tuple(np.atleast_1d(repeats).tolist())
    shape = _tiled(x.shape, reps)
    if shape is not None:
        guard("tile", shape, x.dtype, "repeats")
    return _pick("tile", x, lambda grid: np.tile(grid, reps), ("tile", reps))


def repeat(x, repeats, axis=None):
    """Repeat each element `repeats` times along `axis`.

    Returns:
        A tensor of x's dtype (1-d when axis is None).
    """
    x = as_tensor(x, "repeat")
    reps = np.asarray(repeats)
    shape = _repeated(x.shape, reps, axis)
    if shape is not None:
        guard("repeat", shape, x.dtype, "repeats")
    return _pick("repeat", x, lambda grid: np.repeat(grid, reps, axis=axis))


def _counts(values):
    """Non-negative Python ints, or None (NumPy will say what is wrong)."""
    try:
        out = [operator.index(v) for v in values]
    except TypeError:
        return None
    return out if all(v >= 0 for v in out) else None


def _tiled(shape, reps):
    """np.tile's result shape, or None where NumPy will refuse."""
    reps = _counts(reps)
    if reps is None or None in shape:
        return None
    n = max(len(shape), len(reps))
    shape = (1,) * (n - len(shape)) + tuple(shape)
    reps = [1] * (n - len(reps)) + reps
    return [a * b for a, b in zip(shape, reps)]


def _repeated(shape, reps, axis):
    """np.repeat's result shape, or None where NumPy will refuse."""
    counts = _counts(reps.ravel().tolist())
    if counts is None or None in shape or reps.ndim > 1:
        return None
    if axis is None:
        shape, axis = [int(np.prod(shape, dtype=object))], 0
    elif not -len(shape) <= axis < len(shape):
        return None
    shape, axis = list(shape), axis % len(shape)
    if reps.ndim == 0:
        shape[axis] *= counts[0]
    elif len(counts) == shape[axis]:
        shape[axis] = sum(counts)
    else:
        return None
    return shape
