"""Reductions and scans (keras.ops names)."""
import numpy as np

from pycg import backends
from pycg._errors import Axis, Op, Shape, Value, user_error
from pycg.ops._machinery import dynamic as _dynamic
from pycg.ops.elementwise import imag, maximum, minimum, real
from pycg.ops._machinery.dispatch import (apply, apply_nograd, as_tensor, cast,
                                norm_axis)
from pycg.tensor import is_differentiable

__all__ = ("argmax", "argmin", "cumsum", "max", "mean", "min", "prod", "std",
           "sum", "var")


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
    bits.

    Returns:
        A tensor: x's shape without the reduced axes (kept as length 1 with
        keepdims); int32 (uint32) for bool and narrow integer x, else x's
        dtype.

    Example:
        >>> from pycg import ops
        >>> ops.sum([[1.0, 2.0], [3.0, 4.0]], axis=0).numpy().tolist()
        [4.0, 6.0]
    """
    return _reduce("sum", x, axis, keepdims)


def prod(x, axis=None, keepdims=False):
    """Product over `axis` (narrow integers and bools in 32 bits); its
    gradient is right with zeros in x.

    Returns:
        A tensor as sum's: x's reduced shape, narrow integers and bools in 32
        bits.
    """
    return _reduce("prod", x, axis, keepdims)


def max(x, axis=None, keepdims=False, initial=None):
    """Maximum over `axis`, and at least `initial` when given (np.max);
    ties share the gradient equally. Over an empty axis: `initial`, or an
    error without it (keras.ops and NumPy raise too).

    Args:
        initial: A lower bound of the answer (None: none). Needed over an empty
            axis.

    Returns:
        A tensor: x's shape without the reduced axes (kept as length 1 with
        keepdims), in x's dtype.
    """
    return _extremum("max", maximum, x, axis, keepdims, initial)


def min(x, axis=None, keepdims=False, initial=None):
    """Minimum over `axis`, and at most `initial` when given (np.min);
    ties share the gradient equally. Over an empty axis: `initial`, or an
    error without it.

    Args:
        initial: An upper bound of the answer (None: none). Needed over an
            empty axis.

    Returns:
        A tensor: x's shape without the reduced axes (kept as length 1 with
        keepdims), in x's dtype.
    """
    return _extremum("min", minimum, x, axis, keepdims, initial)


def _extremum(name, pick, x, axis, keepdims, initial):
    x = as_tensor(x, name)
    axes = norm_axis(axis, x.ndim, name)
    if _empty_over(name, x, axes, initial is None):
        from pycg.ops.creation import full
        shape = [1 if axes is None or i in axes else n
                 for i, n in enumerate(x.shape)
                 if keepdims or axes is not None and i not in axes]
        return pick(full(shape, initial, x.dtype), initial)   # (its dtype)
    out = _reduce(name, x, axes, keepdims)
    return out if initial is None else pick(out, initial)


def _empty_over(name, x, axes, refuse):
    """Is a reduced axis of x of length 0? (An error if `refuse`: a max or
    an argmax of nothing has no value.)"""
    dims = x.shape if axes is None else [x.shape[a] for a in axes]
    if 0 not in dims or None in x.shape:
        return False
    if refuse:
        hint = "; pass initial= for one" if name in ("max", "min") else ""
        raise user_error(ValueError, "{op}: the {name} over an axis of length "
                         "0 has no value (x has shape {shape}, axis {axis})"
                         + hint, op=Op(name), name=name, shape=Shape(x.shape),
                         axis=Value(None) if axes is None else Axis(list(axes)))
    return True


def mean(x, axis=None, keepdims=False):
    """Arithmetic mean over `axis` (integers and bools average as floatx).

    Returns:
        A float tensor: x's shape without the reduced axes (kept as length 1
        with keepdims); floatx for an integer or bool x.

    Example:
        >>> from pycg import ops
        >>> float(ops.mean([1.0, 2.0, 6.0]))
        3.0
    """
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
    """Population variance over `axis`: the mean of |x - mean|^2, real for
    complex x (NumPy's and TensorFlow's).

    Returns:
        A real float tensor: x's reduced shape (float32 for complex64).

    Differs:
        The variance of a complex x is real, as NumPy (Keras keeps the complex
        dtype).
    """
    x = as_tensor(x, "var")
    d = x - mean(x, axis, keepdims=True)
    return mean(abs_squared(d), axis, keepdims)


def abs_squared(d):
    """|d|^2, real for complex d, with a gradient everywhere."""
    if d.dtype.kind != "c":
        return d * d
    re, im = real(d), imag(d)
    return re * re + im * im


def std(x, axis=None, keepdims=False):
    """Population standard deviation over `axis`.

    Returns:
        A float tensor: x's shape without the reduced axes (kept as length 1
        with keepdims); floatx for an integer or bool x.
    """
    from pycg.ops.elementwise import sqrt
    return sqrt(var(x, axis, keepdims))


def cumsum(x, axis=None, dtype=None):
    """Cumulative sum along `axis` (None: over the flattened tensor),
    computed in `dtype` when given.

    Returns:
        A tensor of x's shape (1-d when axis is None), in `dtype` when given.

    Example:
        >>> from pycg import ops
        >>> ops.cumsum([1, 2, 3]).numpy().tolist()
        [1, 3, 6]
    """
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
    """Index of the maximum (int32, 0-based); not differentiable.

    Returns:
        An int32 tensor of 0-based indices: x's shape without `axis` (kept as
        length 1 with keepdims); not differentiable.

    Differs:
        A NaN is what argmax finds (the first one), as NumPy and JAX
        (TensorFlow picks by position).
    """
    return _arg_extremum("argmax", x, axis, keepdims)


def argmin(x, axis=None, keepdims=False):
    """Index of the minimum (int32, 0-based); not differentiable.

    Returns:
        An int32 tensor of 0-based indices: x's shape without `axis` (kept as
        length 1 with keepdims); not differentiable.

    Differs:
        A NaN is what argmin finds (the first one), as NumPy and JAX
        (TensorFlow picks by position).
    """
    return _arg_extremum("argmin", x, axis, keepdims)


def _arg_extremum(name, x, axis, keepdims):
    x = as_tensor(x, name)
    axes = norm_axis(axis, x.ndim, name)
    if axes is not None and len(axes) != 1:
        raise user_error(ValueError, "{op}: axis must be one axis or None, "
                         "got {axis}", op=Op(name), axis=Axis(axis))
    _empty_over(name, x, axes, True)
    return apply_nograd(getattr(backends.active, name), (x,), {
        "axis": axes if axes is None else axes[0], "keepdims": keepdims})
