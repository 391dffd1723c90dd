"""Elementwise ops (keras.ops names)."""
from pycg import backends
from pycg.ops._dispatch import (apply, apply_nograd, as_tensor, binary,
                                check_broadcast, promote, unary)

abs = unary("abs")
negative = unary("negative")
sqrt = unary("sqrt", float_only=True)
rsqrt = unary("rsqrt", float_only=True)
square = unary("square")
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
sign = unary("sign", doc="Elementwise sign; its gradient is zero.")
floor = unary("floor", doc="Elementwise floor; its gradient is zero.")
ceil = unary("ceil", doc="Elementwise ceil; its gradient is zero.")
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
arctan2 = binary("arctan2")
logaddexp = binary("logaddexp")
equal = binary("equal", grad=False)
not_equal = binary("not_equal", grad=False)
less = binary("less", grad=False)
less_equal = binary("less_equal", grad=False)
greater = binary("greater", grad=False)
greater_equal = binary("greater_equal", grad=False)
logical_and = binary("logical_and", grad=False)
logical_or = binary("logical_or", grad=False)
# fused backward kernels (one op instead of three, as TensorFlow does); they
# are ops with rules of their own, so higher derivatives go through them
_tanh_grad = binary("_tanh_grad", "tanh_grad")
_sigmoid_grad = binary("_sigmoid_grad", "sigmoid_grad")
_relu_grad = binary("_relu_grad", "relu_grad")  # (dy, x): dy where x > 0


def round(x, decimals=0):
    """Round half to even; its gradient is zero."""
    x = as_tensor(x, "round")
    return apply("round", backends.active.round, (x,),
                 {"decimals": int(decimals)} if decimals else None)


def logical_not(x):
    return apply_nograd(backends.active.logical_not, (as_tensor(x),))


def isnan(x):
    return apply_nograd(backends.active.isnan, (as_tensor(x),))


def isfinite(x):
    return apply_nograd(backends.active.isfinite, (as_tensor(x),))


def clip(x, x_min, x_max):
    """Clip x to [x_min, x_max]; the gradient passes where x is inside."""
    x = as_tensor(x, "clip")
    return minimum(maximum(x, x_min), x_max)


def where(condition, x1=None, x2=None):
    """Pick x1 where condition is true, else x2 (both differentiable)."""
    if x1 is None or x2 is None:
        raise ValueError(
            "pycg.ops.where: pass both x1 and x2 (the one-argument form that "
            "returns indices is not differentiable and not supported)")
    c = as_tensor(condition, "where")
    if c.dtype != bool:
        c = not_equal(c, 0)
    x1, x2 = promote(x1, x2, "where")
    for a in (x1, x2):
        check_broadcast("where", c, a)
    return apply("where", backends.active.where, (c, x1, x2))
