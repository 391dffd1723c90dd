"""R's integer arithmetic on int32 tensors, for the R package's operators.

R's integers are 32-bit, as int32 tensors are, but R never wraps around:
`.Machine$integer.max + 1L` is NA with the warning "NAs produced by integer
overflow", `5L %/% 0L` and `5L %% 0L` are NA, `2L^31L` is a double, and
sum() of integers returns a double when the total leaves the integer
range. A tensor has no integer NA; its value -2**31 is the bit
pattern of R's NA_integer_, so R reads it back as NA.
"""
import warnings

import numpy as np

import pycg
from pycg.r.na import symbolic

ops = pycg.ops
INT_MIN, INT_MAX = -2**31, 2**31 - 1


def arith(name, e1, e2):
    """e1 <name> e2 (add, subtract, multiply, power, floor_divide, mod);
    between int32 values, R's integer arithmetic (see the module)."""
    if not (_int32(e1) and _int32(e2)) or symbolic(e1) or symbolic(e2):
        return getattr(ops, name)(e1, e2)
    if name == "power":
        return ops.power(ops.cast(e1, "float64"), ops.cast(e2, "float64"))
    if name in ("floor_divide", "mod"):
        zero = ops.equal(e2, 0)
        out = getattr(ops, name)(e1, ops.where(zero, 1, e2))
        return ops.cast(ops.where(zero, INT_MIN, out), "int32")
    wide = getattr(ops, name)(_wide(e1), _wide(e2))
    over = ops.logical_or(ops.greater(wide, INT_MAX), ops.less(wide, INT_MIN))
    if not bool(ops.any(over).numpy()):
        return ops.cast(wide, "int32")
    warnings.warn("NAs produced by integer overflow", RuntimeWarning,
                  stacklevel=2)
    return ops.cast(ops.where(over, INT_MIN, wide), "int32")


def r_sum(x):
    """R's sum() of a tensor: of an integer or boolean one, int32 where the
    total fits, else float64 (R returns a double there)."""
    x = pycg.convert_to_tensor(x)
    if x.dtype.kind not in "iub":
        return ops.sum(x)
    total = ops.sum(ops.cast(x, "int64"))
    if symbolic(total):
        return ops.sum(x)
    if INT_MIN < int(total.numpy()) <= INT_MAX:
        return ops.cast(total, "int32")
    return ops.cast(total, "float64")


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


def _int32(e):
    if isinstance(e, pycg.Tensor):
        return e.dtype == "int32"
    return isinstance(e, int) and not isinstance(e, bool)


def _wide(e):
    return ops.cast(e, "int64") if isinstance(e, pycg.Tensor) else e
