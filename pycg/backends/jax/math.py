"""JAX kernels of the special functions, integer and bit ops, sorting and
searching, Fourier transforms, complex parts and dimensions known only
while tracing (keras.ops math names). The gamma family, beta and the
binomial coefficients are the shared algorithms (pycg/backends/_gamma.py
and _beta.py, compiled once per power-of-two length; JAX's polygamma is wrong for
negative x), in float64 where 64-bit mode is on, else float32."""
import builtins
from functools import partial as _partial

import jax
import jax.numpy as jnp
import jax.scipy.special as _special
import numpy as np

from pycg.backends import _beta, _gamma
from pycg.backends import _numpy_like
from pycg.backends import kernels as _kernels

arccosh = jnp.arccosh
arcsinh = jnp.arcsinh
arctanh = jnp.arctanh
cbrt = jnp.cbrt
exp2 = jnp.exp2
erf = _special.erf
erfc = _special.erfc
erfinv = _special.erfinv
isinf = jnp.isinf
isneginf = jnp.isneginf
isposinf = jnp.isposinf
signbit = jnp.signbit
gcd = jnp.gcd
lcm = jnp.lcm
bitwise_and = jnp.bitwise_and
bitwise_or = jnp.bitwise_or
bitwise_xor = jnp.bitwise_xor
bitwise_invert = jnp.invert
left_shift = jnp.left_shift
right_shift = jnp.right_shift
nextafter = jnp.nextafter
logical_xor = jnp.logical_xor


def floor_divide(x, y):
    """TensorFlow's FloorDiv: floor(x / y) for floats (NumPy's floor_divide
    rounds the exact quotient: -1.2 // 0.4 is -4 there and -3 here); integers
    and bools as NumPy (bools in int8, a division by zero is 0; JAX gives
    int32 and -1 or -2 there)."""
    if x.dtype.kind in "fcV":
        return jnp.floor(jnp.true_divide(x, y))
    x, y = _numpy_ints(x, y)
    zero = y == 0
    return jnp.where(zero, 0, jnp.floor_divide(x, jnp.where(zero, 1, y)))


def _numpy_ints(x, y):
    """Bools as NumPy's integer maths takes them: int8."""
    return tuple(v.astype(np.int8) if v.dtype == np.bool_ else v
                 for v in (x, y))


def trunc(x):
    return x if x.dtype.kind in "iub" else jnp.trunc(x)


def i0(x):
    return _special.i0(x).astype(x.dtype)


def i1(x):
    return _special.i1(x).astype(x.dtype)


# ---- sorting and searching ----------------------------------------------
def argsort(x, axis):
    return jnp.argsort(x, axis=axis, stable=True).astype(np.int32)


def top_k_indices(x, k):
    """Indices of the k largest along the last axis, lower index first on
    ties (as tf.math.top_k), NaN last (as the numpy backend)."""
    key = ~x if x.dtype.kind in "biu" else -x   # (~x = -x - 1: no overflow)
    order = jnp.argsort(key, axis=-1, stable=True)
    return order[..., :k].astype(np.int32)


def cumprod(x, axis):
    return jnp.cumprod(x, axis=axis,
                       dtype=np.int32 if x.dtype == np.bool_ else x.dtype)


def isin(x1, x2):
    return jnp.isin(x1, x2)


def searchsorted(seq, values, side):
    return jnp.searchsorted(seq, values, side=side).astype(np.int32)


def bincount(x, weights, minlength):
    length = builtins.max(int(minlength), int(jnp.max(x)) + 1 if x.size else 0)
    return jnp.bincount(x, weights, minlength, length=length)



# ---- Fourier transforms on (real, imaginary) stacked on axis 0 -------------
def to_complex_pair(z):
    return jax.lax.complex(z[0], z[1])


def _pair(c, dtype):
    return jnp.stack([c.real, c.imag]).astype(dtype)


def _complex(z):
    """z as complex numbers: float16 and bfloat16 through float32 (JAX
    makes complex numbers of float32 and float64 only)."""
    return to_complex_pair(z if z.dtype in (np.float32, np.float64)
                           else z.astype(np.float32))


def fft_pair(z, axes):
    return _pair(jnp.fft.fftn(_complex(z), axes=axes), z.dtype)


def ifft_pair(z, axes):
    return _pair(jnp.fft.ifftn(_complex(z), axes=axes), z.dtype)


# ---- complex parts -------------------------------------------------------
real = jnp.real
imag = jnp.imag
conj = jnp.conj
angle = jnp.angle


def view(x, dtype):
    """ndarray.view: a bitcast, with the last axis merged or split."""
    dtype = np.dtype(dtype)
    a, b = x.dtype.itemsize, dtype.itemsize
    if a == b:
        return jax.lax.bitcast_convert_type(x, dtype)
    if a > b:
        out = jax.lax.bitcast_convert_type(x, dtype)
        return jnp.reshape(out, x.shape[:-1] + (-1,))
    return jax.lax.bitcast_convert_type(
        jnp.reshape(x, x.shape[:-1] + (-1, b // a)), dtype)


# ---- the TensorFlow backend's kernels for dimensions unknown while tracing,
# here for parity (JAX shapes are always known) -------------------------------
# (the same lines as the other NumPy-like backend: backends/_numpy_like.py)
dynamic_dim = _numpy_like.dynamic_dim(jnp)
slice_axis = _numpy_like.slice_axis(jnp)
pad_axis = _numpy_like.pad_axis(jnp)
sum_to = _numpy_like.sum_to(jnp)


# ---- the gamma family, beta and binomial coefficients ----------------------
_JNP = _gamma.Namespace(
    where=jnp.where, log=jnp.log, log1p=jnp.log1p, exp=jnp.exp,
    floor=jnp.floor, round=jnp.round, abs=jnp.abs, sin=jnp.sin, cos=jnp.cos,
    pow=jnp.power, isnan=jnp.isnan, minimum=jnp.minimum,
    maximum=jnp.maximum, barrier=jax.lax.optimization_barrier)
_COMPILED = {f.__name__: jax.jit(_partial(f, _JNP)) for f in (
    _gamma.lgamma, _gamma.digamma, _gamma.gamma, _beta.lbeta, _beta.beta,
    _beta.choose, _beta.lchoose)}
_POLYGAMMA = jax.jit(_partial(_gamma.polygamma, _JNP), static_argnums=0)


def _wide():
    return jnp.result_type(float)   # (float64 in 64-bit mode, else float32)


def _bucketed(compiled, xs):
    """compiled(*xs), broadcast and flattened to a power-of-two length (so
    that a new shape seldom compiles again), in the widest float."""
    shape = jnp.broadcast_shapes(*(x.shape for x in xs))
    size = int(np.prod(shape))
    n = builtins.max(8, 1 << (size - 1).bit_length())
    flat = [jnp.pad(jnp.broadcast_to(x.astype(_wide()), shape).reshape(-1),
                    (0, n - size), constant_values=1.0) for x in xs]
    return compiled(*flat)[:size].reshape(shape).astype(xs[0].dtype)


def _run(name, *xs):
    return _bucketed(_COMPILED[name], xs)


lgamma = _partial(_run, "lgamma")
digamma = _partial(_run, "digamma")
gamma = _partial(_run, "gamma")
lbeta = _partial(_run, "lbeta")
beta = _partial(_run, "beta")
choose = _partial(_run, "choose")
lchoose = _partial(_run, "lchoose")


def polygamma(x, n):
    return _bucketed(_partial(_POLYGAMMA, n), (x,))


__all__ = _kernels(globals())   # (this file's kernels: see backends.kernels)
