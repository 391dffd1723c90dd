"""Reductions and scans (keras.ops names)."""
import numpy as np

from pycg import backends
from pycg.ops import _dynamic
from pycg.ops.elementwise import maximum, minimum
from pycg.ops._dispatch import (apply, apply_nograd, as_tensor, cast,
                                norm_axis)
from pycg.tensor import is_differentiable


# how a reduction takes integer and bool tensors where Keras' result is not
# its kernel's: (dtype -> the dtype it runs in, cast back after?). sum and
# prod count narrow integers and bools in 32 bits (Keras, JAX); max and min
# of bools run in int32 (TensorFlow has no bool kernels)
_WIDE = {np.dtype(d): w for d, w in (
    ("bool", "int32"), ("int8", "int32"), ("int16", "int32"),
    ("uint8", "uint32"), ("uint16", "uint32"))}
_BOOL = {np.dtype("bool"): "int32"}
_THROUGH = {"sum": (_WIDE, False), "prod": (_WIDE, False),
            "max": (_BOOL, True), "min": (_BOOL, True)}


def _reduce(name, x, axis, keepdims):
    x = as_tensor(x, name)
    axis = norm_axis(axis, x.ndim, name, unique=True)
    if not backends.active.inexact(x._value):   # (see _THROUGH)
        through, back = _THROUGH[name]
        dtype = through.get(x.dtype)
        if dtype is not None:
            out = _reduce(name, cast(x, dtype), axis, keepdims)
            return cast(out, x.dtype) if back else out
    return apply(name, getattr(backends.active, name), (x,),
                 {"axis": axis, "keepdims": bool(keepdims)})


def sum(x, axis=None, keepdims=False):
    """Sum over `axis` (None: all axes); narrow integers and bools in 32
    bits."""
    return _reduce("sum", x, axis, keepdims)


def prod(x, axis=None, keepdims=False):
    """Product over `axis` (narrow integers and bools in 32 bits); its
    gradient is right with zeros in x."""
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
    axes = norm_axis(axis, x.ndim, "mean", unique=True)
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
    elif x.dtype.kind == "b":   # (int32, as Keras)
        x = cast(x, "int32")
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
