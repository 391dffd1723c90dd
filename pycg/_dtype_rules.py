"""Conversion rules of the values layer: what a dtype argument may be,
which Python and NumPy values are numbers, and the dtype a value gets by
default (Keras' rule). Used by pycg.tensor."""
import numbers

import numpy as np

from pycg import config


def as_dtype(dtype, where):
    """np.dtype(dtype), or a TypeError naming `where` and what arrived."""
    try:
        return np.dtype(dtype)
    except TypeError:
        raise TypeError(
            f"{where}: dtype {dtype!r} is not a dtype (expected a name such "
            f"as 'float32' or a NumPy dtype)") from None


def out_of_range(value, dtype):
    """The error for a Python int (or a list of them) that `dtype` cannot
    hold, where NumPy would raise a bare OverflowError."""
    return ValueError(
        f"pycg.convert_to_tensor: {value!r:.60} does not fit "
        f"{np.dtype(dtype).name} (Python ints become int32, as in Keras); "
        f"pass floats, or an array of a wider dtype")


def check_numeric(value, dtype):
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
            a.dtype.kind == "V" and dtype is None:
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
