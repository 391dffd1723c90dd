"""The VJP rules of the elementwise ops (pycg/ops/elementwise.py): one
input, two inputs (broadcasting undone by the backward loop), the fused
gradient kernels' own rules, and the comparisons, which carry no gradient.

Each rule is fn(g, ans, *inputs, **params) -> gradient for one input,
written with pycg ops so that it is itself differentiable (higher order).
Broadcasting is undone by the backward loop for rules registered with
broadcast=True, never inside a rule.
"""
import math
from functools import partial

from pycg.core.backward import strong_zeros_on
from pycg.core.recorder import defvjp
from pycg.ops import creation as C
from pycg.ops import elementwise as E
from pycg.ops.rules._complex import abs_vjp, cast_vjp, imag_vjp, is_complex
from pycg.ops.rules._complex import conjugate as _c


def _zero(g, ans, x, *_, **__):
    return C.zeros_like(x)


def _zero_second(g, ans, x, y):
    return C.zeros_like(y)


# ---- elementwise, one input -------------------------------------------------
defvjp("abs", abs_vjp)
defvjp("negative", lambda g, ans, x: -g)
defvjp("sqrt", lambda g, ans, x: E._sqrt_grad(ans, g))  # (TensorFlow's
defvjp("rsqrt", lambda g, ans, x: E._rsqrt_grad(ans, g))  # kernels: 0 where
defvjp("reciprocal", lambda g, ans, x: E._reciprocal_grad(ans, g))  # g is 0)
defvjp("square", lambda g, ans, x: g * 2 * _c(x))
defvjp("exp", lambda g, ans, x: g * _c(ans))
defvjp("expm1", lambda g, ans, x: g * (ans + 1))
defvjp("log", lambda g, ans, x: g / _c(x))
defvjp("log1p", lambda g, ans, x: g / (x + 1))
defvjp("log2", lambda g, ans, x: g / (x * math.log(2)))
defvjp("log10", lambda g, ans, x: g / (x * math.log(10)))
defvjp("sin", lambda g, ans, x: g * _c(E.cos(x)))
defvjp("cos", lambda g, ans, x: -g * _c(E.sin(x)))
defvjp("tan", lambda g, ans, x: g * (1 + ans * ans))
defvjp("arcsin", lambda g, ans, x: g * E.rsqrt(1 - x * x))
defvjp("arccos", lambda g, ans, x: -g * E.rsqrt(1 - x * x))
defvjp("arctan", lambda g, ans, x: g / (1 + x * x))
defvjp("sinh", lambda g, ans, x: g * E.cosh(x))
defvjp("cosh", lambda g, ans, x: g * E.sinh(x))
defvjp("tanh", lambda g, ans, x: E._tanh_grad(ans, g))
defvjp("erf", lambda g, ans, x: g * (2 / math.sqrt(math.pi)) * E.exp(-x * x))
defvjp("sign", _zero)
defvjp("floor", _zero)
defvjp("ceil", _zero)
defvjp("round", _zero)
defvjp("cast", cast_vjp)
defvjp("real", lambda g, ans, x: C.cast(g, x.dtype) if is_complex(x) else g)
defvjp("imag", imag_vjp)
defvjp("conj", lambda g, ans, x: E.conj(g))


# ---- elementwise, two inputs (broadcasting undone by the loop) ----------------
def _power_exponent(g, ans, x, y):
    safe = E.where(E.greater(x, 0), x, 1)
    return g * ans * E.where(E.greater(x, 0), E.log(safe), 0)


def _arctan2(g, ans, x1, x2, which):
    d = x1 * x1 + x2 * x2
    return g * x2 / d if which == 0 else -g * x1 / d


defvjp("add", lambda g, ans, x, y: g, lambda g, ans, x, y: g, broadcast=True)
defvjp("subtract", lambda g, ans, x, y: g, lambda g, ans, x, y: -g,
       broadcast=True)
defvjp("multiply", lambda g, ans, x, y: g * _c(y),
       lambda g, ans, x, y: g * _c(x), broadcast=True)
defvjp("divide", lambda g, ans, x, y: g / _c(y),
       lambda g, ans, x, y: -g * _c(ans / y), broadcast=True)
defvjp("power", lambda g, ans, x, y: g * y * E.power(x, y - 1),
       _power_exponent, broadcast=True)
defvjp("mod", lambda g, ans, x, y: g,
       lambda g, ans, x, y: -g * E.floor(x / y), broadcast=True)
defvjp("floor_divide", _zero, _zero_second, broadcast=True)
defvjp("maximum", lambda g, ans, x, y: E.where(E.greater_equal(x, y), g, 0),
       lambda g, ans, x, y: E.where(E.greater_equal(x, y), 0, g),
       broadcast=True)
defvjp("minimum", lambda g, ans, x, y: E.where(E.less_equal(x, y), g, 0),
       lambda g, ans, x, y: E.where(E.less_equal(x, y), 0, g),
       broadcast=True)
defvjp("arctan2", partial(_arctan2, which=0), partial(_arctan2, which=1),
       broadcast=True)
def _logaddexp(g, ans, x, y):
    # exp(x - ans), and 1 where x alone is the infinite ans (inf - inf)
    alone = E.logical_and(E.equal(x, ans), E.not_equal(x, y))
    return g * E.exp(E.where(alone, 0, x - ans))


defvjp("logaddexp", _logaddexp, lambda g, ans, x, y: _logaddexp(g, ans, y, x),
       broadcast=True)
defvjp("_tanh_grad", lambda g, ans, y, dy: -2 * g * dy * y,
       lambda g, ans, y, dy: E._tanh_grad(y, g))
defvjp("_sigmoid_grad", lambda g, ans, y, dy: g * dy * (1 - 2 * y),
       lambda g, ans, y, dy: E._sigmoid_grad(y, g))
defvjp("_relu_grad", lambda g, ans, dy, x: E._relu_grad(g, x), _zero_second)
defvjp("_sqrt_grad", lambda g, ans, y, dy: -_c(g / y) * ans,
       lambda g, ans, y, dy: 0.5 * (g / y))
defvjp("_rsqrt_grad", lambda g, ans, y, dy: -1.5 * _c(g) * dy * _c(y * y),
       lambda g, ans, y, dy: E._rsqrt_grad(_c(y), g))
defvjp("_reciprocal_grad", lambda g, ans, y, dy: -2 * _c(g) * dy * _c(y),
       lambda g, ans, y, dy: E._reciprocal_grad(_c(y), g))
defvjp("where", None, lambda g, ans, c, x, y: E.where(c, g, 0),
       lambda g, ans, c, x, y: E.where(c, 0, g), broadcast=True)


# ---- strong zeros, for the backward loop (pycg.core.backward) ----------------
def reached(g, ans, gx):
    """gx, and exactly 0 where the value ans is NaN and the upstream g is
    exactly 0 (not reached); a rule that multiplies an upstream broadcast
    back (a reduction's) asks for it through `reached_if_strong`."""
    return E.where(E.logical_and(E.equal(g, 0), E.isnan(ans)), 0, gx)


def reached_if_strong(g, ans, gx):
    """reached(g, ans, gx) inside strong_zeros, else gx as it is."""
    return reached(g, ans, gx) if strong_zeros_on() else gx


# Ops that never carry a gradient (their outputs are not recorded).
NON_DIFFERENTIABLE = (
    "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
    "logical_and", "logical_or", "logical_not", "isnan", "isfinite")
