"""NumPy kernels of the special functions, integer and bit ops, sorting and
searching, Fourier transforms, complex parts and dimensions known only
while tracing (keras.ops math names)."""
import math
from functools import partial as _partial

import numpy as np

from pycg.backends import _beta, _gamma
from pycg.backends import _numpy_like
from pycg.backends import kernels as _kernels

arccosh = np.arccosh
arcsinh = np.arcsinh
arctanh = np.arctanh
cbrt = np.cbrt
exp2 = np.exp2
_erf = np.frompyfunc(math.erf, 1, 1)
_erfc = np.frompyfunc(math.erfc, 1, 1)
isinf = np.isinf
isneginf = np.isneginf
isposinf = np.isposinf
signbit = np.signbit
gcd = np.gcd
lcm = np.lcm
bitwise_and = np.bitwise_and
bitwise_or = np.bitwise_or
bitwise_xor = np.bitwise_xor
bitwise_invert = np.invert
left_shift = np.left_shift
right_shift = np.right_shift
nextafter = np.nextafter
logical_xor = np.logical_xor


def floor_divide(x, y):
    """TensorFlow's FloorDiv: floor(x / y) for floats (NumPy's floor_divide
    rounds the exact quotient: -1.2 // 0.4 is -4 there and -3 here, and
    inf // 1 is nan there and inf here); integers as NumPy."""
    q = np.true_divide(x, y)
    if q.dtype.kind == "f" and np.result_type(x, y).kind == "f":
        return np.floor(q)
    return np.floor_divide(x, y)


def trunc(x):
    return x if x.dtype.kind in "iub" else np.trunc(x)


def erf(x):
    return np.asarray(_erf(x), dtype=np.asarray(x).dtype)[()]


def erfc(x):
    return np.asarray(_erfc(x), dtype=np.asarray(x).dtype)[()]


_ERFINV_CENTRE = (2.81022636e-08, 3.43273939e-07, -3.5233877e-06,
                  -4.39150654e-06, 0.00021858087, -0.00125372503,
                  -0.00417768164, 0.246640727, 1.50140941)
_ERFINV_TAIL = (-0.000200214257, 0.000100950558, 0.00134934322,
                -0.00367342844, 0.00573950773, -0.0076224613,
                0.00943887047, 1.00167406, 2.83297682)


def erfinv(x):
    # Giles' single-precision polynomials, then Newton steps on erf to
    # double precision (NumPy has no erfinv; SciPy is not a dependency)
    x = np.asarray(x)
    v = x.astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        w = -np.log((1.0 - v) * (1.0 + v))
        centre = np.polyval(_ERFINV_CENTRE, w - 2.5)
        tail = np.polyval(_ERFINV_TAIL, np.sqrt(np.maximum(w, 5.0)) - 3.0)
        y = np.where(w < 5.0, centre, tail) * v
        erf = np.frompyfunc(math.erf, 1, 1)
        inside = np.abs(v) < 1
        for _ in range(3):
            err = np.asarray(erf(np.where(inside, y, 0.0)), np.float64) - \
                np.where(inside, v, 0.0)
            y = np.where(inside, y - err * (math.sqrt(math.pi) / 2)
                         * np.exp(y * y), y)
    y = np.where(np.abs(v) == 1, np.copysign(np.inf, v), y)
    return np.where(np.abs(v) > 1, np.nan, y).astype(x.dtype)[()]


def i0(x):
    return np.i0(x).astype(np.asarray(x).dtype)


def i1(x):
    """The modified Bessel function of order 1, by its power series (all
    terms share x's sign, so no cancellation; NumPy has no i1)."""
    x = np.asarray(x)
    half = x.astype(np.float64) / 2
    term = half.copy()
    total = half.copy()
    k = 0
    with np.errstate(over="ignore", invalid="ignore"):
        while np.any(np.abs(term) > 1e-17 * np.abs(total)) and k < 1000:
            term = term * half * half / ((k + 1) * (k + 2))
            total = total + term
            k += 1
    return total.astype(x.dtype)[()]


# ---- the gamma family, beta and binomial coefficients: NumPy has none, so
# the shared algorithms (pycg/backends/_gamma.py, _beta.py), in float64 ------------
def _in_float64(fn, *xs):
    return _gamma.on_host(fn, *xs).astype(np.asarray(xs[0]).dtype)[()]


lgamma = _partial(_in_float64, _gamma.lgamma)
digamma = _partial(_in_float64, _gamma.digamma)
gamma = _partial(_in_float64, _gamma.gamma)
lbeta = _partial(_in_float64, _beta.lbeta)
beta = _partial(_in_float64, _beta.beta)
choose = _partial(_in_float64, _beta.choose)
lchoose = _partial(_in_float64, _beta.lchoose)


def polygamma(x, n):
    return _in_float64(lambda xp, v: _gamma.polygamma(xp, n, v), x)


def argsort(x, axis):
    return np.argsort(x, axis=axis, kind="stable").astype(np.int32)


def top_k_indices(x, k):
    """Indices of the k largest along the last axis, lower index first on
    ties (as tf.math.top_k)."""
    order = np.argsort(_descending_key(x), axis=-1, kind="stable")
    return order[..., :k].astype(np.int32)


def _descending_key(x):
    if x.dtype.kind == "b":
        return ~x
    if x.dtype.kind == "u":
        return np.iinfo(x.dtype).max - x
    return -x.astype(np.int64) if x.dtype.kind == "i" else -x.astype(
        np.float64)   # (floats, bfloat16 included)


def cumprod(x, axis):
    dt = np.int32 if x.dtype.kind == "b" else x.dtype
    return x.cumprod(axis=axis, dtype=dt)   # (a warning then names pycg)


def isin(x1, x2):
    return np.isin(x1, x2)


def searchsorted(seq, values, side):
    return np.searchsorted(seq, values, side=side).astype(np.int32)


def bincount(x, weights, minlength):
    return np.bincount(x, weights, minlength)


# ---- Fourier transforms on (real, imaginary) stacked on axis 0 -------------
def to_complex_pair(z):
    # (built from its parts: z[0] + 1j * z[1] made inf * 0, a NaN real part,
    # of an infinite imaginary part, and lost the sign of a zero)
    out = np.empty(z.shape[1:], np.result_type(z.dtype, np.complex64))
    out.real, out.imag = z[0], z[1]
    return out


def _pair(c, dtype):
    return np.stack([c.real, c.imag]).astype(dtype)


def fft_pair(z, axes):
    if 0 in z.shape:   # (np.fft refuses no points; TensorFlow: nothing)
        return z
    return _pair(np.fft.fftn(to_complex_pair(z), axes=axes), z.dtype)


def ifft_pair(z, axes):
    if 0 in z.shape:
        return z
    return _pair(np.fft.ifftn(to_complex_pair(z), axes=axes), z.dtype)


# ---- complex parts -------------------------------------------------------
real = np.real
imag = np.imag
conj = np.conj
angle = np.angle


def view(x, dtype):
    return np.ascontiguousarray(x).view(dtype)




# ---- the TensorFlow backend's kernels for dimensions unknown while tracing,
# here for parity (NumPy shapes are always known) -----------------------------
# (the same lines as the other NumPy-like backend: backends/_numpy_like.py)
dynamic_dim = _numpy_like.dynamic_dim(np)
slice_axis = _numpy_like.slice_axis(np)
pad_axis = _numpy_like.pad_axis(np)
sum_to = _numpy_like.sum_to(np)


__all__ = _kernels(globals())   # (this file's kernels: see backends.kernels)
