"""R's operators on tensors (the Ops group of the R package): shapes, types
and NA by pycg/r/base/semantics.py, values as base R computes them.

Arithmetic (`+ - * / ^ %% %/%`) is integer where both sides are integer or
logical (`/` and `^` always double), with R's integer rules: a result
outside the integer range is NA with R's warning "NAs produced by integer
overflow", `%/%` and `%%` by 0 are NA, NA gives NA. Doubles follow R's
arithmetic.c: `^` is R_pow() ((-1.5)^Inf is NaN, 0^-1 Inf), `%%` and `%/%`
R's myfmod() and myfloor(), which compute x - floor(x / y) * y in extended
precision (here exactly, in two doubles), so 5.5 %% 0.1 is 0.0999...97 and
5.5 %/% 0.1 is 54, as in R. Comparisons and `&`/`|` give logical results
with R's NA (a mask, pycg/r/base/na.py) by R's three-valued logic.
"""
import numpy as np

from pycg.r.base import semantics as rs
from pycg.r.base.na import symbolic, with_mask
from pycg.r.base.semantics import (COMPLEX, DOUBLE, INTEGER, LOGICAL, INT_NA,
                              INT_MAX, ops)

ARITH = {"+": "add", "-": "subtract", "*": "multiply", "/": "divide",
         "^": "power", "%%": "mod", "%/%": "floor_divide"}
COMPARE = {"==": "equal", "!=": "not_equal", "<": "less",
           "<=": "less_equal", ">": "greater", ">=": "greater_equal"}
LOGIC = {"&": "logical_and", "|": "logical_or"}
C_EPS = float(np.finfo(np.longdouble).eps)   # R's c_eps (long double)
FAST = {"+": ops.add, "-": ops.subtract, "*": ops.multiply, "/": ops.divide,
        "^": ops.power}


def operator(generic, e1, e2, na1=None, na2=None, weak=0):
    """R's e1 <generic> e2; `na1`, `na2` the NA masks of logical operands,
    `weak` flags R data (1: e1, 2: e2). A comparison or `&`/`|` returns
    (result, mask) where an element is NA."""
    if generic in LOGIC:
        return _logic(generic, e1, e2, na1, na2)
    fast = _fast(generic, e1, e2)
    if fast is not None:
        return fast
    shape = rs.layout(e1, e2, arith=generic in ARITH, what=generic)
    operands = (e1, e2)
    top = max(rs.r_type(e1), rs.r_type(e2))
    if generic in COMPARE:
        if top == COMPLEX and generic not in ("==", "!="):
            raise rs.BaseRError(f"`{generic}`: invalid comparison with complex "
                            f"values")
        top = max(top, INTEGER)
    else:
        top = max(top, DOUBLE if generic in ("/", "^") else INTEGER)
        if top == COMPLEX and generic in ("%%", "%/%"):
            raise rs.BaseRError(f"`{generic}`: invalid operation on complex "
                            f"numbers")
    dtype = rs.result_dtype(top, operands, (weak & 1, weak & 2))
    a, b = (rs.recycle(rs.coerce(e, top, dtype, na), shape)
            for e, na in ((e1, na1), (e2, na2)))
    if generic in COMPARE:
        out = getattr(ops, COMPARE[generic])(a, b)
        if symbolic(out):
            return out
        m1, m2 = rs.host_missing(a), rs.host_missing(b)
        return with_mask(out, m2 if m1 is None else
                         m1 if m2 is None else m1 | m2)
    if top == INTEGER:
        return _integer(generic, a, b)
    return _double(generic, a, b)


def _fast(generic, e1, e2):
    """e1 <generic> e2 where R's answer is the op's: + - * / (and ^ to a
    whole positive power) of a float tensor and an R number or a tensor of
    its dtype and shape; else None."""
    if generic not in FAST:
        return None
    t1, t2 = isinstance(e1, rs.Tensor), isinstance(e2, rs.Tensor)
    if t1 and t2:
        if e1.shape != e2.shape or e1.dtype != e2.dtype:
            return None
        t = e1
    elif t1 and type(e2) in (float, int) and e2 == e2:
        t = e1
    elif t2 and type(e1) in (float, int) and e1 == e1 and generic != "^":
        t = e2
    else:
        return None
    if t.dtype.kind != "f" or generic == "^" and not (
            not t2 and 0 < e2 < 2**53 and e2 == int(e2)):
        return None
    return FAST[generic](e1, e2)


def unary(generic, x, na=None):
    """R's -x, +x or !x."""
    t = rs.r_type(x)
    if generic == "!":
        value, missing = truth(x, na)
        return with_mask(ops.logical_not(value), missing)
    if t == LOGICAL:
        x = rs.coerce(x, INTEGER, "int32", na)
    if generic == "+":
        return x
    return ops.negative(x)    # -NA_integer_ wraps to itself: NA


def diff(x, differences):
    """R's diff(x, differences = n) along the first axis (lag 1): integers
    and logicals by R's integer arithmetic (NA, with R's warning, where a
    difference overflows), doubles by the op. Too short a vector (or matrix)
    gives x[0], an empty vector of x's type, as base R's diff()."""
    if x.shape[0] <= differences:
        return ops.take(ops.reshape(x, (-1,)), np.zeros(0, np.int64), axis=0)
    if rs.r_type(x) >= DOUBLE:
        return ops.diff(x, n=differences, axis=0)
    x = rs.coerce(x, INTEGER, rs.result_dtype(INTEGER, [x]))
    for _ in range(differences):
        m = x.shape[0]
        x = _integer("-", ops.take(x, np.arange(1, max(m, 1)), axis=0),
                     ops.take(x, np.arange(0, max(m - 1, 0)), axis=0))
    return x


def _integer(generic, a, b):
    if generic in ("%%", "%/%"):
        zero = _either(ops.equal(b, 0), _either(rs.missing(a), rs.missing(b)))
        out = getattr(ops, ARITH[generic])(a, ops.where(zero, 1, b))
        return ops.cast(ops.where(zero, INT_NA, out), "int32")
    wide = getattr(ops, ARITH[generic])(ops.cast(a, "int64"),
                                        ops.cast(b, "int64"))
    over = ops.logical_or(ops.greater(wide, INT_MAX),
                          ops.less_equal(wide, INT_NA))
    missing = _either(rs.missing(a), rs.missing(b))
    if not symbolic(over) and bool(ops.any(
            over if missing is None else
            ops.logical_and(over, ops.logical_not(missing))).numpy()):
        rs.warn("NAs produced by integer overflow")
    bad = over if missing is None else ops.logical_or(over, missing)
    return ops.cast(ops.where(bad, INT_NA, wide), "int32")


def _double(generic, a, b):
    if generic == "^":
        return r_pow(a, b)
    if generic == "%%":
        return r_mod(a, b)
    if generic == "%/%":
        return r_floor_divide(a, b)
    return getattr(ops, ARITH[generic])(a, b)


def r_pow(x, y):
    """R's x ^ y (R_pow): IEEE's pow but for 0^-y (Inf), (-Inf)^y with y not
    whole and x < 0 to an infinite power (NaN), 1^y and x^0 (1)."""
    out = ops.power(x, y)
    if not isinstance(y, rs.Tensor) and y > 0 and y == int(y) and y < 2**53:
        return out   # a whole positive power: pow's answer is R's
    x, y = _tensors(out.dtype, x, y)
    nan = float("nan")
    out = ops.where(ops.logical_and(ops.equal(x, 0), ops.less(y, 0)),
                    float("inf"), out)
    out = ops.where(ops.logical_and(ops.less(x, 0), ops.isinf(y)), nan, out)
    not_whole = ops.logical_and(ops.isfinite(y),
                                ops.not_equal(y, ops.floor(y)))
    out = ops.where(ops.logical_and(ops.equal(x, float("-inf")), not_whole),
                    nan, out)
    # NA (or NaN) as R's x + y carries it, but x^0 and 1^y are 1
    either = ops.logical_or(ops.isnan(x), ops.isnan(y))
    one = ops.logical_or(ops.equal(x, 1), ops.equal(y, 0))
    return ops.where(ops.logical_and(either, ops.logical_not(one)),
                     ops.add(x, y), out)


def r_mod(x, y):
    """R's x %% y for doubles (myfmod)."""
    x, y = _tensors(_float_dtype(x, y), x, y)
    count, rest = _floor_count(x, y)
    out = ops.subtract(x, ops.multiply(ops.stop_gradient(count), y))
    out = ops.add(out, ops.stop_gradient(ops.subtract(rest, out)))
    # |y| beyond 1/eps: x, or x + y where the signs differ, or 0
    ax, ay = ops.abs(x), ops.abs(y)
    huge = ops.logical_and(ops.greater(ops.multiply(ay, C_EPS), 1),
                           ops.logical_and(ops.isfinite(x),
                                           ops.less_equal(ax, ay)))
    differ = ops.less(ops.multiply(ops.sign(x), ops.sign(y)), 0)
    near = ops.where(ops.equal(ax, ay), ops.zeros_like(x),
                     ops.where(differ, ops.add(x, y), x))
    out = ops.where(huge, near, out)
    _warn_accuracy(x, y)
    return ops.where(ops.equal(y, 0), float("nan"), out)


def r_floor_divide(x, y):
    """R's x %/% y for doubles (myfloor)."""
    x, y = _tensors(_float_dtype(x, y), x, y)
    q = ops.divide(x, y)
    count, _ = _floor_count(x, y)
    differ = ops.less(ops.multiply(ops.sign(x), ops.sign(y)), 0)
    small = ops.where(ops.logical_or(ops.less(q, 0), differ), -1.0, 0.0)
    out = ops.where(ops.less(ops.abs(q), 1), ops.cast(small, q.dtype), count)
    plain = ops.logical_or(ops.logical_or(ops.equal(y, 0),
                                          ops.logical_not(ops.isfinite(q))),
                           ops.greater(ops.multiply(ops.abs(q), C_EPS), 1))
    return ops.stop_gradient(ops.where(plain, q, out))


def _floor_count(x, y):
    """(k, x - k y) of R's myfloor/myfmod: k = floor(q) + floor(t / y) with
    t = x - floor(q) y computed exactly (two doubles), q = x / y."""
    q = ops.floor(ops.divide(x, y))
    q = ops.where(ops.isfinite(q), q, ops.zeros_like(q))
    hi, lo = _minus_product(x, q, y)
    k = ops.floor(ops.divide(ops.add(hi, lo), y))
    k = ops.where(ops.isfinite(k), k, ops.zeros_like(k))
    hi2, lo2 = _minus_product(hi, k, y)
    return ops.add(q, k), ops.add(hi2, ops.add(lo2, lo))


def _minus_product(a, b, c):
    """a - b c as hi + lo, exactly where a and b c are close (Dekker)."""
    p, e = _two_product(b, c)
    hi = ops.subtract(a, p)
    return hi, ops.negative(ops.add(e, ops.subtract(ops.subtract(a, hi), p)))


def _two_product(a, b):
    split = 134217729.0 if a.dtype.itemsize == 8 else 4097.0
    p = ops.multiply(a, b)
    ah, al = _split(a, split)
    bh, bl = _split(b, split)
    e = ops.add(ops.add(ops.subtract(ops.multiply(ah, bh), p),
                        ops.add(ops.multiply(ah, bl), ops.multiply(al, bh))),
                ops.multiply(al, bl))
    return p, e


def _split(a, factor):
    t = ops.multiply(a, factor)
    high = ops.subtract(t, ops.subtract(t, a))
    high = ops.where(ops.isfinite(high), high, a)
    return high, ops.subtract(a, high)


def _warn_accuracy(x, y):
    q = ops.divide(x, y)
    lost = ops.logical_and(ops.isfinite(q),
                           ops.greater(ops.multiply(ops.abs(q), C_EPS), 1))
    if not symbolic(lost) and bool(ops.any(lost).numpy()):
        rs.warn("probable complete loss of accuracy in modulus")


def _logic(generic, e1, e2, na1, na2):
    shape = rs.layout(e1, e2, arith=False, what=generic)
    (v1, m1), (v2, m2) = (truth(rs.recycle(e, shape), rs.recycle(na, shape)
                                 if na is not None else None)
                          for e, na in ((e1, na1), (e2, na2)))
    out = getattr(ops, LOGIC[generic])(v1, v2)
    if symbolic(out) or (m1 is None and m2 is None):
        return out
    settled = None   # where one side alone decides: FALSE for &, TRUE for |
    for v, m in ((v1, m1), (v2, m2)):
        decides = ops.logical_not(v) if generic == "&" else v
        if m is not None:
            decides = ops.logical_and(decides, ops.logical_not(m))
        settled = decides if settled is None else ops.logical_or(settled,
                                                                 decides)
    return with_mask(out, ops.logical_and(_either(m1, m2),
                                          ops.logical_not(settled)))


def truth(x, na):
    """(x as logical values, its NA mask or None): numbers are TRUE where
    not 0, NA where NA or NaN."""
    t = rs.r_type(x)
    if t == LOGICAL:
        return (x if isinstance(x, rs.Tensor) else bool(x)), na
    missing = rs.missing(x)
    value = ops.not_equal(x, 0) if isinstance(x, rs.Tensor) else x != 0
    if missing is not None and isinstance(x, rs.Tensor):
        value = ops.logical_and(value, ops.logical_not(missing))
    return value, missing


def _either(a, b):
    if a is None or b is None:
        return b if a is None else a
    return ops.logical_or(a, b)


def _float_dtype(x, y):
    for e in (x, y):
        if isinstance(e, rs.Tensor) and e.dtype.kind == "f":
            return e.dtype.name
    return "float64"


def _tensors(dtype, *values):
    return tuple(v if isinstance(v, rs.Tensor) else
                 rs.pycg.convert_to_tensor(v, dtype) for v in values)
