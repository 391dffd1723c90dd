"""The arguments of pycg.random's draws, checked and normalised, with
errors that name the draw (`who`) and the argument."""
import numbers

import numpy as np

from pycg import config
from pycg.tensor import Tensor, is_float


def as_shape(shape, who):
    if isinstance(shape, numbers.Integral) and not isinstance(shape, bool):
        shape = (shape,)
    try:
        shape = tuple(int(d) for d in shape)
    except (TypeError, ValueError):
        shape = None
    if shape is None or any(d < 0 for d in shape):
        raise ValueError(f"pycg.random.{who}: `shape` must be a tuple of "
                         f"non-negative ints")
    return shape


def float_dtype(dtype, who):
    dtype = np.dtype(dtype or config.floatx())
    if not is_float(dtype):
        raise ValueError(f"pycg.random.{who}: `dtype` must be a floating "
                         f"dtype, got {dtype.name}")
    return dtype


def int_bound(v, name, who):
    if isinstance(v, Tensor):
        v = v.numpy()
    if not isinstance(v, (numbers.Integral, np.integer)) or \
            isinstance(v, bool):
        raise ValueError(f"pycg.random.{who}: `{name}` must be an int, got "
                         f"{type(v).__name__} {v!r:.40}")
    return int(v)


def is_count(n):
    return isinstance(n, numbers.Integral) and not isinstance(n, bool) \
        and n >= 0


def mask_shape(noise_shape, shape):
    if noise_shape is None:
        return tuple(shape)
    noise_shape = tuple(noise_shape)
    if len(noise_shape) != len(shape):
        raise ValueError(f"pycg.random.dropout: `noise_shape` {noise_shape} "
                         f"must have one entry per axis of `inputs` {shape}")
    return tuple(d if n is None else int(n)
                 for n, d in zip(noise_shape, shape))
