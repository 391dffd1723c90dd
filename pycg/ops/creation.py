"""Tensor creation, dtype casts and conversion (keras.ops names)."""
import math
from typing import Any

import numpy as np

from pycg import backends, config
from pycg._errors import Axis, Dtype, Op, Value, user_error
from pycg.ops._machinery import dynamic as _dynamic
from pycg.ops._machinery.allocation import allocated, guard
from pycg.ops._machinery.arguments import as_int, norm_dtype, norm_shape
from pycg.ops._machinery.dispatch import as_tensor, cast
from pycg.tensor import Tensor, as_dtype
from pycg.tensor import convert_to_tensor as _convert

__all__ = ("arange", "convert_to_numpy", "convert_to_tensor", "eye", "full",
           "full_like", "linspace", "ones", "ones_like", "shape",
           "stop_gradient", "zeros", "zeros_like")


def _dtype(dtype, op, default=None):
    return norm_dtype(dtype, op, default or config.floatx())


def _shape(shape, op):
    if not _dynamic.is_static(shape):
        return list(shape)  # dynamic sizes of dimensions unknown statically
    return norm_shape(shape, op)


def zeros(shape, dtype=None):
    """A tensor of zeros.

    Returns:
        A tensor of `shape` in `dtype` (None: floatx, pycg.config.floatx()).

    Example:
        >>> from pycg import ops
        >>> ops.zeros((2,)).numpy().tolist()
        [0.0, 0.0]
    """
    return _zeros_as("zeros", shape, dtype)


def _zeros_as(op, shape, dtype):
    """zeros, its errors naming `op` (empty is one)."""
    shape, dtype = _shape(shape, op), _dtype(dtype, op)
    return allocated(op, shape, dtype, backends.active.zeros, shape, dtype)


def ones(shape, dtype=None):
    """A tensor of ones.

    Returns:
        A tensor of `shape` in `dtype` (None: floatx, pycg.config.floatx()).
    """
    shape, dtype = _shape(shape, "ones"), _dtype(dtype, "ones")
    return allocated("ones", shape, dtype, backends.active.ones, shape,
                     dtype)


def full(shape, fill_value, dtype=None):
    """A tensor whose every element is fill_value.

    Returns:
        A tensor of `shape` in `dtype` (None: fill_value's dtype).
    """
    shape, dtype = _shape(shape, "full"), _dtype(dtype, "full")
    if fill_value is None:   # (NumPy fills floats with NaN, Keras refuses)
        raise user_error(TypeError, "{op}: fill_value is None; expected a "
                         "number or a tensor", op=Op("full"))
    if isinstance(fill_value, Tensor):
        fill_value = fill_value._value
    return allocated("full", shape, dtype, backends.active.full, shape,
                     fill_value, dtype)


def zeros_like(x, dtype=None):
    """Zeros in x's shape.

    Args:
        dtype: The result's dtype. None: x's dtype.

    Returns:
        A tensor of x's shape in `dtype` (None: x's dtype).
    """
    x = as_tensor(x, "zeros_like")
    return zeros(_dynamic.shape_of(x), dtype or x.dtype)


def ones_like(x, dtype=None):
    """Ones in x's shape.

    Args:
        dtype: The result's dtype. None: x's dtype.

    Returns:
        A tensor of x's shape in `dtype` (None: x's dtype).
    """
    if dtype is None and type(x) is Tensor and \
            type(x._value) in backends.active.float_types:
        return Tensor(type(x._value)(1))   # (a float scalar: its type's 1)
    x = as_tensor(x, "ones_like")
    return ones(_dynamic.shape_of(x), dtype or x.dtype)


def full_like(x, fill_value, dtype=None):
    """fill_value in x's shape.

    Args:
        dtype: The result's dtype. None: x's dtype.

    Returns:
        A tensor of x's shape in `dtype` (None: x's dtype).
    """
    x = as_tensor(x, "full_like")
    return full(_dynamic.shape_of(x), fill_value, dtype or x.dtype)


def eye(N, M=None, k=0, dtype=None):
    """A matrix with ones on the k-th diagonal, zeros elsewhere.

    Returns:
        A 2-d tensor (N, M) in `dtype` (None: floatx).
    """
    return _eye_as("eye", N, M, k, dtype)


def _eye_as(op, N, M, k, dtype):
    """eye, its errors naming `op` (identity is one)."""
    N, k = as_int(N, op, "N"), as_int(k, op, "k")
    M = None if M is None else as_int(M, op, "M")
    dtype = _dtype(dtype, op)
    return allocated(op, (N, N if M is None else M), dtype,
                     backends.active.eye, N, M, k, dtype)


def arange(start, stop=None, step=1, dtype=None):
    """Evenly spaced values in [start, stop) by step (with one argument: [0,
    start)).

    Args:
        start: The first value (or, alone, the stop with start 0).
        stop: The end, excluded (None: see start).
        step: The spacing.

    Returns:
        A 1-d tensor, int32 for int arguments, else floatx (or `dtype`).

    Example:
        >>> from pycg import ops
        >>> ops.arange(3).numpy().tolist()
        [0, 1, 2]
    """
    if stop is None:
        start, stop = 0, start
    start, stop, step = (_bound(v, "arange") for v in (start, stop, step))
    if dtype is None:
        ints = all(isinstance(v, (int, np.integer))
                   for v in (start, stop, step))
        dtype = "int32" if ints else config.floatx()
    dtype = norm_dtype(dtype, "arange")
    try:
        n = max(math.ceil((stop - start) / step), 0)
    except (ZeroDivisionError, ValueError, OverflowError, TypeError):
        n = None   # (a zero step, NaN, inf: the kernel's error says so)
    if n is not None:
        guard("arange", (n,), dtype, "stop")
        if n and dtype.kind in "iu":
            _fits("arange", dtype, start, start + (n - 1) * step)
    return allocated("arange", (n or 0,), dtype, backends.active.arange,
                     start, stop, step, dtype)


def _fits(op, dtype, *values):
    """An OverflowError naming `op` unless every value fits in the integer
    `dtype` (NumPy's error for arange(3e9): TensorFlow and JAX wrap)."""
    low, high = _BOUNDS.get(dtype) or _BOUNDS.setdefault(
        dtype, (int(np.iinfo(dtype).min), int(np.iinfo(dtype).max)))
    for v in values:
        if not low <= v <= high:
            raise user_error(OverflowError, "{op}: {value} does not fit in "
                             "{dtype} (from {low} to {high}); pass a wider "
                             "dtype, such as int64", op=Op(op),
                             value=Value(v), dtype=Dtype(dtype.name),
                             low=str(low), high=str(high))   # (R: doubles)


_BOUNDS: dict = {}   # integer dtype -> (min, max) (np.iinfo costs ~1 us)


def _bound(v, op):
    """A start, stop or step: bools are the numbers 0 and 1 (Python's
    range), None is none (NumPy would read arange(None) as arange(0))."""
    if v is None:
        raise user_error(TypeError, "{op}: start, stop and step must be "
                         "numbers, got None", op=Op(op))
    return int(v) if isinstance(v, (bool, np.bool_)) else v


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None,
             axis=0):
    """`num` evenly spaced values; array `start`/`stop` give one sequence
    per element, laid along `axis` (np.linspace).

    Args:
        retstep: Also return the spacing.

    Returns:
        A tensor of `num` values along `axis` (more axes for array endpoints),
        in `dtype` (None: floatx). With retstep, a pair (values, step).
    """
    return _linspace_as("linspace", start, stop, num, endpoint, retstep,
                       dtype, axis)


def _linspace_as(op, start, stop, num, endpoint, retstep, dtype, axis):
    """linspace, its errors naming `op` (logspace is one)."""
    num = as_int(num, op, "num")
    if num < 0:
        raise user_error(ValueError, "{op}: num must be 0 or more, got "
                         "{value}", op=Op(op), value=Value(num))
    if np.ndim(start) == 0 and np.ndim(stop) == 0:
        if axis not in (0, -1):
            raise user_error(ValueError, "{op}: axis {axis} is out of range "
                             "for the 1-d result of scalar start and stop",
                             op=Op(op), axis=Axis(axis))
        dtype = _dtype(dtype, op)
        out = allocated(op, (num,), dtype, backends.active.linspace,
                        float(start), float(stop), num, bool(endpoint), dtype)
    else:
        a, b = np.asarray(start), np.asarray(stop)
        if dtype is None:
            dtype = np.result_type(a.dtype, b.dtype, config.floatx())
        shape = list(np.broadcast_shapes(a.shape, b.shape))
        shape.insert(int(axis) % (len(shape) + 1), num)
        guard(op, shape, dtype, "num")
        out = _convert(np.linspace(a, b, num, bool(endpoint),
                                   axis=int(axis)).astype(dtype))
    if retstep:
        div = (num - 1) if endpoint else num
        step = (np.asarray(stop) - np.asarray(start)) / div if div else \
            float("nan")
        return out, step
    return out


def convert_to_tensor(x, dtype=None, sparse=None, ragged=None):
    """A pycg Tensor (Python floats become floatx, arrays keep dtype);
    a tensor given a new dtype is cast, so its gradient flows. pycg tensors
    are dense: sparse=True and ragged=True are refused.

    Args:
        sparse: Must be None or False: pycg tensors are dense.
        ragged: Must be None or False: pycg tensors are dense.

    Returns:
        A Tensor (x itself when it is one, of that dtype).

    Example:
        >>> from pycg import ops
        >>> ops.convert_to_tensor([1, 2]).dtype.name
        'int32'
    """
    for flag, what in ((sparse, "sparse"), (ragged, "ragged")):
        if flag:
            raise ValueError(
                f"pycg.ops.convert_to_tensor: {what}=True asks for a {what} "
                f"tensor, and pycg has dense tensors only; pass "
                f"{what}=False or leave it None")
    if dtype is not None:
        dtype = as_dtype(dtype, "pycg.ops.convert_to_tensor")
    if isinstance(x, Tensor) and dtype is not None:
        return cast(_convert(x), dtype)
    return _convert(x, dtype)


def convert_to_numpy(x):
    """The value of x as a NumPy array.

    Returns:
        A NumPy array (a copy; a 0-d array for a scalar).
    """
    return np.asarray(as_tensor(x, "convert_to_numpy").numpy())


def shape(x):
    """The static shape of x as a tuple of ints.

    Returns:
        A tuple of ints.

    Example:
        >>> from pycg import ops
        >>> ops.shape(ops.zeros((2, 3)))
        (2, 3)
    """
    return as_tensor(x, "shape").shape


def stop_gradient(variable: Any) -> Tensor:   # (a tensor or array-like)
    """The same value, with no gradient flowing through it.

    Args:
        variable: The value whose gradient is cut (any tensor, not only a
            Variable: keras.ops' name).

    Returns:
        A tensor equal to `variable`, a constant to every tape.
    """
    x = as_tensor(variable, "stop_gradient")
    return Tensor(backends.active.stop_gradient(x._value))


def _one_hot_flat(i, n, dtype):
    v = np.zeros(n, dtype=dtype)
    v[i] = 1
    return Tensor(backends.active.convert(v))
