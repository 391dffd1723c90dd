"""Python values as pycg.function's traces see them (pycg/compile.py,
pycg/compile_jax.py): a bool, float or complex argument is a constant of
its trace, keyed by type and bits, and five float values bring advice; on
the jax path an object hashed by identity (a method's instance, a
Variable) is keyed by identity and held weakly."""
import struct
import warnings
import weakref


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
        function._floats = None   # (said once)
        warnings.warn(
            f"pycg.function({function.__name__}) has traced for 5 values of "
            f"a Python float argument; a Python float is a constant of the "
            f"trace (as in tf.function), so each new value traces again: "
            f"pass a value that changes as a tensor "
            f"(pycg.constant(value, dtype=...))", stacklevel=4)


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
