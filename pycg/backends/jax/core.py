"""The jax backend's value types and dtypes, conversion, Python numbers as
scalars of a value's dtype, variables and host calls.

JAX keeps 64-bit values only in its 64-bit mode (`jax_enable_x64`); pycg
does not switch it on for you (it is JAX's global configuration, and
yours). With it off, a 64-bit dtype (float64, int64, uint64, complex128)
asked of this backend is a TypeError saying so, never a value silently
truncated to 32 bits.
"""
import contextlib
import operator
import threading

import jax
import jax.numpy as jnp
import numpy as np

from pycg.backends import EXTRA_FLOATS as _EXTRA_FLOATS
from pycg.backends import kernels as _kernels

float_dtypes = tuple(np.dtype(d) for d in ("float16", "float32", "float64")
                     + _EXTRA_FLOATS)
complex_dtypes = (np.dtype("complex64"), np.dtype("complex128"))
_WIDE = frozenset(np.dtype(d) for d in ("float64", "int64", "uint64",
                                        "complex128"))

# (jaxlib's ArrayImpl; made at compile time: this module may load while a
# jax.jit or jax.grad traces, where jnp.zeros(()) is the trace's tracer, and
# a tracer's type here would let _cached() keep tracers that outlive their
# trace)
def _array_types():
    with jax.ensure_compile_time_eval():
        return frozenset((type(jnp.zeros(())),))


types = _array_types()
float_types = frozenset()   # (an array's type says nothing of its dtype)
weak_caches = {}
dtype_key = operator.attrgetter("dtype")


def owns(value):
    return type(value) in types or isinstance(value, jax.Array)


def _traced(value):
    """A JAX tracer (inside jax.jit, jax.grad, jax.vmap): no value yet."""
    return isinstance(value, jax.core.Tracer)


def _check_width(dtype):
    """dtype as a np.dtype, or a TypeError where it is 64-bit and JAX's
    64-bit mode is off (JAX would truncate it to 32 bits)."""
    dtype = np.dtype(dtype)
    if dtype in _WIDE and not jax.config.jax_enable_x64:
        raise TypeError(
            f"pycg (jax backend): {dtype.name} needs JAX's 64-bit mode, "
            f"which is off (JAX would silently make it "
            f"{dtype.name.replace('64', '32').replace('128', '64')}); "
            f"call jax.config.update('jax_enable_x64', True) at start-up "
            f"(or set JAX_ENABLE_X64=1), or use a 32-bit dtype. pycg does "
            f"not change JAX's configuration for you")
    return dtype


# ---- conversion ---------------------------------------------------------
def convert(value, dtype=None):
    if owns(value):
        return value if dtype is None else cast(value, dtype)
    a = np.asarray(value, dtype=dtype)
    _check_width(a.dtype)
    if getattr(_watch, "watcher", None) is not None:
        with jax.ensure_compile_time_eval():   # (a constant, not a tracer:
            return jnp.asarray(a)               # a moved variable's value)
    return jnp.asarray(a)


def own(value):
    """A user's array as a value that shares no memory with it (its owner
    may write to it later: jnp.asarray shares a large NumPy array's buffer
    on the CPU; a jax.Array is immutable, kept as it is)."""
    return value if owns(value) else convert(np.array(value))


def cast(x, dtype):
    dtype = _check_width(dtype)
    return x if x.dtype == dtype else x.astype(dtype)


def to_numpy(x):
    if _traced(x):
        raise TypeError(
            "pycg: this tensor is traced by JAX (inside pycg.function on "
            "the jax backend, jax.jit, jax.grad, jax.vmap or pycg.to_jax) and "
            "has no value yet; use pycg ops on it instead of converting it "
            "to NumPy, and call a pycg function under jax.grad, jax.jit or "
            "jax.vmap through pycg.to_jax(f)")
    return np.array(x)   # (a writable copy, as TensorFlow's .numpy())


def stop_gradient(x):   # (a JAX op only where JAX may differentiate)
    return x if type(x) in types else jax.lax.stop_gradient(x)


def dtype_of(x):
    return x.dtype


# ---- Python numbers as scalars ----------------------------------------------
_scalars = {}


def scalar(value, dtype):
    dtype = _check_width(dtype)
    return _cached(value, dtype)


def _cached(number, dt):
    key = (number, type(number), dt) if number else (repr(number), dt)
    c = _scalars.get(key)
    if c is None:
        if getattr(_watch, "watcher", None) is not None:   # (pycg.function)
            with jax.ensure_compile_time_eval():
                c = jnp.asarray(dt.type(number))
        else:
            c = jnp.asarray(dt.type(number))
        if type(c) in types:   # (inside jax.jit it is a tracer: not kept)
            if len(_scalars) > 4096:
                _scalars.clear()
            _scalars[key] = c
    return c


def scalar_like(number, x):
    """`number` as a scalar of x's dtype (a weakly typed Python number)."""
    return _cached(number, x.dtype)


def weak_scalar(number, x):
    """scalar_like(number, x) where a Python int or float `number` needs no
    promotion next to x (this backend's value; an int, or x floating); else
    None (the op promotes)."""
    if type(x) not in types:
        return None
    dt = x.dtype
    if dt == np.bool_ or type(number) is float and dt not in float_dtypes:
        return None
    try:
        return _cached(number, dt)
    except OverflowError:   # (the op says which number and dtype)
        return None


_INEXACT = frozenset(float_dtypes + complex_dtypes)


def inexact(x):
    """x (a value of this backend) is floating or complex."""
    return x.dtype in _INEXACT


def grad_like(g, x):
    """g can stand as x's gradient as it is: one type, one floating dtype,
    one shape (else the caller checks and converts)."""
    return type(g) is type(x) and g.dtype == x.dtype and \
        g.dtype in float_dtypes and g.shape == x.shape


# ---- variables: a box per variable whose array assign() replaces ----------
class _Store:
    """A variable's storage: JAX arrays are immutable, so an update puts a
    new array in the same box. pycg.function (compile_jax.py) finds the
    variables a trace uses by their boxes (`watching`) and swaps their
    arrays for the trace's inputs."""

    __slots__ = ("value", "__weakref__")

    def __init__(self, value):
        self.value = value

    @property
    def shape(self):
        return self.value.shape

    @property
    def dtype(self):
        return self.value.dtype


_watch = threading.local()   # .watcher: told of each box a trace touches


@contextlib.contextmanager
def watching(watcher):
    """Within it, this thread's variable boxes report to `watcher`:
    watcher.made_store(store), .read(store), .updating(store) (before the update)."""
    previous = getattr(_watch, "watcher", None)
    _watch.watcher = watcher
    try:
        yield
    finally:
        _watch.watcher = previous


_moves = [0]   # how many variables' arrays left this backend


def moved_away(store):
    """A variable's storage leaves this backend (a backend switch); when it
    comes back it gets a new box, which pycg.function must find again."""
    _moves[0] += 1


def moves():
    """How many variables' arrays left this backend so far."""
    return _moves[0]


def watcher():
    """This thread's watcher (see `watching`), or None."""
    return getattr(_watch, "watcher", None)


def variable(value):
    store = _Store(jnp.asarray(value))
    watcher = getattr(_watch, "watcher", None)
    if watcher is not None:
        watcher.made_store(store)
    return store


def read(store):
    watcher = getattr(_watch, "watcher", None)
    if watcher is not None:
        watcher.read(store)
    return store.value


def _update(store, value):
    watcher = getattr(_watch, "watcher", None)
    if watcher is not None:
        watcher.updating(store)
    store.value = value
    return store


def assign(store, value):
    return _update(store, jnp.asarray(value, dtype=store.dtype))


def assign_add(store, delta):   # (read: a watcher may swap the value first)
    return _update(store, jnp.asarray(read(store) + delta, dtype=store.dtype))


def assign_sub(store, delta):
    return _update(store, jnp.asarray(read(store) - delta, dtype=store.dtype))


def read_and_add(store, delta):
    """(the value before, the store after adding `delta`); the caller holds
    the lock that makes the two one step (jax.jit calls that move a
    variable hold one too)."""
    old = read(store)
    return old, assign_add(store, delta)


# ---- host calls: a NumPy function of concrete values ----------------------
def host_call(fn, args, dtype, shape):
    if not any(_traced(a) for a in args):
        return jnp.asarray(fn(*[np.asarray(a) for a in args]))
    try:
        jax.devices("cpu")
    except RuntimeError:
        raise RuntimeError(
            "pycg (jax backend): a draw or host computation inside a traced "
            "function runs NumPy on the host through jax.pure_callback, which "
            "needs JAX's cpu platform, and JAX_PLATFORMS leaves it out; add "
            "it (e.g. JAX_PLATFORMS=cuda,cpu)") from None
    return jax.pure_callback(
        lambda *a: np.asarray(fn(*a), dtype=dtype),
        jax.ShapeDtypeStruct(tuple(shape), dtype), *args)


def outside_graph():
    """A context where new variables are created eagerly: inside jax.jit
    (pycg.function) a NumPy initial value stays a concrete array."""
    return jax.ensure_compile_time_eval()


__all__ = _kernels(globals())   # (this file's kernels: see backends.kernels)
