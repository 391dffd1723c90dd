"""JAX kernels of max and average pooling, channels last, padding 'valid'
or 'same' (TensorFlow's pads), with the answers of the numpy backend's
_pooling.py (TensorFlow's CPU kernels, edges included): the folds over
window offsets of backends/_pool_folds.py, on jax.numpy. Branch-free, so
that they trace inside jax.jit."""
import jax.numpy as jnp

from pycg.backends import _pool_folds, finfo
from pycg.backends.jax import _windows as _w


def _full(shape, value, dtype, like):
    return jnp.full(shape, value, dtype)


def _add_at(gp, sl, v):
    return gp.at[sl].add(v)


_folds = _pool_folds.Folds((_w.padded, _w.unpadded), jnp.where, _full, bool,
                           _add_at, lambda dtype: finfo(dtype).min)
max_pool, max_pool_grad, max_pool_grad_grad, avg_pool, avg_pool_grad = \
    _folds.kernels()
