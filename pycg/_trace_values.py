"""Python values as pycg.function's traces see them (pycg/compile.py,
pycg/compile_jax.py): a bool, float or complex argument is a constant of
its trace, keyed by type and bits, and five float values bring advice."""
import struct
import warnings


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
