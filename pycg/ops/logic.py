"""Predicates, bitwise and integer ops, and tensor facts (keras.ops names).
None of these carries a gradient (see NON_DIFFERENTIABLE in rules/numeric.py)."""
import numpy as np

from pycg import backends
from pycg.ops._machinery.dispatch import (apply_nograd, as_tensor, made_by,
                                          norm_axis, promote)
from pycg.ops.creation import cast
from pycg.ops.elementwise import (_float_test, abs, equal, isfinite, isnan,
                                  less_equal, logical_and, logical_or,
                                  nonzero, truth, where)  # noqa
from pycg.ops.reduction import max, min, sum
from pycg.tensor import Tensor, is_float

__all__ = ("all", "allclose", "any", "bitwise_and", "bitwise_invert",
           "bitwise_left_shift", "bitwise_not", "bitwise_or",
           "bitwise_right_shift", "bitwise_xor", "count_nonzero", "dtype",
           "gcd", "is_tensor", "isclose", "isin", "isinf", "isneginf",
           "isposinf", "isreal", "lcm", "left_shift", "logical_xor", "ndim",
           "nextafter", "nonzero", "right_shift", "signbit", "size", "view")


def _kernel(op, kernel, *xs, **params):
    xs = [as_tensor(x, op) for x in xs]
    return apply_nograd(getattr(backends.active, kernel), xs, params or None)


def _pair(op, kernel, x1, x2):
    x1, x2 = promote(x1, x2, op)
    return apply_nograd(getattr(backends.active, kernel), (x1, x2))


def _integers(op, x):
    x = as_tensor(x, op)
    if x.dtype.kind not in "iub":
        raise TypeError(f"pycg.ops.{op}: expected an integer or bool tensor, "
                        f"got dtype {x.dtype}")
    return x


def any(x, axis=None, keepdims=False):
    """True where any element along `axis` is nonzero.

    Returns:
        A bool tensor: x's shape without the reduced axes (kept as length 1
        with keepdims); not differentiable.
    """
    t = truth(x, "any")
    axes = norm_axis(axis, t.ndim, "any")
    return equal(max(cast(t, "int32"), axes, keepdims), 1) if t.size else \
        _empty_reduce(t, axes, keepdims, False)


def all(x, axis=None, keepdims=False):
    """True where every element along `axis` is nonzero.

    Returns:
        A bool tensor: x's shape without the reduced axes (kept as length 1
        with keepdims); not differentiable.

    Example:
        >>> from pycg import ops
        >>> ops.all([[True, False], [True, True]], axis=1).numpy().tolist()
        [False, True]
    """
    t = truth(x, "all")
    axes = norm_axis(axis, t.ndim, "all")
    return equal(min(cast(t, "int32"), axes, keepdims), 1) if t.size else \
        _empty_reduce(t, axes, keepdims, True)


def _empty_reduce(t, axes, keepdims, value):
    shape = np.full(t.shape, value).all(axis=axes, keepdims=keepdims).shape
    return Tensor(backends.active.full(shape, value, np.dtype(bool)))


def count_nonzero(x, axis=None):
    """Number of nonzero elements along `axis` (int32).

    Returns:
        An int32 tensor: x's shape without the counted axes.
    """
    t = truth(x, "count_nonzero")
    return sum(cast(t, "int32"), norm_axis(axis, t.ndim, "count_nonzero"))


def isinf(x):
    """Elementwise: True where x is +inf or -inf.

    Returns:
        A bool tensor of x's shape; not differentiable.
    """
    return _float_test("isinf", x)


def isneginf(x):
    """Elementwise: True where x is -inf.

    Returns:
        A bool tensor of x's shape; not differentiable.

    Differs:
        A complex x is refused by name.
    """
    return _float_test("isneginf", x, real=True)


def isposinf(x):
    """Elementwise: True where x is +inf.

    Returns:
        A bool tensor of x's shape; not differentiable.

    Differs:
        A complex x is refused by name.
    """
    return _float_test("isposinf", x, real=True)


def signbit(x):
    """Elementwise: True where x's sign bit is set (negative numbers, -0.0 and
    -NaN).

    Returns:
        A bool tensor of x's shape; not differentiable.

    Differs:
        A complex x is refused by name.
    """
    return _kernel("signbit", "signbit", x)


def isreal(x):
    """True where x has no imaginary part (every element of a real x).

    Returns:
        A bool tensor of x's shape; not differentiable.
    """
    x = as_tensor(x, "isreal")
    if x.dtype.kind == "c":
        from pycg.ops.elementwise import imag
        return equal(imag(x), 0)
    return Tensor(backends.active.full(x.shape, True, np.dtype(bool)))


def isclose(x1, x2, rtol=1e-5, atol=1e-8, equal_nan=False):
    """|x1 - x2| <= atol + rtol * |x2|, infinities close only to themselves.

    Returns:
        A bool tensor of the broadcast shape; not differentiable.

    Differs:
        isclose(-inf, inf) is False, as IEEE 754 and NumPy (Keras' formula
        answers True).

    Example:
        >>> from pycg import ops
        >>> ops.isclose(ops.convert_to_tensor([1.0, 2.0]),
        ...             ops.convert_to_tensor([1.0 + 1e-9, 2.1])).numpy().tolist()
        [True, False]
    """
    x1, x2 = promote(x1, x2, "isclose")
    if not is_float(x1.dtype):
        return equal(x1, x2)
    finite = logical_and(isfinite(x1), isfinite(x2))
    a, b = where(finite, x1, 0), where(finite, x2, 0)
    close = less_equal(abs(a - b), atol + rtol * abs(b))
    out = logical_or(logical_and(finite, close), equal(x1, x2))
    if equal_nan:
        out = logical_or(out, logical_and(isnan(x1), isnan(x2)))
    return out


def allclose(x1, x2, rtol=1e-5, atol=1e-8, equal_nan=False):
    """True if isclose holds everywhere.

    Returns:
        A 0-d bool tensor; not differentiable.

    Differs:
        Infinities are close only to themselves (isclose(-inf, inf) is False,
        as NumPy).
    """
    return all(isclose(x1, x2, rtol, atol, equal_nan))


def isin(x1, x2, assume_unique=False, invert=False):
    """True where an element of x1 occurs in x2.

    Args:
        x2: The values to look for (any shape; flattened).
        assume_unique: Accepted for NumPy's signature; the answer is the same
            either way.
        invert: Answer True where x1's element is NOT in x2.

    Returns:
        A bool tensor of x1's shape; not differentiable.
    """
    x1, x2 = promote(x1, x2, "isin")
    out = apply_nograd(backends.active.isin, (x1, x2))
    return _kernel("isin", "logical_not", out) if invert else out


def logical_xor(x1, x2):
    """Elementwise x1 xor x2, each number taken as its truth (nonzero is True).

    Returns:
        A bool tensor of the broadcast shape of x1 and x2; not differentiable.
    """
    return _pair("logical_xor", "logical_xor", truth(x1, "logical_xor"),
                 truth(x2, "logical_xor"))


def _bitwise(name):
    def op(x, y):
        return _pair(name, name, _integers(name, x), _integers(name, y))
    op.__name__ = op.__qualname__ = name
    return op


@made_by(_bitwise)
def bitwise_and(x, y):
    """Elementwise bitwise_and of integer or bool tensors.

    Returns:
        An integer (or bool) tensor of the broadcast shape of x and y in their
        promoted dtype; not differentiable.
    """


@made_by(_bitwise)
def bitwise_or(x, y):
    """Elementwise bitwise_or of integer or bool tensors.

    Returns:
        An integer (or bool) tensor of the broadcast shape of x and y in their
        promoted dtype; not differentiable.
    """


@made_by(_bitwise)
def bitwise_xor(x, y):
    """Elementwise bitwise_xor of integer or bool tensors.

    Returns:
        An integer (or bool) tensor of the broadcast shape of x and y in their
        promoted dtype; not differentiable.
    """


@made_by(_bitwise)
def left_shift(x, y):
    """Elementwise left_shift of integer or bool tensors.

    Args:
        y: The shift, in bits (non-negative).

    Returns:
        An integer (or bool) tensor of the broadcast shape of x and y in their
        promoted dtype; not differentiable.
    """


bitwise_left_shift = left_shift


@made_by(_bitwise)
def right_shift(x, y):
    """Elementwise right_shift of integer or bool tensors.

    Args:
        y: The shift, in bits (non-negative).

    Returns:
        An integer (or bool) tensor of the broadcast shape of x and y in their
        promoted dtype; not differentiable.
    """


bitwise_right_shift = right_shift


def gcd(x1, x2):
    """Elementwise greatest common divisor of integer tensors.

    Returns:
        An integer tensor of the broadcast shape; not differentiable.
    """
    return _pair("gcd", "gcd", _integers("gcd", x1), _integers("gcd", x2))


def lcm(x1, x2):
    """Elementwise least common multiple of integer tensors.

    Returns:
        An integer tensor of the broadcast shape; not differentiable.
    """
    return _pair("lcm", "lcm", _integers("lcm", x1), _integers("lcm", x2))


def bitwise_invert(x):
    """Elementwise bitwise NOT of an integer or bool tensor (~x); bitwise_not is
    the same op.

    Returns:
        An integer (or bool) tensor of x's shape and dtype; not differentiable.
    """
    return _kernel("bitwise_invert", "bitwise_invert",
                   _integers("bitwise_invert", x))


bitwise_not = bitwise_invert


def nextafter(x1, x2):
    """The next float after x1 towards x2.

    Returns:
        A float tensor of the broadcast shape.

    Differs:
        nextafter(inf, 1) is the largest float (IEEE 754, NumPy); a complex
        input is refused by name.
    """
    return _pair("nextafter", "nextafter", x1, x2)


def is_tensor(x):
    """True for a pycg Tensor (or Variable).

    Returns:
        A Python bool.

    Differs:
        A NumPy array or a TensorFlow tensor is not a pycg tensor: False.
    """
    return isinstance(x, Tensor)


def dtype(x):
    """The dtype name of x ('float32', ...).

    Returns:
        A str: the dtype's name.

    Example:
        >>> from pycg import ops
        >>> ops.dtype(ops.ones((2,)))
        'float32'
    """
    return str(as_tensor(x, "dtype").dtype)


def ndim(x):
    """The number of axes of x (0 for a scalar).

    Returns:
        A Python int.

    Example:
        >>> from pycg import ops
        >>> ops.ndim(ops.ones((2, 3)))
        2
    """
    return as_tensor(x, "ndim").ndim


def size(x):
    """The number of elements, an int32 tensor (keras.ops).

    Returns:
        A 0-d int32 tensor.

    Differs:
        A tensor, as keras.ops (NumPy's size is an int).
    """
    n = as_tensor(x, "size").size
    return Tensor(backends.active.scalar(n, np.dtype("int32")))


def view(x, dtype=None):
    """The bits of x read as `dtype` (the last axis rescales when the item
    sizes differ, as ndarray.view); not differentiable.

    Args:
        dtype: The dtype to read the bytes as (None: x's own).

    Returns:
        A tensor of `dtype` holding x's bytes.

    Differs:
        A bool x is read as its bytes, as NumPy's x.view() (TensorFlow's
        bitcast has no bool).
    """
    x = as_tensor(x, "view")
    if dtype is None:
        return Tensor(x._value)
    dt = np.dtype(dtype)
    last = x.shape[-1] if x.ndim else 1
    if x.dtype.itemsize != dt.itemsize and (
            x.ndim == 0 or last * x.dtype.itemsize % dt.itemsize):
        raise ValueError(f"pycg.ops.view: a last axis of {last} "
                         f"{x.dtype} items cannot be viewed as {dt}")
    return apply_nograd(backends.active.view, (x,), {"dtype": dt})
