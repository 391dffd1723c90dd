"""Python values as pycg.function's traces see them (pycg/compile.py,
pycg/compile_jax.py): a bool, float or complex argument is a constant of
its trace, keyed by type and bits, and five float values bring advice; on
the jax path an object hashed by identity (a method's instance, a
Variable) is keyed by identity and held weakly. And the warning when a
function traces again too often (tf.function's, on both backends)."""
import struct
import threading
import warnings
import weakref

from pycg import backends


class Literal:
    """A Python bool, float or complex argument as the trace caches see it:
    equal to another by type and bits (to tf.function True == 1 == 1.0, so
    f(x, 1.0) after f(x, 1) ran 1's trace; 0.0 == -0.0, and NaN equals
    nothing, so f(x, nan) would trace at every call)."""

    __slots__ = ("value", "_key")

    def __init__(self, value):
        self.value = value
        self._key = (type(value), value if type(value) is bool else
                     struct.pack("<dd", value.real, value.imag))

    def __eq__(self, other):
        return type(other) is Literal and other._key == self._key

    def __hash__(self):
        return hash(self._key)

    def __repr__(self):
        return repr(self.value)


def retrace_advice(function, value):
    """Warn once when a function's traces have taken five different Python
    float values: each new value traces again."""
    if type(value) is not float or function._floats is None:
        return
    function._floats.add(Literal(value))
    if len(function._floats) >= 5:
        function._floats = None   # (said once; the call's retracing
        function._advised = True  # warning would say it again: not then)
        warnings.warn(
            f"pycg.function({function.__name__}) has traced for 5 values of "
            f"a Python float argument; a Python float is a constant of the "
            f"trace (as in tf.function), so each new value traces again: "
            f"pass a value that changes as a tensor "
            f"(pycg.constant(value, dtype=...))", stacklevel=4)


# tf.function's FREQUENT_TRACING_WARNING_MAX_CALL_HISTORY, _THRESHOLD and
# _MAX_WARNING_PER_DETECTOR: 5 traces among about the last 10 calls warn,
# twice at most per function
HISTORY, THRESHOLD, MOST = 10, 5, 2
_RETRACING = threading.Lock()


class _Traced(threading.local):
    def __init__(self):   # traced by this thread, not yet counted (weakly:
        self.functions = weakref.WeakSet()   # a call that raised counts none)


_traced = _Traced()


def tracing(function):
    """A trace of `function` (a pycg.function) begins on this thread."""
    with _RETRACING:
        function.trace_count += 1
    _traced.functions.add(function)


def counted(function):
    """After a call of `function` that saw its trace count change: whether
    this call traced it (another thread's trace counts for that one's
    call), counted with the warning below if it did."""
    if function not in _traced.functions:
        return False
    _traced.functions.discard(function)
    retracing(function, next(function._call_count))
    return True


def retracing(function, c):
    """The `c`-th call of `function` traced: warn as tf.function does when
    5 of its last 10 or so calls traced (its count: a window of whole runs
    of calls, each from one trace to the next). pycg's own on both
    backends, naming the user's function (pycg's tf.functions keep
    TensorFlow's, which would name pycg's internals, quiet)."""
    with _RETRACING:
        at = function._traced_at
        if not at and c > 1:   # (calls before any trace: a run of their
            at.append(1)       # own, as tf.function counts them)
        at.append(c)
        while len(at) > 1 and c - at[1] + 1 > HISTORY:
            del at[0]
        advised, function._advised = function._advised, False
        if len(at) < THRESHOLD or function._retrace_warned >= MOST or \
                advised:
            return
        function._retrace_warned += 1
        n, m = len(at), c - at[0] + 1
    shapes = "pass reduce_retracing=True to pycg.function, which can " \
        "avoid unnecessary retracing" if backends.active.name != "jax" \
        else "the jax backend compiles each shape (as jax.jit): pad the " \
        "inputs to a few shapes"
    warnings.warn(
        f"pycg.function({function.__name__}): {n} out of the last {m} calls "
        f"traced it again. Tracing is expensive, and each trace keeps its "
        f"compiled code in memory; the excessive number of tracings could "
        f"be due to (1) creating pycg.function repeatedly in a loop, (2) "
        f"passing tensors with different shapes, (3) passing Python objects "
        f"instead of tensors. For (1), define the pycg.function outside of "
        f"the loop. For (2), {shapes}. For (3), pass values that change as "
        f"tensors (pycg.constant(value, dtype=...)).", stacklevel=3)


class Held:
    """A static argument hashed by identity (a method's instance, a
    Variable, a function), held weakly: jax.jit's cache of a pycg.function
    does not keep it alive, as tf.function's does not. `forget(ref)` runs
    when it dies."""

    __slots__ = ("ref", "_id")

    def __init__(self, value, forget):
        self.ref, self._id = weakref.ref(value, forget), id(value)

    def __eq__(self, other):
        return type(other) is Held and other._id == self._id and \
            other.ref() is self.ref()

    def __hash__(self):
        return self._id


def static_key(value, forget):
    """A static leaf as a cache key: a float or complex number by type and
    bits, an object hashed by identity held weakly, other values as they
    are (hashable: the caller checked)."""
    if type(value) in (float, complex):
        return Literal(value)
    if type(value).__hash__ is object.__hash__:
        try:
            return Held(value, forget)
        except TypeError:   # (not weakly referable: held as it is)
            return value
    return value


def static_value(key):
    """The argument a static_key stands for."""
    return key.ref() if type(key) is Held else \
        key.value if type(key) is Literal else key


def tree_key(tree):
    """The structure of nested dicts, lists and tuples, without leaves."""
    if isinstance(tree, dict):
        return ("dict",) + tuple((k, tree_key(v)) for k, v in tree.items())
    if isinstance(tree, (list, tuple)):
        return (type(tree),) + tuple(tree_key(v) for v in tree)
    return None
