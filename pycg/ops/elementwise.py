"""Elementwise ops (keras.ops names). Integer and bool inputs are taken
as keras.ops takes them, on either backend (where a TensorFlow kernel has no
integer or bool version, through one that has)."""
import numpy as np

from pycg import backends
from pycg.ops._machinery.dispatch import (apply, apply_nograd, as_tensor, binary, cast,
                                check_broadcast, promote, unary)
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


abs = unary("abs", integers=_abs_integers,
            doc="Elementwise |x| (an unsigned or bool x as it is, as in "
                "Keras).")
negative = unary("negative")
sqrt = unary("sqrt", float_only=True)
rsqrt = unary("rsqrt", float_only=True)
square = unary("square", integers=_square_integers,
               doc="Elementwise x * x (int32 for bools, as in Keras).")
reciprocal = unary("reciprocal", float_only=True)
exp = unary("exp", float_only=True)
expm1 = unary("expm1", float_only=True)
log = unary("log", float_only=True)
log1p = unary("log1p", float_only=True)
log2 = unary("log2", float_only=True)
log10 = unary("log10", float_only=True)
sin = unary("sin", float_only=True)
cos = unary("cos", float_only=True)
tan = unary("tan", float_only=True)
arcsin = unary("arcsin", float_only=True)
arccos = unary("arccos", float_only=True)
arctan = unary("arctan", float_only=True)
sinh = unary("sinh", float_only=True)
cosh = unary("cosh", float_only=True)
tanh = unary("tanh", float_only=True)
erf = unary("erf", float_only=True)
sign = unary("sign", integers=_sign_integers,
             doc="Elementwise sign; its gradient is zero.")
floor = unary("floor", float_only=True,
              doc="Elementwise floor (floatx for integers); its gradient is "
                  "zero.")
ceil = unary("ceil", float_only=True,
             doc="Elementwise ceil (floatx for integers); its gradient is "
                 "zero.")
real = unary("real", doc="The real part of x (x itself when x is real).")
imag = unary("imag", doc="The imaginary part of x (zero when x is real).")
conj = unary("conj", doc="The complex conjugate of x (x when x is real).")

add = binary("add")
subtract = binary("subtract")
multiply = binary("multiply")
divide = binary("divide", floating=True)
true_divide = divide
power = binary("power")
mod = binary("mod")
floor_divide = binary("floor_divide")
maximum = binary("maximum")
minimum = binary("minimum")
arctan2 = binary("arctan2", floating=True)
logaddexp = binary("logaddexp", floating=True)
equal = binary("equal", grad=False)
not_equal = binary("not_equal", grad=False)
less = binary("less", grad=False)
less_equal = binary("less_equal", grad=False)
greater = binary("greater", grad=False)
greater_equal = binary("greater_equal", grad=False)
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


def round(x, decimals=0):
    """Round half to even; its gradient is zero."""
    x = as_tensor(x, "round")
    return apply("round", backends.active.round, (x,),
                 {"decimals": int(decimals)} if decimals else None)


def truth(x, op):
    """x as bools (nonzero is True), as Keras' logical ops take numbers."""
    x = as_tensor(x, op)
    return x if x.dtype == bool else not_equal(x, 0)


def logical_and(x1, x2):
    return _logical_and(truth(x1, "logical_and"), truth(x2, "logical_and"))


def logical_or(x1, x2):
    return _logical_or(truth(x1, "logical_or"), truth(x2, "logical_or"))


def logical_not(x):
    return apply_nograd(backends.active.logical_not,
                        (truth(x, "logical_not"),))


def isnan(x):
    x = as_tensor(x, "isnan")
    if not backends.active.inexact(x._value):   # (integers, bools: never)
        return not_equal(x, x)
    return apply_nograd(backends.active.isnan, (x,))


def isfinite(x):
    x = as_tensor(x, "isfinite")
    if not backends.active.inexact(x._value):   # (integers, bools: always)
        return equal(x, x)
    return apply_nograd(backends.active.isfinite, (x,))


def clip(x, x_min, x_max):
    """Clip x to [x_min, x_max]; the gradient passes where x is inside."""
    x = as_tensor(x, "clip")
    return minimum(maximum(x, x_min), x_max)


def nonzero(x):
    """Indices of the nonzero elements, one int32 tensor per axis (their
    number depends on the values, so x must have a value: not traced)."""
    v = np.asarray(as_tensor(x, "nonzero").numpy())
    return tuple(Tensor(backends.active.convert(i.astype(np.int32)))
                 for i in np.nonzero(v))


def where(condition, x1=None, x2=None):
    """Pick x1 where condition is true, else x2 (both differentiable);
    `where(condition)` alone is `nonzero(condition)` (keras.ops)."""
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
