"""Elementwise ops (keras.ops names). Integer and bool inputs are taken
as keras.ops takes them, on either backend (where a TensorFlow kernel has no
integer or bool version, through one that has)."""
import numpy as np

from pycg import backends
from pycg.ops._machinery.floats import real_only
from pycg.ops._machinery.dispatch import (apply, apply_nograd, as_tensor,
                                          binary, cast, check_broadcast,
                                          elementwise, made_by, promote,
                                          unary)
from pycg.tensor import Tensor

__all__ = ("abs", "add", "arccos", "arcsin", "arctan", "arctan2", "cast",
           "ceil", "clip", "conj", "cos", "cosh", "divide", "equal", "erf",
           "exp", "expm1", "floor", "floor_divide", "greater", "greater_equal",
           "imag", "isfinite", "isnan", "less", "less_equal", "log", "log10",
           "log1p", "log2", "logaddexp", "logical_and", "logical_not",
           "logical_or", "maximum", "minimum", "mod", "multiply", "negative",
           "not_equal", "power", "real", "reciprocal", "round", "rsqrt",
           "sign", "sin", "sinh", "sqrt", "square", "subtract", "tan", "tanh",
           "true_divide", "where")


# how abs, square and sign take integer and bool tensors (unary's
# `integers`): Keras' results, where TensorFlow has no kernel
def _abs_integers(x):
    return x if x.dtype.kind in "ub" else None


def _square_integers(x):
    return square(cast(x, "int32")) if x.dtype.kind == "b" else None


def _sign_integers(x):   # (0 or 1 for unsigned)
    return cast(not_equal(x, 0), x.dtype) if x.dtype.kind == "u" else None


@made_by(unary, integers=_abs_integers)
def abs(x):
    """Elementwise |x| (an unsigned or bool x as it is, as in Keras).

    Returns:
        A tensor of x's shape and dtype.

    Differs:
        Complex x gives its real modulus (NumPy's).

    Example:
        >>> from pycg import ops
        >>> ops.abs([-1.5, 2.0]).numpy().tolist()
        [1.5, 2.0]
    """


@made_by(unary)
def negative(x):
    """Elementwise -x.

    Returns:
        A tensor of x's shape and dtype.
    """


@made_by(unary, float_only=True)
def sqrt(x):
    """Elementwise square root (NaN below 0 for a real x).

    Returns:
        A tensor of x's shape: x's dtype for a float or complex x, floatx
        (pycg.config.floatx()) for an integer or bool x.

    Example:
        >>> from pycg import ops
        >>> ops.sqrt([4.0, 9.0]).numpy().tolist()
        [2.0, 3.0]
    """


@made_by(unary, float_only=True)
def rsqrt(x):
    """Elementwise 1 / sqrt(x).

    Returns:
        A tensor of x's shape: x's dtype for a float or complex x, floatx
        (pycg.config.floatx()) for an integer or bool x.
    """


@made_by(unary, integers=_square_integers)
def square(x):
    """Elementwise x * x (int32 for bools, as in Keras).

    Returns:
        A tensor of x's shape and dtype (int32 for a bool x).
    """


@made_by(unary, float_only=True)
def reciprocal(x):
    """Elementwise 1 / x.

    Returns:
        A tensor of x's shape: x's dtype for a float or complex x, floatx
        (pycg.config.floatx()) for an integer or bool x.
    """


@made_by(unary, float_only=True)
def exp(x):
    """Elementwise e ** x.

    Returns:
        A tensor of x's shape: x's dtype for a float or complex x, floatx
        (pycg.config.floatx()) for an integer or bool x.

    Example:
        >>> from pycg import ops
        >>> float(ops.exp(0.0))
        1.0
    """


@made_by(unary, float_only=True)
def expm1(x):
    """Elementwise exp(x) - 1, accurate for x near 0.

    Returns:
        A tensor of x's shape: x's dtype for a float or complex x, floatx
        (pycg.config.floatx()) for an integer or bool x.
    """


@made_by(unary, float_only=True)
def log(x):
    """Elementwise natural logarithm (-inf at 0, NaN below 0 for a real x).

    Returns:
        A tensor of x's shape: x's dtype for a float or complex x, floatx
        (pycg.config.floatx()) for an integer or bool x.

    Example:
        >>> from pycg import ops
        >>> float(ops.log(1.0))
        0.0
    """


@made_by(unary, float_only=True)
def log1p(x):
    """Elementwise log(1 + x), accurate for x near 0.

    Returns:
        A tensor of x's shape: x's dtype for a float or complex x, floatx
        (pycg.config.floatx()) for an integer or bool x.
    """


@made_by(unary, float_only=True)
def log2(x):
    """Elementwise base-2 logarithm.

    Returns:
        A tensor of x's shape: x's dtype for a float or complex x, floatx
        (pycg.config.floatx()) for an integer or bool x.
    """


@made_by(unary, float_only=True)
def log10(x):
    """Elementwise base-10 logarithm.

    Returns:
        A tensor of x's shape: x's dtype for a float or complex x, floatx
        (pycg.config.floatx()) for an integer or bool x.
    """


@made_by(unary, float_only=True)
def sin(x):
    """Elementwise sine (x in radians).

    Returns:
        A tensor of x's shape: x's dtype for a float or complex x, floatx
        (pycg.config.floatx()) for an integer or bool x.
    """


@made_by(unary, float_only=True)
def cos(x):
    """Elementwise cosine (x in radians).

    Returns:
        A tensor of x's shape: x's dtype for a float or complex x, floatx
        (pycg.config.floatx()) for an integer or bool x.
    """


@made_by(unary, float_only=True)
def tan(x):
    """Elementwise tangent (x in radians).

    Returns:
        A tensor of x's shape: x's dtype for a float or complex x, floatx
        (pycg.config.floatx()) for an integer or bool x.
    """


@made_by(unary, float_only=True)
def arcsin(x):
    """Elementwise inverse sine, in [-pi/2, pi/2].

    Returns:
        A tensor of x's shape: x's dtype for a float or complex x, floatx
        (pycg.config.floatx()) for an integer or bool x.
    """


@made_by(unary, float_only=True)
def arccos(x):
    """Elementwise inverse cosine, in [0, pi].

    Returns:
        A tensor of x's shape: x's dtype for a float or complex x, floatx
        (pycg.config.floatx()) for an integer or bool x.
    """


@made_by(unary, float_only=True)
def arctan(x):
    """Elementwise inverse tangent, in (-pi/2, pi/2).

    Returns:
        A tensor of x's shape: x's dtype for a float or complex x, floatx
        (pycg.config.floatx()) for an integer or bool x.
    """


@made_by(unary, float_only=True)
def sinh(x):
    """Elementwise hyperbolic sine.

    Returns:
        A tensor of x's shape: x's dtype for a float or complex x, floatx
        (pycg.config.floatx()) for an integer or bool x.
    """


@made_by(unary, float_only=True)
def cosh(x):
    """Elementwise hyperbolic cosine.

    Returns:
        A tensor of x's shape: x's dtype for a float or complex x, floatx
        (pycg.config.floatx()) for an integer or bool x.
    """


@made_by(unary, float_only=True)
def tanh(x):
    """Elementwise hyperbolic tangent.

    Returns:
        A tensor of x's shape: x's dtype for a float or complex x, floatx
        (pycg.config.floatx()) for an integer or bool x.
    """


@made_by(unary, float_only=True)
def erf(x):
    """Elementwise Gauss error function.

    Returns:
        A tensor of x's shape: x's dtype for a float or complex x, floatx
        (pycg.config.floatx()) for an integer or bool x.
    """


@made_by(unary, integers=_sign_integers)
def sign(x):
    """Elementwise sign; its gradient is zero.

    Returns:
        A tensor of x's shape and dtype.

    Differs:
        For an unsigned integer x: 0 or 1.
    """


@made_by(unary, float_only=True)
def floor(x):
    """Elementwise floor (floatx for integers); its gradient is zero.

    Returns:
        A tensor of x's shape: x's dtype for a float or complex x, floatx
        (pycg.config.floatx()) for an integer or bool x.
    """


@made_by(unary, float_only=True)
def ceil(x):
    """Elementwise ceil (floatx for integers); its gradient is zero.

    Returns:
        A tensor of x's shape: x's dtype for a float or complex x, floatx
        (pycg.config.floatx()) for an integer or bool x.
    """


@made_by(unary)
def real(x):
    """The real part of x (x itself when x is real).

    Returns:
        A real tensor of x's shape (float32 for complex64, float64 for
        complex128).
    """


@made_by(unary)
def imag(x):
    """The imaginary part of x (zero when x is real).

    Returns:
        A real tensor of x's shape (float32 for complex64, float64 for
        complex128).
    """


@made_by(unary)
def conj(x):
    """The complex conjugate of x (x when x is real).

    Returns:
        A tensor of x's shape and dtype.
    """


@made_by(binary)
def add(x1, x2):
    """Elementwise x1 + x2 (NumPy broadcasting).

    Returns:
        A tensor of the broadcast shape of x1 and x2, in their promoted dtype
        (NumPy's promotion; a Python number takes the tensor's dtype).

    Example:
        >>> from pycg import ops
        >>> ops.add([1, 2], 3).numpy().tolist()
        [4, 5]
    """


@made_by(binary)
def subtract(x1, x2):
    """Elementwise x1 - x2 (NumPy broadcasting).

    Returns:
        A tensor of the broadcast shape of x1 and x2, in their promoted dtype
        (NumPy's promotion; a Python number takes the tensor's dtype).
    """


@made_by(binary)
def multiply(x1, x2):
    """Elementwise x1 * x2 (NumPy broadcasting).

    Returns:
        A tensor of the broadcast shape of x1 and x2, in their promoted dtype
        (NumPy's promotion; a Python number takes the tensor's dtype).
    """


@made_by(binary, floating=True)
def divide(x1, x2):
    """Elementwise true division x1 / x2 (NumPy broadcasting); true_divide is the
    same op.

    Returns:
        A tensor of the broadcast shape of x1 and x2, in their promoted float
        dtype (floatx when both are integer or bool, as Keras).

    Differs:
        Two integer or bool operands give floatx, as Keras (NumPy and
        TensorFlow give float64).

    Example:
        >>> from pycg import ops
        >>> y = ops.divide(1, 4)
        >>> float(y), y.dtype.name
        (0.25, 'float32')
    """


true_divide = divide


@made_by(binary)
def power(x1, x2):
    """Elementwise x1 ** x2 (NumPy broadcasting).

    Returns:
        A tensor of the broadcast shape of x1 and x2, in their promoted dtype
        (NumPy's promotion; a Python number takes the tensor's dtype).
    """


@made_by(binary)
def mod(x1, x2):
    """Elementwise remainder of x1 / x2 with the sign of x2 (Python's %, np.mod);
    its gradient with respect to x1 is 1.

    Returns:
        A tensor of the broadcast shape of x1 and x2, in their promoted dtype
        (NumPy's promotion; a Python number takes the tensor's dtype).
    """


@made_by(binary)
def floor_divide(x1, x2):
    """Elementwise floor(x1 / x2) (Python's //); its gradient is zero.

    Returns:
        A tensor of the broadcast shape of x1 and x2, in their promoted dtype
        (NumPy's promotion; a Python number takes the tensor's dtype).
    """


@made_by(binary)
def maximum(x1, x2):
    """Elementwise larger of x1 and x2 (NaN if either is); at a tie the gradient
    is split equally.

    Returns:
        A tensor of the broadcast shape of x1 and x2, in their promoted dtype
        (NumPy's promotion; a Python number takes the tensor's dtype).
    """


@made_by(binary)
def minimum(x1, x2):
    """Elementwise smaller of x1 and x2 (NaN if either is); at a tie the gradient
    is split equally.

    Returns:
        A tensor of the broadcast shape of x1 and x2, in their promoted dtype
        (NumPy's promotion; a Python number takes the tensor's dtype).
    """


@made_by(binary, floating=True)
def arctan2(x1, x2):
    """Elementwise angle of the point (x2, x1): arctan(x1 / x2) in the right
    quadrant, in [-pi, pi].

    Returns:
        A tensor of the broadcast shape of x1 and x2, in their promoted float
        dtype (floatx when both are integer or bool, as Keras).
    """


@made_by(binary, floating=True)
def logaddexp(x1, x2):
    """Elementwise log(exp(x1) + exp(x2)), without overflow.

    Returns:
        A tensor of the broadcast shape of x1 and x2, in their promoted float
        dtype (floatx when both are integer or bool, as Keras).

    Differs:
        At x1 == x2 the gradient is 1/2 to each operand, the derivative (Keras'
        formula gives another value there).
    """


@made_by(binary, grad=False)
def equal(x1, x2):
    """Elementwise x1 == x2 (NumPy broadcasting).

    Returns:
        A bool tensor of the broadcast shape of x1 and x2; not differentiable.
    """


@made_by(binary, grad=False)
def not_equal(x1, x2):
    """Elementwise x1 != x2 (NumPy broadcasting).

    Returns:
        A bool tensor of the broadcast shape of x1 and x2; not differentiable.
    """


@made_by(binary, grad=False)
def less(x1, x2):
    """Elementwise x1 < x2 (NumPy broadcasting).

    Returns:
        A bool tensor of the broadcast shape of x1 and x2; not differentiable.
    """


@made_by(binary, grad=False)
def less_equal(x1, x2):
    """Elementwise x1 <= x2 (NumPy broadcasting).

    Returns:
        A bool tensor of the broadcast shape of x1 and x2; not differentiable.
    """


@made_by(binary, grad=False)
def greater(x1, x2):
    """Elementwise x1 > x2 (NumPy broadcasting).

    Returns:
        A bool tensor of the broadcast shape of x1 and x2; not differentiable.
    """


@made_by(binary, grad=False)
def greater_equal(x1, x2):
    """Elementwise x1 >= x2 (NumPy broadcasting).

    Returns:
        A bool tensor of the broadcast shape of x1 and x2; not differentiable.
    """


_logical_and = binary("logical_and", grad=False)
_logical_or = binary("logical_or", grad=False)
# fused backward kernels (one op instead of three, as TensorFlow does); they
# are ops with rules of their own, so higher derivatives go through them
_tanh_grad = binary("_tanh_grad", "tanh_grad")
_sigmoid_grad = binary("_sigmoid_grad", "sigmoid_grad")
_relu_grad = binary("_relu_grad", "relu_grad")  # (dy, x): dy where x > 0
# (y, dy) -> dy * y'(x), and 0 where dy is 0 (TensorFlow's kernels)
_sqrt_grad = binary("_sqrt_grad", "sqrt_grad")
_rsqrt_grad = binary("_rsqrt_grad", "rsqrt_grad")
_reciprocal_grad = binary("_reciprocal_grad", "reciprocal_grad")


@elementwise
def round(x, decimals=0):
    """Round half to even; its gradient is zero.

    Args:
        decimals: The number of decimals to keep (negative: rounds to tens,
            hundreds, ...).

    Returns:
        A tensor of x's shape and dtype.

    Example:
        >>> from pycg import ops
        >>> ops.round([0.5, 1.5, 2.5]).numpy().tolist()
        [0.0, 2.0, 2.0]
    """
    x = as_tensor(x, "round")
    return apply("round", backends.active.round, (x,),
                 {"decimals": int(decimals)} if decimals else None)


def truth(x, op):
    """x as bools (nonzero is True), as Keras' logical ops take numbers."""
    x = as_tensor(x, op)
    return x if x.dtype == bool else not_equal(x, 0)


def logical_and(x1, x2):
    """Elementwise x1 and x2, each number taken as its truth (nonzero is True).

    Returns:
        A bool tensor of the broadcast shape of x1 and x2; not differentiable.
    """
    return _logical_and(truth(x1, "logical_and"), truth(x2, "logical_and"))


def logical_or(x1, x2):
    """Elementwise x1 or x2, each number taken as its truth (nonzero is True).

    Returns:
        A bool tensor of the broadcast shape of x1 and x2; not differentiable.
    """
    return _logical_or(truth(x1, "logical_or"), truth(x2, "logical_or"))


def logical_not(x):
    """Elementwise not x (nonzero is True).

    Returns:
        A bool tensor of x's shape; not differentiable.
    """
    return apply_nograd(backends.active.logical_not,
                        (truth(x, "logical_not"),))


def isnan(x):
    """Elementwise: True where x is NaN.

    Returns:
        A bool tensor of x's shape; not differentiable.
    """
    return _float_test("isnan", x)


def _float_test(op, x, real=False):
    """The backend's bool kernel `op` (isnan, isinf, ...) of x: all False
    for an integer or bool x, which holds no NaN or inf; real: a complex x
    refused by name."""
    x = as_tensor(x, op)
    if real:
        x = real_only(x, op)
    if not backends.active.inexact(x._value):   # (integers, bools: never)
        return not_equal(x, x)
    return apply_nograd(getattr(backends.active, op), (x,))


def isfinite(x):
    """Elementwise: True where x is neither infinite nor NaN.

    Returns:
        A bool tensor of x's shape; not differentiable.
    """
    x = as_tensor(x, "isfinite")
    if not backends.active.inexact(x._value):   # (integers, bools: always)
        return equal(x, x)
    return apply_nograd(backends.active.isfinite, (x,))


def clip(x, x_min, x_max):
    """Clip x to [x_min, x_max]; the gradient passes where x is inside.

    Args:
        x_min: The lower bound (a number or a tensor that broadcasts against x).
        x_max: The upper bound (a number or a tensor that broadcasts against x).

    Returns:
        A tensor of x's shape and dtype.

    Example:
        >>> from pycg import ops
        >>> ops.clip([-2.0, 0.5, 3.0], -1.0, 1.0).numpy().tolist()
        [-1.0, 0.5, 1.0]
    """
    x = as_tensor(x, "clip")
    return minimum(maximum(x, x_min), x_max)


def nonzero(x):
    """Indices of the nonzero elements, one int32 tensor per axis (their
    number depends on the values, so x must have a value: not traced).

    Returns:
        A tuple of int32 tensors, one per axis of x, the coordinates of each
        nonzero element in row-major order.
    """
    v = np.asarray(as_tensor(x, "nonzero").numpy())
    return tuple(Tensor(backends.active.convert(i.astype(np.int32)))
                 for i in np.nonzero(v))


@elementwise
def where(condition, x1=None, x2=None):
    """Pick x1 where condition is true, else x2 (both differentiable);
    `where(condition)` alone is `nonzero(condition)` (keras.ops).

    Args:
        condition: A bool tensor (a number is taken as its truth).
        x1: The value where condition is True.
        x2: The value where condition is False.

    Returns:
        With x1 and x2: a tensor of the broadcast shape of condition, x1 and
        x2, in their promoted dtype. With condition alone: nonzero(condition).

    Example:
        >>> from pycg import ops
        >>> ops.where([True, False], 1.0, -1.0).numpy().tolist()
        [1.0, -1.0]
    """
    if x1 is None and x2 is None:
        return nonzero(condition)
    if x1 is None or x2 is None:
        raise ValueError(
            "pycg.ops.where: pass both x1 and x2, or neither (the indices "
            "of the nonzero elements of condition)")
    c = as_tensor(condition, "where")
    if c.dtype != bool:
        c = not_equal(c, 0)
    x1, x2 = promote(x1, x2, "where")
    for a in (x1, x2):
        check_broadcast("where", c, a)
    return apply("where", backends.active.where, (c, x1, x2))
