"""Windows over channels-last operands (N, spatial..., C), shared by the
convolution and pooling kernels (as the numpy backend's _windows.py): pads
as (before, after) per spatial dimension, a negative `after` cropping; the
strided slice each window offset reads."""
import itertools

import jax.numpy as jnp

from pycg.backends import _numpy_like


# (the same lines as the other NumPy-like backend: backends/_numpy_like.py)
padded = _numpy_like.padded(jnp)


def unpadded(xp, pads, shape):
    """The adjoint of padded: the cells of xp that hold x's."""
    keep = tuple(slice(b, b + n + min(a, 0))
                 for (b, a), n in zip(pads, shape[1:-1]))
    inner = xp[(slice(None),) + keep]
    if inner.shape == tuple(shape):
        return inner
    return jnp.zeros(shape, xp.dtype).at[
        tuple(slice(0, n) for n in inner.shape)].set(inner)


def out_shape(shape, size, strides):
    """The spatial shape of the windows' grid (no dilation)."""
    return tuple((n - k) // s + 1 for n, k, s in zip(shape, size, strides))


def slices(size, strides, out):
    """The slice of the padded input each window offset reads."""
    for j in itertools.product(*(range(k) for k in size)):
        yield (slice(None),) + tuple(
            slice(i, i + s * (o - 1) + 1, s)
            for i, s, o in zip(j, strides, out)) + (slice(None),)
