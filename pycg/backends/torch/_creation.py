"""torch kernels of the creation ops, on torch's default device; a
Python value converted as NumPy converts it (np.full, np.arange and
np.linspace on the host, then to the device), so that every backend makes
the same numbers. An allocation that cannot fit is a MemoryError."""
import numpy as np
import torch

from pycg.backends.torch.core import _NUMPY_DTYPES, _allocating, \
    _from_numpy, _torch_dtype, owns


@_allocating
def zeros(shape, dtype):
    return torch.zeros(tuple(shape), dtype=_torch_dtype(dtype))


@_allocating
def ones(shape, dtype):
    return torch.ones(tuple(shape), dtype=_torch_dtype(dtype))


@_allocating
def full(shape, value, dtype):
    """np.full: a Python number or list as NumPy converts it (2.5 fills
    int32 with 2), a tensor broadcast to the shape."""
    dt = _torch_dtype(dtype)
    if owns(value):
        value = value.to(dt)
    else:
        value = _from_numpy(np.asarray(value).astype(_NUMPY_DTYPES[dt]))
    return torch.broadcast_to(value, tuple(shape)).clone()


def _host(dtype):
    """dtype as NumPy's, once torch is known to hold it."""
    return _NUMPY_DTYPES[_torch_dtype(dtype)]


@_allocating
def eye(n, m, k, dtype):
    return _from_numpy(np.eye(n, m, k, dtype=_host(dtype)))


@_allocating
def arange(start, stop, step, dtype):
    return _from_numpy(np.arange(start, stop, step, dtype=_host(dtype)))


@_allocating
def linspace(start, stop, num, endpoint, dtype):
    return _from_numpy(np.linspace(start, stop, num, endpoint=endpoint,
                                   dtype=_host(dtype)))
