"""torch kernels of max and average pooling, channels last, padding 'valid'
or 'same' (TensorFlow's pads), with the answers of the numpy backend's
_pooling.py (TensorFlow's CPU kernels, edges included: NaN skipped by the
max and its lowest finite start, the cell MaxPoolGrad picks, the first cell
equal to y for MaxPoolGradGrad, 3-D gradients composed of the (H, W) and D
stages). The jax backend's folds over window offsets, on torch."""
import torch

from pycg.backends import _depth3, _pool_picks
from pycg.backends._grid import grid as _grid
from pycg.backends._grid import padded_shape as _padded_shape
from pycg.backends._grid import pool_pads as _pool_pads
from pycg.backends._grid import slices as _slices
from pycg.backends.torch import _windows as _w


def _fold(fn, xp, size, strides):
    out = None
    for sl in _grid(xp, size, strides)[0]:
        out = xp[sl] if out is None else fn(out, xp[sl])
    return out


def _full(shape, value, like):
    return torch.full(tuple(shape), value, dtype=like.dtype,
                      device=like.device)


def max_pool(x, size, strides, padding):
    pads = _pool_pads(tuple(x.shape[1:-1]), size, strides, padding)
    xp = _w.padded(x, pads, float("-inf"))
    slices, grid = _grid(xp, size, strides)
    y = _full((x.shape[0],) + grid + (x.shape[-1],),
              torch.finfo(x.dtype).min, x)
    for sl in slices:   # TensorFlow's max: NaN skipped, of equals the first
        y = torch.where(y < xp[sl], xp[sl], y)
    return y


def _full_of(shape, value, dtype, like):
    return torch.full(tuple(shape), value, dtype=dtype, device=like.device)


_picks = _pool_picks.Picks(_w.padded, torch.where, _full_of, torch.bool)


def max_pool_grad(x, y, dy, size, strides, padding):
    if x.ndim == 5:
        return _stages.max_pool_grad(x, y, dy, size, strides, padding)
    pads, padded, hits = _picks.picks(x, size, strides, padding)
    gp = torch.zeros(padded, dtype=dy.dtype, device=dy.device)
    zero = torch.zeros((), dtype=dy.dtype, device=dy.device)
    for sl, hit in hits:
        gp[sl] += torch.where(hit, dy, zero)
    return _w.unpadded(gp, pads, tuple(x.shape))


def max_pool_grad_grad(x, y, ddx, size, strides, padding):
    if x.ndim == 5:
        return _stages.max_pool_grad_grad(x, y, ddx, size, strides,
                                           padding)
    pads, _, hits = _picks.first_equal(x, y, size, strides, padding)
    dp = _w.padded(ddx, pads)
    out = torch.zeros(tuple(y.shape), dtype=ddx.dtype, device=ddx.device)
    zero = torch.zeros((), dtype=ddx.dtype, device=ddx.device)
    for sl, hit in hits:
        out = out + torch.where(hit, dp[sl], zero)
    return out


def _inverse_counts(shape, size, strides, padding, like):
    """1 / (cells of each window inside the input): (1, out..., 1)."""
    one = torch.ones((1,) + tuple(shape[1:-1]) + (1,), dtype=like.dtype,
                     device=like.device)
    pads = _pool_pads(tuple(shape[1:-1]), size, strides, padding)
    return 1 / _fold(torch.add, _w.padded(one, pads), size, strides)


def avg_pool(x, size, strides, padding):
    pads = _pool_pads(tuple(x.shape[1:-1]), size, strides, padding)
    total = _fold(torch.add, _w.padded(x, pads), size, strides)
    return total * _inverse_counts(tuple(x.shape), size, strides, padding, x)


def avg_pool_grad(dy, shape, size, strides, padding):
    pads = _pool_pads(tuple(shape[1:-1]), size, strides, padding)
    share = dy * _inverse_counts(shape, size, strides, padding, dy)
    gp = torch.zeros(_padded_shape(tuple(shape), pads), dtype=dy.dtype,
                     device=dy.device)
    for sl in _slices(size, strides, tuple(dy.shape[1:-1])):
        gp[sl] += share
    return _w.unpadded(gp, pads, tuple(shape))


# 3-D max pooling's gradients, composed as the tensorflow backend's (the
# D stage's layouts by permute: torch's transpose swaps two axes)
def _depth_first(a):
    return a.permute(0, 2, 3, 1, 4).reshape((-1, a.shape[1], a.shape[4]))


def _depth_back(a, shape):
    n, d, h, w, c = shape
    return a.reshape(n, h, w, d, c).permute(0, 3, 1, 2, 4)


_stages = _depth3.Stages(max_pool, max_pool_grad, max_pool_grad_grad,
                         (_depth3.split3, _depth_first, _depth_back))
