"""The VJP rules of the shape and indexing ops (pycg/ops/manipulation.py)
and of the shape helpers of dimensions unknown while tracing
(_machinery/dynamic.py), and `unbroadcast`: broadcasting undone in one
place, for the backward loop."""
import numpy as np

from pycg.core.recorder import defvjp, defvjp_each
from pycg.ops import manipulation as S
from pycg.ops import reduction as R
from pycg.ops._machinery import dynamic as D


# ---- shapes and indexing ----------------------------------------------------
def _concatenate(i, g, ans, *xs, axis):
    start = sum(D.shape_of(x)[axis] for x in xs[:i])
    if not D.known(g.shape):
        return D.slice_axis(g, axis, start, D.shape_of(xs[i])[axis])
    index = (slice(None),) * axis + (slice(start, start + xs[i].shape[axis]),)
    return S.getitem(g, index)


def _pad(g, ans, x, pad_width, constant_values):
    if not D.known(g.shape):
        for i, ((lo, _), n) in enumerate(zip(pad_width, D.shape_of(x))):
            g = D.slice_axis(g, i, lo, n)
        return g
    return S.getitem(g, tuple(slice(lo, lo + n)
                              for (lo, _), n in zip(pad_width, x.shape)))


defvjp("_copy", lambda g, ans, x: g)
defvjp("reshape", lambda g, ans, x, shape: S.reshape(g, D.shape_of(x)))
defvjp("transpose", lambda g, ans, x, axes:
       S.transpose(g, tuple(np.argsort(axes))))
defvjp("broadcast_to", lambda g, ans, x, shape: unbroadcast(g, x.shape, x))
defvjp("pad", _pad)
defvjp("_gather", lambda g, ans, x, positions: S._scatter(g, positions,
                                                          x.shape))
defvjp("_scatter", lambda g, ans, x, positions, shape, size:
       S._gather(g, positions))
defvjp_each("concatenate", _concatenate)
defvjp("_sum_to", lambda g, ans, x, shape: D.broadcast(g, D.shape_of(x)))
defvjp("_slice_axis", lambda g, ans, x, axis, start, size: D.pad_axis(
    g, axis, start, D.shape_of(x)[axis] - start - size))
defvjp("_pad_axis", lambda g, ans, x, axis, before, after: D.slice_axis(
    g, axis, before, D.shape_of(x)[axis]))


# ---- broadcasting, undone in one place ----------------------------------------
def unbroadcast(g, shape, like=None):
    """Sum g down to `shape` (the inverse of NumPy broadcasting), the shape
    of `like`; with dimensions unknown, on the axes broadcast at run time."""
    if like is not None and not D.known(shape):
        return D.sum_to(g, like)
    extra = g.ndim - len(shape)
    axes = tuple(range(extra)) + tuple(
        i + extra for i, n in enumerate(shape) if n == 1 and
        g.shape[i + extra] != 1)
    if axes:
        g = R.sum(g, axes, keepdims=True)
    return S.reshape(g, shape)
