"""The arguments every op shares, normalised in one place: an integer, an
axis or axes, a shape, a dtype, a flag. Each refuses what it cannot take
with an error naming the op and the argument (a string axis, bytes as a
shape, an axis of 2**70, a float count) instead of guessing.
"""
import operator

import numpy as np

from pycg import backends
from pycg._errors import Arg, Axis, Op, Shape, TypeOf, Value, user_error
from pycg.ops._machinery import int_casts
from pycg.tensor import as_dtype


def _refused(op, arg, value, expected):
    return user_error(TypeError, "{op}: {arg} must be {expected}, got "
                      "{type} {value}", op=Op(op), arg=Arg(arg),
                      expected=expected, type=TypeOf(value),
                      value=Value(_short(value)))


def _short(value):
    text = repr(value)
    return value if len(text) <= 60 else text[:57] + "..."


def as_int(value, op, arg, expected="an int"):
    """An integer argument as a Python int: an int, a NumPy integer or an
    integer tensor of one value; never a bool, a float or a string."""
    if isinstance(value, (bool, np.bool_)):
        raise _refused(op, arg, value, expected)
    try:
        return operator.index(value)
    except TypeError:
        raise _refused(op, arg, value, expected) from None


def norm_axis(axis, ndim, op, arg="axis", unique=False):
    """Axis (int, sequence of ints or None) as a tuple of non-negative ints
    or None; an axis named twice is an error if `unique`."""
    if axis is None:
        return None
    expected = "an int, a tuple of ints or None"
    if isinstance(axis, (list, tuple, range)) or \
            getattr(axis, "ndim", None) == 1:   # (or an array, a tensor)
        axes = tuple(axis)
    elif hasattr(axis, "__index__") or isinstance(axis, (str, bytes)):
        axes = (axis,)
    else:
        raise _refused(op, arg, axis, expected)
    out = []
    for a in axes:
        a = as_int(a, op, arg, expected)
        if not -ndim <= a < max(ndim, 1):
            raise user_error(ValueError, "{op}: axis {axis} is out of range "
                             "for a tensor of rank {rank}", op=Op(op),
                             axis=Axis(a), rank=ndim)
        if unique and (a % ndim if ndim else 0) in out:
            raise user_error(ValueError, "{op}: axis {axis} appears twice "
                             "in `axis`", op=Op(op), axis=Axis(a))
        out.append(a % ndim if ndim else 0)
    return tuple(out)


def norm_shape(shape, op, arg="shape", free=False):
    """A static shape as a tuple of non-negative ints (an int is a 1-d
    shape); `free`: negative sizes pass (reshape's -1, checked there)."""
    expected = "an int or a tuple of " + ("ints" if free else
                                          "non-negative ints")
    if isinstance(shape, (list, tuple)) or getattr(shape, "ndim", None) == 1:
        shape = tuple(shape)
    elif hasattr(shape, "__index__"):
        shape = (shape,)
    else:
        raise _refused(op, arg, shape, expected)
    dims = tuple(as_int(d, op, arg, expected) for d in shape)
    if not free and any(d < 0 for d in dims):
        raise user_error(ValueError, "{op}: {arg} must have non-negative "
                         "sizes, got {value}", op=Op(op), arg=Arg(arg),
                         value=Shape(dims))
    return dims


def as_sequence(xs, op, arg="xs"):
    """A list of the items of a sequence of tensors (a list, a tuple, or a
    tensor along its first axis); never a string, bytes or a dict."""
    if isinstance(xs, (str, bytes, dict)) or not hasattr(xs, "__iter__"):
        raise _refused(op, arg, xs, "a list or tuple of tensors")
    return list(xs)


def norm_dtype(dtype, op, default=None):
    """np.dtype of `dtype` (None: `default`), or an error naming the op."""
    if dtype is None:
        return None if default is None else np.dtype(default)
    return as_dtype(dtype, f"pycg.ops.{op}")


def host_astype(x, dtype):
    """A NumPy array of numbers cast by NumPy on the host, before it
    becomes a tensor (so the jax backend without JAX's 64-bit mode casts
    float64 data to float32 instead of refusing the float64 first)."""
    if type(x) is np.ndarray and x.dtype.kind in "iuf" and \
            dtype.kind in "iuf":
        if int_casts.applies(x.dtype, dtype):   # (one answer everywhere)
            return np.asarray(int_casts.float_to_int(backends.numpy, x,
                                                     dtype))
        return x.astype(dtype)
    return x
