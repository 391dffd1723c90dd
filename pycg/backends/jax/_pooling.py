"""JAX kernels of max and average pooling, channels last, padding 'valid'
or 'same' (TensorFlow's pads), with the answers of the numpy backend's
_pooling.py (TensorFlow's CPU kernels, edges included: NaN skipped by the
max and its lowest finite start, the cell MaxPoolGrad picks, the first cell
equal to y for MaxPoolGradGrad, 3-D gradients composed of the (H, W) and D
stages). Branch-free, so that they trace inside jax.jit."""
import jax.numpy as jnp

from pycg.backends import finfo
from pycg.backends import _depth3, _pool_picks
from pycg.backends._grid import grid as _grid
from pycg.backends._grid import padded_shape as _padded_shape
from pycg.backends._grid import pool_pads as _pool_pads
from pycg.backends._grid import slices as _slices
from pycg.backends.jax import _windows as _w


def _fold(fn, xp, size, strides):
    out = None
    for sl in _grid(xp, size, strides)[0]:
        out = xp[sl] if out is None else fn(out, xp[sl])
    return out


def max_pool(x, size, strides, padding):
    pads = _pool_pads(x.shape[1:-1], size, strides, padding)
    xp = _w.padded(x, pads, -jnp.inf)
    slices, grid = _grid(xp, size, strides)
    y = jnp.full(x.shape[:1] + grid + x.shape[-1:], finfo(x.dtype).min,
                 x.dtype)
    for sl in slices:   # TensorFlow's max: NaN skipped, of equals the first
        y = jnp.where(y < xp[sl], xp[sl], y)
    return y


_picks = _pool_picks.Picks(_w.padded, jnp.where,
                           lambda shape, v, dtype, like: jnp.full(shape, v,
                                                                  dtype),
                           bool)


def max_pool_grad(x, y, dy, size, strides, padding):
    if x.ndim == 5:
        return _stages.max_pool_grad(x, y, dy, size, strides, padding)
    pads, padded, hits = _picks.picks(x, size, strides, padding)
    gp = jnp.zeros(padded, dy.dtype)
    for sl, hit in hits:
        gp = gp.at[sl].add(jnp.where(hit, dy, 0))
    return _w.unpadded(gp, pads, x.shape)


def max_pool_grad_grad(x, y, ddx, size, strides, padding):
    if x.ndim == 5:
        return _stages.max_pool_grad_grad(x, y, ddx, size, strides,
                                           padding)
    pads, _, hits = _picks.first_equal(x, y, size, strides, padding)
    dp = _w.padded(ddx, pads)
    out = jnp.zeros(y.shape, ddx.dtype)
    for sl, hit in hits:
        out = out + jnp.where(hit, dp[sl], 0)
    return out


def _inverse_counts(shape, size, strides, padding, dtype):
    """1 / (cells of each window inside the input): (1, out..., 1)."""
    one = jnp.ones((1,) + tuple(shape[1:-1]) + (1,), dtype)
    pads = _pool_pads(shape[1:-1], size, strides, padding)
    return 1 / _fold(jnp.add, _w.padded(one, pads), size, strides)


def avg_pool(x, size, strides, padding):
    pads = _pool_pads(x.shape[1:-1], size, strides, padding)
    total = _fold(jnp.add, _w.padded(x, pads), size, strides)
    return total * _inverse_counts(x.shape, size, strides, padding, x.dtype)


def avg_pool_grad(dy, shape, size, strides, padding):
    pads = _pool_pads(shape[1:-1], size, strides, padding)
    share = dy * _inverse_counts(shape, size, strides, padding, dy.dtype)
    gp = jnp.zeros(_padded_shape(shape, pads), dy.dtype)
    for sl in _slices(size, strides, dy.shape[1:-1]):
        gp = gp.at[sl].add(share)
    return _w.unpadded(gp, pads, shape)


# 3-D max pooling's gradients, composed as the tensorflow backend's
_stages = _depth3.Stages(max_pool, max_pool_grad, max_pool_grad_grad)
