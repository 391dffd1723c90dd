"""R's Math group on tensors (the R package's Math method): types and NA by
pycg/r/base/semantics.py, values as base R computes them.

As in R: abs() of integers or logicals is integer, cumsum(), cummax() and
cummin() of them integer (NA from an NA or an overflow on, with R's
warning); everything else is double. A function of NA or NaN is that NA
or NaN (R's math1 keeps x there), and a NaN made from a number gives R's
warning "NaNs produced". round() is R 4's algorithm (the nearer of the two
candidates x rounds to, measured in doubles, ties to the even one: 2.675
to 2 digits is 2.67, 0.15 to 1 digit 0.1); signif() is R's fprec().
sinpi(), cospi() and tanpi() are exact at the multiples of 1/2. The
cumulative ones run over R's (column-major) order of the elements.
"""
import math

import numpy as np

from pycg.r.base import semantics as rs
from pycg.r.base.na import symbolic
from pycg.r.base.semantics import DOUBLE, INTEGER, INT_NA, INT_MAX, ops
from pycg.tensor import Tensor

NAMES = {"ceiling": "ceil", "acos": "arccos", "asin": "arcsin",
         "atan": "arctan", "acosh": "arccosh", "asinh": "arcsinh",
         "atanh": "arctanh"}
KEEP_INTEGER = ("abs", "cumsum", "cummax", "cummin")
CUMULATIVE = ("cumsum", "cumprod", "cummax", "cummin")
LOG10_2 = math.log10(2.0)


def math1(generic, x, na=None, digits=None):
    """R's <generic>(x) (and round/signif's digits, log's base)."""
    t = rs.r_type(x)
    if t <= INTEGER and generic in KEEP_INTEGER:
        x = rs.coerce(x, INTEGER, "int32", na)
        if generic == "abs":
            return ops.abs(x)
        return _integer_cumulative(generic, rs.r_ravel(x))
    if t < DOUBLE:
        x = rs.coerce(x, DOUBLE, rs.result_dtype(DOUBLE, [x]), na)
    if generic in CUMULATIVE:
        return _cumulative(generic, rs.r_ravel(x))
    if generic == "round":
        return r_round(x, 0 if digits is None else digits)
    if generic == "signif":
        return r_signif(x, 6 if digits is None else digits)
    if generic in ("sinpi", "cospi", "tanpi"):
        out = globals()[generic](x)
    elif generic == "log" and digits is not None:
        out = _log(x, digits)
    else:
        out = getattr(ops, NAMES.get(generic, generic))(x)
    return keep_nan(x, out)


def complex_part(generic, z, na=None):
    """R's Re(), Im(), Mod(), Arg() or Conj() (the Complex group): of a
    number, a double (Im 0, Arg 0 or pi, NA kept)."""
    if rs.r_type(z) == rs.COMPLEX:
        return getattr(ops, {"Re": "real", "Im": "imag", "Conj": "conj",
                             "Mod": "absolute", "Arg": "angle"}[generic])(z)
    x = rs.coerce(z, DOUBLE, rs.result_dtype(DOUBLE, [z]), na)
    if generic in ("Re", "Conj"):
        return x
    if generic == "Mod":
        return ops.abs(x)
    if generic == "Im":
        return ops.zeros_like(x)
    arg = ops.where(ops.less(x, 0), np.pi, ops.zeros_like(x))
    return ops.where(ops.isnan(x), x, arg)   # NA stays NA, NaN NaN


def keep_nan(x, out):
    """out with x where x is NA or NaN (R's math1), and R's warning "NaNs
    produced" where out is NaN and x was not."""
    if x.dtype.kind == "c":
        return out
    if not symbolic(out):
        nan_out = np.isnan(np.asarray(out))
        if not nan_out.any():
            return out
        nan = np.isnan(np.asarray(x))
        if (nan_out & ~nan).any():
            rs.warn("NaNs produced")
        if not nan.any():
            return out
    return ops.where(ops.isnan(x), x, out)


def _log(x, base):
    if isinstance(base, Tensor):   # (on the tape: a gradient for the base)
        return ops.divide(ops.log(x), ops.log(rs.as_double(base)))
    if base == 10:
        return ops.log10(x)
    if base == 2:
        return ops.log2(x)
    return ops.divide(ops.log(x), math.log(base) if base > 0 else
                      (float("-inf") if base == 0 else float("nan")))


def r_round(x, digits):
    """R's round(x, digits), digits one number."""
    digits = float(digits)
    if digits != digits:
        return ops.add(x, digits)
    if digits > 308 + 15:
        return x
    if digits < -308:
        return ops.where(ops.isfinite(x), ops.zeros_like(x), x)
    if digits == 0:
        return ops.round(x)
    dig = int(math.floor(digits + 0.5))
    a = ops.abs(x)
    l10 = ops.multiply(LOG10_2, ops.add(0.5, _logb(a)))
    # (powers of ten as tensors of a's shape: XLA divides by a constant
    # with its reciprocal, which is not the quotient R compares)
    if dig <= 308:
        pow10 = ops.full_like(a, _pow_di(10.0, dig))
        x10 = ops.multiply(a, pow10)
        low, high = ops.floor(x10), ops.ceil(x10)
        down, up = ops.divide(low, pow10), ops.divide(high, pow10)
    else:
        p10 = ops.full_like(a, _pow_di(10.0, dig - 308))
        pow10 = ops.full_like(a, _pow_di(10.0, 308))
        x10 = ops.multiply(ops.multiply(a, pow10), p10)
        low, high = ops.floor(x10), ops.ceil(x10)
        down = ops.divide(ops.divide(low, pow10), p10)
        up = ops.divide(ops.divide(high, pow10), p10)
    du, dd = ops.subtract(up, a), ops.subtract(a, down)
    odd = ops.equal(ops.mod(low, 2.0), 1.0)
    pick = ops.logical_or(ops.less(du, dd),
                          ops.logical_and(odd, ops.equal(du, dd)))
    rounded = ops.where(pick, up, down)
    rounded = ops.where(ops.greater(ops.add(l10, dig), 15), a, rounded)
    out = ops.where(ops.less(x, 0), ops.negative(rounded), rounded)
    keep = ops.logical_or(ops.logical_not(ops.isfinite(x)), ops.equal(x, 0))
    return ops.where(keep, x, out)


def r_signif(x, digits):
    """R's signif(x, digits) (fprec), digits one number."""
    digits = float(digits)
    if digits != digits:
        return ops.add(x, digits)
    if math.isinf(digits):
        if digits > 0:
            return x
        digits = 1.0
    dig = int(round(digits))
    if dig > 22:
        return x
    dig = max(dig, 1)
    a = ops.abs(x)
    l10 = ops.log10(ops.where(ops.equal(a, 0), ops.ones_like(a), a))
    e10 = ops.subtract(float(dig - 1), ops.floor(l10))
    pow10 = _pow10_di(ops.abs(e10))
    up = ops.divide(ops.round(ops.multiply(a, pow10)), pow10)
    down = ops.multiply(ops.round(ops.divide(a, pow10)), pow10)
    rounded = ops.where(ops.greater(e10, 0), up, down)
    out = ops.where(ops.less(x, 0), ops.negative(rounded), rounded)
    keep = ops.logical_or(ops.logical_not(ops.isfinite(x)), ops.equal(x, 0))
    return ops.stop_gradient(ops.where(keep, x, out))


def _logb(a):
    """The binary exponent of a > 0 (C's logb), as a float tensor."""
    e = ops.floor(ops.log2(a))
    e = ops.where(ops.greater(ops.power(2.0, e), a), ops.subtract(e, 1), e)
    return ops.where(ops.less_equal(ops.power(2.0, ops.add(e, 1)), a),
                     ops.add(e, 1), e)


def _pow10_di(n):
    """10^n for whole n >= 0 (a float tensor) as R_pow_di computes it, by
    repeated squaring (beyond 10^22 it is not the nearest double)."""
    result, base = ops.ones_like(n), ops.full_like(n, 10.0)
    for _ in range(11):   # n < 2^11
        odd = ops.equal(ops.mod(n, 2.0), 1.0)
        result = ops.where(odd, ops.multiply(result, base), result)
        n = ops.floor(ops.divide(n, ops.full_like(n, 2.0)))
        base = ops.where(ops.greater(n, 0), ops.multiply(base, base), base)
    return result


def _pow_di(x, n):
    """R's R_pow_di(x, n): x^n by repeated squaring, as R computes it."""
    result, negative, n = 1.0, n < 0, abs(n)
    while n:
        if n & 1:
            result *= x
        n >>= 1
        if n:
            x *= x
    return 1.0 / result if negative else result


def _integer_cumulative(generic, x):
    if generic != "cumsum":
        out = _scan(generic, x)
        seen = ops.greater(ops.cumsum(ops.cast(ops.equal(x, INT_NA),
                                               "int32")), 0)
        return ops.where(seen, INT_NA, out)
    missing = ops.equal(x, INT_NA)
    total = ops.cumsum(ops.where(missing, 0, ops.cast(x, "int64")))
    seen = ops.greater(ops.cumsum(ops.cast(missing, "int32")), 0)
    over = ops.logical_and(ops.logical_or(ops.greater(total, INT_MAX),
                                          ops.less_equal(total, INT_NA)),
                           ops.logical_not(seen))
    if not symbolic(over) and bool(ops.any(over).numpy()):
        rs.warn("integer overflow in 'cumsum'; use 'cumsum(as.numeric(.))'")
    bad = ops.logical_or(seen, ops.greater(ops.cumsum(ops.cast(over,
                                                               "int32")), 0))
    return ops.cast(ops.where(bad, INT_NA, total), "int32")


def _cumulative(generic, x):
    if generic in ("cumsum", "cumprod"):
        return getattr(ops, generic)(x, axis=0)
    out = _scan(generic, x)
    if not x.shape[0]:
        return out
    nan = ops.isnan(x)
    seen = ops.greater(ops.cumsum(ops.cast(nan, "int32")), 0)
    first = ops.take(x, ops.argmax(ops.cast(nan, "int32")))
    return ops.where(seen, first, out)


def _scan(generic, x):
    if not x.shape[0]:
        return x
    return ops.associative_scan(
        ops.maximum if generic == "cummax" else ops.minimum, x)


def sinpi(x):
    """R's sinpi(x) = sin(pi x), exactly 0, 1, 0, -1 at 0, 1/2, 1, 3/2."""
    turns = ops.mod(x, 2.0)
    return _exact(ops.sin(ops.multiply(turns, np.pi)), turns,
                  {0.0: 0.0, 0.5: 1.0, 1.0: 0.0, 1.5: -1.0})


def cospi(x):
    """R's cospi(x) = cos(pi x), exactly 1, 0, -1, 0 at 0, 1/2, 1, 3/2."""
    turns = ops.mod(x, 2.0)
    return _exact(ops.cos(ops.multiply(turns, np.pi)), turns,
                  {0.0: 1.0, 0.5: 0.0, 1.0: -1.0, 1.5: 0.0})


def tanpi(x):
    """R's tanpi(x) = tan(pi x), exactly 0 at whole x, NaN at x + 1/2."""
    turns = ops.mod(x, 1.0)
    return _exact(ops.tan(ops.multiply(turns, np.pi)), turns,
                  {0.0: 0.0, 0.5: float("nan")})


def _exact(value, turns, exact):
    """value with the exact values where `turns` hits a key of `exact`; the
    gradient stays that of `value` (the correction is a constant)."""
    fix = ops.zeros_like(value)
    for at, v in exact.items():
        fix = ops.where(ops.equal(turns, at), v - value, fix)
    return ops.add(value, ops.stop_gradient(fix))
