"""Reductions and scans (keras.ops names)."""
import numpy as np

from pycg import backends
from pycg.ops import _dynamic
from pycg.ops.elementwise import maximum, minimum
from pycg.ops._dispatch import (apply, apply_nograd, as_tensor, cast,
                                norm_axis)
from pycg.tensor import is_differentiable


def _reduce(name, x, axis, keepdims):
    x = as_tensor(x, name)
    axis = norm_axis(axis, x.ndim, name)
    return apply(name, getattr(backends.active, name), (x,),
                 {"axis": axis, "keepdims": bool(keepdims)})


def sum(x, axis=None, keepdims=False):
    """Sum over `axis` (None: all axes)."""
    return _reduce("sum", x, axis, keepdims)


def prod(x, axis=None, keepdims=False):
    """Product over `axis`; its gradient is right with zeros in x."""
    return _reduce("prod", x, axis, keepdims)


def max(x, axis=None, keepdims=False, initial=None):
    """Maximum over `axis`, and at least `initial` when given (np.max);
    ties share the gradient equally."""
    out = _reduce("max", x, axis, keepdims)
    if initial is None:
        return out
    return maximum(out, initial)


def min(x, axis=None, keepdims=False, initial=None):
    """Minimum over `axis`, and at most `initial` when given (np.min);
    ties share the gradient equally."""
    out = _reduce("min", x, axis, keepdims)
    if initial is None:
        return out
    return minimum(out, initial)


def mean(x, axis=None, keepdims=False):
    """Arithmetic mean over `axis` (integers and bools average as floatx)."""
    x = as_tensor(x, "mean")
    if not is_differentiable(x.dtype):
        from pycg import config
        x = cast(x, config.floatx())
    axes = norm_axis(axis, x.ndim, "mean")
    if not _dynamic.known(x.shape):
        return sum(x, axes, keepdims) / _dynamic.size_of(x, axes)
    n = x.size if axes is None else int(np.prod([x.shape[a] for a in axes]))
    return sum(x, axes, keepdims) * (1.0 / n if n else float("nan"))


def var(x, axis=None, keepdims=False):
    """Population variance over `axis`."""
    x = as_tensor(x, "var")
    d = x - mean(x, axis, keepdims=True)
    return mean(d * d, axis, keepdims)


def std(x, axis=None, keepdims=False):
    """Population standard deviation over `axis`."""
    from pycg.ops.elementwise import sqrt
    return sqrt(var(x, axis, keepdims))


def cumsum(x, axis=None, dtype=None):
    """Cumulative sum along `axis` (None: over the flattened tensor),
    computed in `dtype` when given."""
    x = as_tensor(x, "cumsum")
    if dtype is not None:
        x = cast(x, dtype)
    if axis is None:
        from pycg.ops.manipulation import reshape
        x, axis = reshape(x, (-1,)), 0
    (axis,) = norm_axis(axis, x.ndim, "cumsum")
    return apply("cumsum", backends.active.cumsum, (x,), {"axis": axis})


def argmax(x, axis=None, keepdims=False):
    """Index of the maximum (int32, 0-based); not differentiable."""
    x = as_tensor(x, "argmax")
    return apply_nograd(backends.active.argmax, (x,),
                        {"axis": axis, "keepdims": keepdims})


def argmin(x, axis=None, keepdims=False):
    """Index of the minimum (int32, 0-based); not differentiable."""
    x = as_tensor(x, "argmin")
    return apply_nograd(backends.active.argmin, (x,),
                        {"axis": axis, "keepdims": keepdims})
