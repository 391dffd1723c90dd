"""Windows over channels-last operands (N, spatial..., C), shared by the
convolution and pooling kernels: pads as (before, after) per spatial
dimension, where a negative `after` drops trailing cells that no window
reaches; a window view as a stride trick; the strided slice each kernel
offset reads."""
import itertools

import numpy as np
from numpy.lib.stride_tricks import as_strided as _as_strided

from pycg.backends import _grid, _numpy_like


# (the same lines as the other NumPy-like backend: backends/_numpy_like.py)
padded = _numpy_like.padded(np)


def unpadded(xp, pads, shape):
    """The adjoint of padded: the cells of xp that hold x's."""
    inner = xp[_grid.kept(pads, shape)]
    if inner.shape == tuple(shape):
        return inner
    out = np.zeros(shape, xp.dtype)
    out[tuple(slice(0, n) for n in inner.shape)] = inner
    return out


def out_shape(shape, size, strides, dilation):
    """The spatial shape of the windows' grid."""
    return tuple((n - (k - 1) * d - 1) // s + 1
                 for n, k, s, d in zip(shape, size, strides, dilation))


def windows(xp, size, strides, dilation):
    """View (N, out..., size..., C) of every window of xp."""
    st = xp.strides
    n = out_shape(xp.shape[1:-1], size, strides, dilation)
    return _as_strided(
        xp, (xp.shape[0],) + n + tuple(size) + (xp.shape[-1],),
        (st[0],) + tuple(a * s for a, s in zip(st[1:-1], strides))
        + tuple(a * d for a, d in zip(st[1:-1], dilation)) + (st[-1],),
        writeable=False)


def offsets(size, strides, dilation, out):
    """(kernel index, slice of the padded input it reads) per offset."""
    for j in itertools.product(*(range(k) for k in size)):
        yield j, (slice(None),) + tuple(
            slice(i * d, i * d + s * (o - 1) + 1, s)
            for i, d, s, o in zip(j, dilation, strides, out))
