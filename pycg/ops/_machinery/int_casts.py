"""Floats cast to integers with one answer on every backend and CPU.

TensorFlow's answer (x86's, NumPy's and PyTorch's there): NaN, +-inf and a
value outside int32 (outside int64, for int64) become that type's smallest
value, INT_MIN; an 8- or 16-bit type, signed or not, takes the low bits of
that int32 (300.0 as int8 is 44, -1.0 as uint8 255, 3e9 as int16 0).
uint32 and uint64 take the bits of the int32 (int64) answer in the same
way, except that a value in their upper half, [2**31, 2**32) (for uint64
[2**63, 2**64)), is itself: -1.0 as uint32 is 2**32 - 1, 3e9 is 3e9, and
NaN, +-inf, 2**32 and -3e9 are 2**31, INT_MIN's bits (uint64: 2**63).
That is TensorFlow's vectorised kernel on x86, where its answer is one
(its scalar tail, NumPy and PyTorch give 0 for some of those, and they
differ among themselves). JAX clamps instead (3e9 as int32 is 2**31 - 1,
NaN is 0, -1.0 as uint32 is 0), and so do ARM's conversions: here the
answer is written out of backend kernels, so no backend's or CPU's choice
shows through.
"""
import numpy as np

from pycg.backends import finfo
from pycg.tensor import is_float


def applies(source, dtype):
    """Whether a cast from `source` to `dtype` takes this rule."""
    return is_float(source) and dtype.kind in "iu"


def float_to_int(K, v, dtype):
    """`v` (backend K's floats) cast to the integer `dtype` by the rule."""
    with np.errstate(invalid="ignore"):   # (NumPy's cast of NaN, masked)
        return _float_to_int(K, v, dtype)


def _float_to_int(K, v, dtype):
    wide = np.dtype("int64" if dtype.itemsize == 8 else "int32")
    bound = 2.0 ** (8 * wide.itemsize - 1)
    top = float(finfo(K.dtype_of(v)).max)   # (float16 reaches no int32's)
    smallest = K.scalar(int(-bound), wide)
    out = K.where(_within(K, v, -bound, bound, top), K.cast(v, wide),
                  smallest)
    if dtype.kind == "u" and dtype.itemsize == wide.itemsize and \
            top >= bound:
        # (the upper half, [bound, 2 bound): v - bound in the signed type,
        # plus INT_MIN, whose bits as unsigned are v's; float subtraction
        # of a number within a factor 2 is exact)
        upper = K.add(K.cast(K.subtract(v, K.scalar_like(bound, v)), wide),
                      smallest)
        out = K.where(_within(K, v, bound, 2 * bound, top), upper, out)
    return out if wide == dtype else K.cast(out, dtype)


def _within(K, v, low, high, top):
    """Where v is finite, at least `low` and below `high` (the checks that
    v's float type, whose largest finite value is `top`, can fail)."""
    inside = K.isfinite(v)
    if -low <= top:
        inside = K.logical_and(inside, K.greater_equal(
            v, K.scalar_like(low, v)))
    if high <= top:
        inside = K.logical_and(inside, K.less(v, K.scalar_like(high, v)))
    return inside
