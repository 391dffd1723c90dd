"""torch kernels of max and average pooling, channels last, padding 'valid'
or 'same' (TensorFlow's pads), with the answers of the numpy backend's
_pooling.py (TensorFlow's CPU kernels, edges included): the folds over
window offsets of backends/_pool_folds.py (the jax backend's), on torch."""
import torch

from pycg.backends import _depth3, _pool_folds
from pycg.backends.torch import _windows as _w


def _full(shape, value, dtype, like):
    return torch.full(tuple(shape), value, dtype=dtype, device=like.device)


def _add_in_place(gp, sl, v):
    gp[sl] += v
    return gp


# 3-D max pooling's gradients: the D stage's layouts by permute (torch's
# transpose swaps two axes)
def _depth_first(a):
    return a.permute(0, 2, 3, 1, 4).reshape((-1, a.shape[1], a.shape[4]))


def _depth_back(a, shape):
    n, d, h, w, c = shape
    return a.reshape(n, h, w, d, c).permute(0, 3, 1, 2, 4)


_folds = _pool_folds.Folds((_w.padded, _w.unpadded), torch.where, _full,
                           torch.bool, _add_in_place,
                           lambda dtype: torch.finfo(dtype).min,
                           (_depth3.split3, _depth_first, _depth_back))
max_pool, max_pool_grad, max_pool_grad_grad, avg_pool, avg_pool_grad = \
    _folds.kernels()
