"""Floats cast to integers with one answer on every backend and CPU.

TensorFlow's answer (x86's, NumPy's and PyTorch's there): NaN, +-inf and a
value outside int32 (outside int64, for int64) become that type's smallest
value, INT_MIN; an 8- or 16-bit type, signed or not, takes the low bits of
that int32 (300.0 as int8 is 44, -1.0 as uint8 255, 3e9 as int16 0). JAX
clamps instead (3e9 as int32 is 2**31 - 1, NaN is 0), and so do ARM's
conversions: here the answer is written out of backend kernels, so no
backend's or CPU's choice shows through. uint32 and uint64 targets keep the
backend's cast (TensorFlow and NumPy differ there; pycg.conventions).
"""
import numpy as np

from pycg.backends import finfo
from pycg.tensor import is_float


def applies(source, dtype):
    """Whether a cast from `source` to `dtype` takes this rule."""
    return is_float(source) and (dtype.kind == "i" or (
        dtype.kind == "u" and dtype.itemsize <= 2))


def float_to_int(K, v, dtype):
    """`v` (backend K's floats) cast to the integer `dtype` by the rule."""
    with np.errstate(invalid="ignore"):   # (NumPy's cast of NaN, masked)
        return _float_to_int(K, v, dtype)


def _float_to_int(K, v, dtype):
    wide = np.dtype("int64" if dtype.itemsize == 8 else "int32")
    inside = K.isfinite(v)
    bound = 2.0 ** (8 * wide.itemsize - 1)
    if float(finfo(K.dtype_of(v)).max) >= bound:   # (float16 never does)
        inside = K.logical_and(inside, K.logical_and(
            K.greater_equal(v, K.scalar_like(-bound, v)),
            K.less(v, K.scalar_like(bound, v))))
    out = K.where(inside, K.cast(v, wide), K.scalar(int(-bound), wide))
    return out if wide == dtype else K.cast(out, dtype)
