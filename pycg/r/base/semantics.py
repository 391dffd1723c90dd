"""Base R's semantics where R values meet tensors: the one place that decides
the shape, type and NA of a result, as R's arithmetic.c does for R's
vectors. The R package's operators (pycg/r/base/arith.py), its Math and Summary
groups, pmax()/pmin() (pycg/r/base/rmath.py, pycg/r/base/summary.py), ifelse()'s values
and `[<-`'s value all go through it.

Shapes. A tensor stands for the R value it converts to: a tensor of 0 or 1
axes for an R vector of its length, one of 2 or more axes for an R array
with those dims (the tensor holds element [i, j] where R does). Two values:

- two arrays: equal dims, else R's error "non-conformable arrays";
- an array and a vector: the array's dims; the vector recycled along the
  array's elements in R's column-major order (an array of length 1 against
  a longer vector is a vector, with R's deprecation warning);
- two vectors: as long as the longer (0 if either is empty);

with R's warning "longer object length is not a multiple of shorter object
length" where the lengths do not divide. Two tensors follow the same rule
as an R value and a tensor (R's operators are R's, whatever the operands);
the op_*() functions keep keras.ops' (NumPy's) broadcasting. A recycled
value's gradient sums over the positions it was recycled to (a gather).

Types. R's four, by dtype: bool is logical; int8-int32 and uint8-uint16
integer; other integers and floats double; complex complex. A result has
R's type; a double one the float dtype of its tensor operands (float64
where none is floating). R data (`weak`) takes the dtype of a float tensor
beside it, as an R number does.

NA. R's NA_real_ is a NaN with the payload 1954, and tensors keep it: R's
data crosses with its bits (pycg/r/codec.py), arithmetic carries the
payload along as R's own does (R documents that NA and NaN may swap where
both are involved), and the Math group keeps x where x is NaN, as R does.
An integer NA is -2**31, R's bit pattern of NA_integer_. A logical NA has
no room in a bool tensor: a mask beside it (pycg/r/base/na.py).
"""
import math
import warnings

import numpy as np

import pycg
from pycg.tensor import Tensor

ops = pycg.ops

LOGICAL, INTEGER, DOUBLE, COMPLEX = range(4)
INT_NA = -2**31
INT_MAX = 2**31 - 1
NA_BITS = 0x7FF80000000007A2   # R's NA_real_, quiet (its low word is 1954)
NA_REAL = float(np.array(NA_BITS, dtype=np.uint64).view(np.float64))

NOT_MULTIPLE = ("longer object length is not a multiple of shorter object "
                "length")
ARRAY_OF_ONE = ("Recycling array of length 1 in {} arithmetic is "
                "deprecated.\n  Use c() or as.vector() instead.\n")
WAY_OUT = ("op_add(), op_multiply(), op_maximum() and the other op_*() "
           "functions broadcast as NumPy does")


class BaseRError(ValueError):
    """An error base R would raise, in its words, raised by pycg's base R
    on tensors (the R package's operators and functions): R shows it as an
    R error. Not `pycg.r.RError`, an error that R code itself signalled
    (pycg/r/conditions.py)."""


def quiet(fn):
    """fn with NumPy's floating-point warnings off: R's own warnings are
    the ones raised here."""
    def quieted(*args, **kwargs):
        with np.errstate(all="ignore"):
            return fn(*args, **kwargs)
    quieted.__name__ = quieted.__qualname__ = fn.__name__
    quieted.__doc__ = fn.__doc__
    return quieted


def warn(message):
    warnings.warn(message, RuntimeWarning, stacklevel=3)


def r_type(x):
    """R's type of a tensor or Python number (LOGICAL ... COMPLEX)."""
    if isinstance(x, Tensor):
        kind, size = x.dtype.kind, x.dtype.itemsize
        if kind == "b":
            return LOGICAL
        if kind == "i" and size <= 4 or kind == "u" and size <= 2:
            return INTEGER
        return COMPLEX if kind == "c" else DOUBLE
    if isinstance(x, (bool, np.bool_)):
        return LOGICAL
    if isinstance(x, (int, np.integer)):
        return INTEGER
    return COMPLEX if isinstance(x, complex) else DOUBLE


def length(x):
    return int(np.prod(x.shape)) if isinstance(x, Tensor) else 1


def dims(x):
    """R's dim(): the shape of a tensor of 2 or more axes, else None."""
    return tuple(x.shape) if isinstance(x, Tensor) and x.ndim >= 2 else None


def layout(e1, e2, arith=True, what="op"):
    """The shape of e1 <what> e2 by R's rules (see the module), with R's
    warnings; `arith` for the arithmetic operators, whose array of length 1
    beside a longer vector counts as a vector."""
    for a, b in ((e1, e2), (e2, e1)):   # an R number beside a tensor, or
        if isinstance(a, Tensor) and (not isinstance(b, Tensor) or  # alike
                                      tuple(a.shape) == tuple(b.shape)):
            return tuple(a.shape)
    if any(d is None for e in (e1, e2) for d in e.shape):
        raise BaseRError(f"`{what}`: R's recycling needs the shapes of both "
                     f"tensors, and this trace has unknown dims "
                     f"{tuple(e1.shape)} and {tuple(e2.shape)}; {WAY_OUT}")
    n1, n2 = length(e1), length(e2)
    d1, d2 = dims(e1), dims(e2)
    if arith and (d1 is None) != (d2 is None):
        if d1 is not None and n1 == 1 and n2 != 1:
            if n2:
                warn(ARRAY_OF_ONE.format("array-vector"))
            d1 = None
        if d2 is not None and n2 == 1 and n1 != 1:
            if n1:
                warn(ARRAY_OF_ONE.format("vector-array"))
            d2 = None
    if d1 is not None and d2 is not None:
        if d1 != d2:
            raise BaseRError(f"`{what}`: non-conformable arrays: dims "
                         f"{r_dims(d1)} and {r_dims(d2)} (R's operators "
                         f"follow base R; {WAY_OUT})")
        shape = d1
    elif d1 is not None and (n2 or not n1):
        shape = d1
    elif d2 is not None and (n1 or not n2):
        shape = d2
    else:
        shape = None
    n = max(n1, n2) if n1 and n2 else 0
    if n1 and n2 and max(n1, n2) % min(n1, n2):
        warn(NOT_MULTIPLE)
    if shape is not None:
        if math.prod(shape) != n:
            raise BaseRError(f"`{what}`: dims [product {math.prod(shape)}] do "
                         f"not match the length of object [{n}] (R's "
                         f"operators follow base R; {WAY_OUT})")
        return shape
    vector = any(isinstance(e, Tensor) and e.ndim for e in (e1, e2))
    return (n,) if n != 1 or vector else ()


def r_dims(d):
    return "c(" + ", ".join(str(k) for k in d) + ")"


def r_ravel(x):
    """The elements of x (a tensor) in R's (column-major) order, 1-d."""
    if not isinstance(x, Tensor):
        x = pycg.convert_to_tensor(x)
    if x.ndim > 1:
        x = ops.transpose(x)
    return ops.reshape(x, (-1,))


def from_r_order(flat, shape):
    """A 1-d tensor of elements in R's order, laid out as `shape`."""
    if len(shape) < 2:
        return ops.reshape(flat, shape)
    return ops.transpose(ops.reshape(flat, tuple(reversed(shape))))


def recycle(x, shape):
    """x's elements recycled, in R's column-major order, to fill `shape` (or
    a shape that broadcasts to it, for the op that uses it)."""
    if not isinstance(x, Tensor) or tuple(x.shape) == tuple(shape):
        return x
    m, n = length(x), math.prod(shape)
    if m == 1:
        return ops.reshape(x, ())
    flat = r_ravel(x)
    if m == n:
        return from_r_order(flat, shape)
    for k in range(1, len(shape)):
        if math.prod(shape[:k]) == m:   # along the first axes: a broadcast
            head = from_r_order(flat, shape[:k])
            return ops.reshape(head, tuple(shape[:k]) + (1,) * (len(shape) - k))
    at = np.arange(n, dtype=np.int64) % m if m else np.zeros(0, np.int64)
    return from_r_order(ops.take(flat, at, axis=0), shape)


def filled(x, shape, dtype):
    """x recycled to a tensor of `shape` (as rep(x, length.out = n) does:
    no warning); an empty x gives NA."""
    if not isinstance(x, Tensor):
        return ops.full(shape, x, dtype=dtype)
    if not length(x):
        na = {"b": False, "i": INT_NA}.get(np.dtype(dtype).kind, NA_REAL)
        return ops.full(shape, na, dtype=dtype)
    out = recycle(x, shape)
    return out if tuple(out.shape) == tuple(shape) else \
        ops.broadcast_to(out, shape)


def result_dtype(rtype, operands, weak=()):
    """The dtype of a result of R type `rtype` (LOGICAL ... COMPLEX) made
    from `operands`: a double takes the widest float dtype among the tensors
    that are not R data (`weak` flags, one per operand), else among all,
    else float64; a complex one likewise. (A NumPy dtype.)"""
    if rtype <= INTEGER:
        return _BOOL if rtype == LOGICAL else _INT32
    kind = "c" if rtype == COMPLEX else "f"
    flags = _flags(weak, operands)
    best = best_weak = None
    for e, w in zip(operands, flags):
        if isinstance(e, Tensor):
            d = e.dtype
            if d.kind == kind:
                if not w and (best is None or d.itemsize > best.itemsize):
                    best = d
                if best_weak is None or d.itemsize > best_weak.itemsize:
                    best_weak = d
    found = best if best is not None else best_weak
    if found is not None:
        return found
    return _COMPLEX128 if rtype == COMPLEX else _FLOAT64


_BOOL, _INT32 = np.dtype("bool"), np.dtype("int32")
_FLOAT64, _COMPLEX128 = np.dtype("float64"), np.dtype("complex128")


def _flags(weak, operands):
    return list(weak) + [False] * (len(operands) - len(weak))


def coerce(x, rtype, dtype, na=None):
    """x as R type `rtype` in `dtype`, R's NA kept: a logical NA (`na`, a
    mask) becomes NA_integer_ or NA_real_, an integer NA NA_real_."""
    if not isinstance(x, Tensor):
        if na is not None and bool(np.asarray(na)):
            return INT_NA if rtype == INTEGER else NA_REAL
        if isinstance(x, float) and x != x:   # R's NA arrives signalling
            return NA_REAL if is_na(x) else float("nan")
        return (bool, int, float, complex)[rtype](x)
    if x.dtype == dtype:
        return x
    out = ops.cast(x, dtype)
    if rtype >= DOUBLE and r_type(x) == INTEGER:
        out = ops.where(ops.equal(x, INT_NA), NA_REAL, out)
    if na is not None and r_type(x) == LOGICAL and rtype >= INTEGER:
        out = ops.where(na, INT_NA if rtype == INTEGER else NA_REAL, out)
    return out


def as_double(x, na=None):
    """x as a double tensor (its float dtype, else float64), NA kept; a
    complex x stays complex."""
    if not isinstance(x, Tensor):
        x = pycg.convert_to_tensor(np.asarray(x))
    top = max(r_type(x), DOUBLE)
    return coerce(x, top, result_dtype(top, [x]), na)


def host_missing(x):
    """Where a concrete x is NA (or NaN), as a NumPy array; None for a
    logical x (its mask says it)."""
    t = r_type(x)
    if t == LOGICAL:
        return None
    a = np.asarray(x)
    return np.isnan(a) if t >= DOUBLE else a == INT_NA


def missing(x):
    """Where x is NA (or NaN): a boolean tensor, or None where it cannot be."""
    t = r_type(x)
    if t == LOGICAL:
        return None
    if not isinstance(x, Tensor):
        return np.bool_(x != x) if t >= DOUBLE else np.bool_(x == INT_NA)
    return ops.isnan(x) if t >= DOUBLE else ops.equal(x, INT_NA)


def is_na(x):
    """Where x holds R's NA (not another NaN): a NumPy array."""
    a = np.asarray(x.numpy() if isinstance(x, Tensor) else x)
    if a.dtype.kind != "f":
        return np.zeros(a.shape, bool)
    bits = a.astype(np.float64).view(np.uint64)
    return np.isnan(a) & ((bits & 0xFFFFFFFF) == 1954)
