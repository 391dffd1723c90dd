"""Windows over channels-last operands (N, spatial..., C), shared by the
convolution and pooling kernels (as the numpy backend's _windows.py): pads
as (before, after) per spatial dimension, a negative `after` cropping (the
windows' grid and slices: backends/_grid.py)."""
import jax.numpy as jnp

from pycg.backends import _grid, _numpy_like


# (the same lines as the other NumPy-like backend: backends/_numpy_like.py)
padded = _numpy_like.padded(jnp)


def unpadded(xp, pads, shape):
    """The adjoint of padded: the cells of xp that hold x's."""
    inner = xp[_grid.kept(pads, shape)]
    if inner.shape == tuple(shape):
        return inner
    return jnp.zeros(shape, xp.dtype).at[
        tuple(slice(0, n) for n in inner.shape)].set(inner)
