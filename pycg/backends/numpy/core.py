"""The numpy backend's value types and dtypes, conversion, Python numbers
as scalars of a value's dtype (cached: a NumPy scalar costs ~0.2 us to
make), variables (storage that assign() replaces) and host calls (a NumPy
function of concrete values)."""
import contextlib
import operator

import numpy as np

from pycg.backends import EXTRA_FLOATS as _EXTRA_FLOATS
from pycg.backends import kernels as _kernels

float_dtypes = tuple(np.dtype(d) for d in ("float16", "float32", "float64")
                     + _EXTRA_FLOATS)
complex_dtypes = (np.dtype("complex64"), np.dtype("complex128"))


# types whose values this backend owns, for a fast `type(v) in types` test
types = frozenset([np.ndarray] + [t for t in set(np.sctypeDict.values())])


# a value's dtype as a key to compare, for values of `types`
dtype_key = operator.attrgetter("dtype")


def owns(value):
    return type(value) in types or isinstance(value, (np.ndarray, np.generic))


def scalar(value, dtype):
    return np.dtype(dtype).type(value)


_scalars = {}


def scalar_like(number, x):
    """`number` as a scalar of x's dtype (a weakly typed Python number)."""
    dt = x.dtype
    key = (number, type(number), dt) if number else (repr(number), dt)
    c = _scalars.get(key)
    if c is None:
        if len(_scalars) > 4096:
            _scalars.clear()
        c = _scalars[key] = dt.type(number)
    return c


# value types whose type alone says they are floating (and of which dtype)
float_types = frozenset((np.float16, np.float32, np.float64))
# float scalar type -> {nonzero Python number: scalar}: a float scalar's
# type is its dtype, so the hot case needs no dtype read (~35 ns) or hash
# (ops read it directly for the hot case, then call weak_scalar: a call
# fewer on each number op, 2.5% of the scalar chain). An int and a float
# share a key only when equal, and then give the same scalar; a zero is
# never a key (-0.0 == 0).
weak_caches = {t: {} for t in float_types}


def weak_scalar(number, x):
    """scalar_like(number, x) where a Python int or float `number` needs no
    promotion next to x (this backend's value; an int, or x floating); else
    None (the op promotes)."""
    cache = weak_caches.get(type(x))
    try:
        if cache is not None and number:   # (a zero: -0.0 == 0 as a key)
            c = cache.get(number)
            if c is None:
                if len(cache) > 4096:
                    cache.clear()
                c = cache[number] = type(x)(number)
            return c
        if type(x) not in types or type(number) is float and \
                x.dtype not in float_dtypes:
            return None
        c = scalar_like(number, x)
    except OverflowError:   # (the op says which number and dtype)
        return None
    return None if type(c) is np.bool_ else c   # (bool and int: int32)


_INEXACT = frozenset(float_dtypes + complex_dtypes)


def inexact(x):
    """x (a value of this backend) is floating or complex (one hash lookup:
    `in` a tuple compares dtypes one by one)."""
    return type(x) in float_types or x.dtype in _INEXACT


def grad_like(g, x):
    """g can stand as x's gradient as it is: one type, one floating dtype,
    one shape (else the caller checks and converts)."""
    t = type(g)   # (a float scalar's type is its dtype, its shape ())
    return t is type(x) and (t in float_types or g.dtype is x.dtype and
                             g.dtype in float_dtypes and g.shape == x.shape)


# ---- conversion ---------------------------------------------------------
def convert(value, dtype=None):
    return np.asarray(value, dtype=dtype)


def own(value):
    """A user's array as a value that shares no memory with it (its owner
    may write to it later; a NumPy scalar is immutable, kept as it is)."""
    return np.array(value) if isinstance(value, np.ndarray) else value


def cast(x, dtype):
    return np.asarray(x).astype(dtype, copy=False)


def to_numpy(x):
    return np.asarray(x)


def stop_gradient(x):
    return x


def dtype_of(x):
    return x.dtype


# ---- variables: storage that assign() replaces ---------------------------
# A 0-d store is a NumPy scalar, as a 0-d constant is: an op on a 0-d array
# costs about 13 times as much as on a scalar (1.45 against 0.11 us for a
# float32 add), with the same bits.
def _stored(a):
    return a[()] if a.ndim == 0 else a


def variable(value):
    return _stored(np.array(value))


def read(store):
    return store


def assign(store, value):
    return _stored(np.array(value, dtype=store.dtype))


def assign_add(store, delta):
    return _stored(np.array(store + delta, dtype=store.dtype))


def assign_sub(store, delta):
    return _stored(np.array(store - delta, dtype=store.dtype))


def read_and_add(store, delta):
    """(the value before, the store after adding `delta`); the caller holds
    the lock that makes the two one step."""
    return store, assign_add(store, delta)


# ---- host calls: a NumPy function of concrete values ----------------------
def host_call(fn, args, dtype, shape):
    return fn(*[np.asarray(a) for a in args])


def outside_graph():
    """A context where new variables are created eagerly (no graphs here)."""
    return contextlib.nullcontext()


__all__ = _kernels(globals())   # (this file's kernels: see backends.kernels)
