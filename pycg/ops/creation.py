"""Tensor creation, dtype casts and conversion (keras.ops names)."""
import numpy as np

from pycg import backends, config
from pycg.ops._dispatch import as_tensor, cast
from pycg.tensor import Tensor
from pycg.tensor import convert_to_tensor as _convert


def _dtype(dtype, default=None):
    return np.dtype(dtype or default or config.floatx())


def _shape(shape):
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    return tuple(int(s) for s in shape)


def zeros(shape, dtype=None):
    return Tensor(backends.active.zeros(_shape(shape), _dtype(dtype)))


def ones(shape, dtype=None):
    return Tensor(backends.active.ones(_shape(shape), _dtype(dtype)))


def full(shape, fill_value, dtype=None):
    return Tensor(backends.active.full(_shape(shape), fill_value,
                                       _dtype(dtype)))


def zeros_like(x, dtype=None):
    x = as_tensor(x, "zeros_like")
    return zeros(x.shape, dtype or x.dtype)


def ones_like(x, dtype=None):
    x = as_tensor(x, "ones_like")
    return ones(x.shape, dtype or x.dtype)


def full_like(x, fill_value, dtype=None):
    x = as_tensor(x, "full_like")
    return full(x.shape, fill_value, dtype or x.dtype)


def eye(N, M=None, k=0, dtype=None):
    return Tensor(backends.active.eye(int(N), None if M is None else int(M),
                                      int(k), _dtype(dtype)))


def arange(start, stop=None, step=1, dtype=None):
    if stop is None:
        start, stop = 0, start
    if dtype is None:
        ints = all(isinstance(v, (int, np.integer))
                   for v in (start, stop, step))
        dtype = "int32" if ints else config.floatx()
    return Tensor(backends.active.arange(start, stop, step, np.dtype(dtype)))


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None,
             axis=0):
    out = Tensor(backends.active.linspace(float(start), float(stop), int(num),
                                          bool(endpoint), _dtype(dtype)))
    if retstep:
        div = (num - 1) if endpoint else num
        return out, (stop - start) / div if div else float("nan")
    return out


def convert_to_tensor(x, dtype=None, sparse=None):
    """A pycg Tensor (Python floats become floatx, arrays keep dtype);
    a tensor given a new dtype is cast, so its gradient flows."""
    if isinstance(x, Tensor) and dtype is not None:
        return cast(_convert(x), dtype)
    return _convert(x, dtype)


def convert_to_numpy(x):
    """The value of x as a NumPy array."""
    return np.asarray(as_tensor(x, "convert_to_numpy").numpy())


def shape(x):
    """The static shape of x as a tuple of ints."""
    return as_tensor(x, "shape").shape


def stop_gradient(variable):
    """The same value, with no gradient flowing through it."""
    x = as_tensor(variable, "stop_gradient")
    return Tensor(backends.active.stop_gradient(x._value))


def _one_hot_flat(i, n, dtype):
    v = np.zeros(n, dtype=dtype)
    v[i] = 1
    return Tensor(backends.active.convert(v))
