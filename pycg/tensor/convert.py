"""What a Python value becomes on the way into a Tensor: its dtype by
Keras' rules, and a clear error for what is not numbers."""
import numbers
import sys

import numpy as np

from pycg import backends, config
from pycg._errors import Api, Shape, Value, user_error

_EXTRA = frozenset(np.dtype(d) for d in backends.EXTRA_FLOATS)   # (bfloat16)
_FLOATS = frozenset(np.dtype(d) for d in (   # (bfloat16: NumPy kind "V")
    "float16", "float32", "float64", "longdouble") + backends.EXTRA_FLOATS)


PYTHON_NUMBERS = (float, int)   # (is_python_number; the ops' hot path)


def is_float(dtype):
    return dtype in _FLOATS or np.dtype(dtype) in _FLOATS


def is_differentiable(dtype):   # floating or complex: gets gradients
    return dtype in _FLOATS or is_float(dtype) or np.dtype(dtype).kind == "c"


def is_python_number(x):
    """The one test for a number that takes a tensor's dtype: a Python int
    or float (Keras' weak types). A bool, a complex and a NumPy scalar are
    typed values and promote like tensors (keras.ops.add(int32 tensor,
    np.float64(0.5)) is float64 [1.5 2.5])."""
    return type(x) in PYTHON_NUMBERS


def python_float_dtype(dtypes):
    """The dtype a Python float takes beside values of these dtypes (None
    for a value that is not an array): the widest floating one, float32
    for float16 with bfloat16, floatx where none is floating. Weak typing,
    as in JAX, PyTorch and Keras: ``f(x, 0.3)`` on a float64 `x` gets 0.3
    in float64, not a float32 0.30000001."""
    floats = {np.dtype(d) for d in dtypes if d is not None and is_float(d)}
    if not floats:
        return np.dtype(config.floatx())
    if len(floats) > 1 and all(d.itemsize == 2 for d in floats):
        return np.dtype("float32")
    return max(floats, key=lambda d: d.itemsize)


def as_dtype(dtype, where):
    """np.dtype(dtype), or a TypeError naming `where` and what arrived."""
    try:
        out = np.dtype(dtype)
    except (TypeError, ValueError):
        out = None
    if out is None or out.kind in "OUSMm" or \
            out.type is np.void:   # (not numbers: no tensor; bfloat16 is
        raise TypeError(            # a "V" kind of its own type)
            f"{where}: dtype {dtype!r:.60} is not a dtype (expected a name "
            f"such as 'float32' or a NumPy dtype)")
    return out


def out_of_range(value, dtype):
    """The error for a Python int (or a list of them) that `dtype` cannot
    hold: an OverflowError, as NumPy's and JAX's, that says why."""
    return OverflowError(
        f"pycg.convert_to_tensor: {value!r:.60} does not fit "
        f"{np.dtype(dtype).name} (Python ints become int32, as in Keras); "
        f"pass floats, or an array of a wider dtype")


def check_numeric(value, dtype):
    if jax_tracer(value):
        raise TypeError(
            f"pycg.convert_to_tensor: a JAX tracer (a value inside jax.jit, "
            f"jax.grad or jax.vmap) reached pycg's "
            f"{backends.active.name!r} backend, which cannot hold it; "
            f"convert the pycg function with pycg.to_jax(f) and use the jax "
            f"backend (pycg.config.set_backend('jax'))")
    try:
        a = np.asarray(value, dtype=dtype)
    except OverflowError:
        raise out_of_range(value, dtype) from None
    except (TypeError, ValueError):   # (strings as a number dtype)
        if isinstance(value, (list, tuple)):
            default_dtype(value)   # (a ragged list: says so)
        a = np.asarray(value, dtype=object)
    # (kind V: bfloat16 and other ml_dtypes types when asked for by name)
    if a.dtype == object or a.dtype.kind in "US" or \
            a.dtype.kind == "V" and dtype is None and a.dtype not in _EXTRA:
        raise TypeError(
            f"pycg.convert_to_tensor: expected numbers or arrays of numbers, "
            f"got {type(value).__name__} {value!r:.60}")
    return a


def default_dtype(value):
    """Keras' rule: Python floats are floatx, Python ints int32."""
    if isinstance(value, np.generic):
        return value.dtype
    if isinstance(value, bool):
        return np.dtype(bool)
    if isinstance(value, numbers.Integral):
        return np.dtype("int32")
    if isinstance(value, numbers.Real):
        return np.dtype(config.floatx())
    if isinstance(value, (list, tuple)):
        try:
            a = np.asarray(value)
        except ValueError as e:
            raise ValueError(
                f"pycg.convert_to_tensor: ragged or mixed nested list "
                f"({e})") from None
        if a.dtype == np.float64:
            return np.dtype(config.floatx())
        if a.dtype == np.int64:
            return np.dtype("int32")
        return None
    return None


def broadcasts(shape, target):
    """Whether `shape` broadcasts to `target` (a Variable update's delta)."""
    try:
        return np.broadcast_shapes(shape, target) == tuple(target)
    except (ValueError, TypeError):   # (TypeError: an unknown dimension)
        return False


def scalar(K, value, dtype):
    """A Python number as backend K's scalar of `dtype`."""
    try:
        return K.scalar(value, dtype)
    except OverflowError:
        raise out_of_range(value, dtype) from None


def backend_of(value):
    """The backend module whose array type `value` is (NumPy's first)."""
    return backends.numpy if backends.numpy.owns(value) else \
        backends.for_value(value)


def variable_shape_error(method, what, shape, var, rule):
    """The ValueError of Variable.<method> for a `what` ("value", "delta")
    of `shape` that the variable cannot take; `rule` ends the sentence,
    with {to} for the variable's shape and {who} for the variable."""
    who = "variable {name}" if var.name else "the variable"
    return user_error(ValueError, "{api}: " + what + " has shape {shape}" +
                      rule.replace("{who}", who), api=Api(f"Variable.{method}"),
                      shape=Shape(shape), to=Shape(var.shape),
                      name=Value(var.name))


def jax_tracer(value):
    """A JAX tracer (asked without importing JAX: none exists before)."""
    jax = sys.modules.get("jax")
    return jax is not None and isinstance(value, jax.core.Tracer)
