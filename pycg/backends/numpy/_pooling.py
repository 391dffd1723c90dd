"""NumPy kernels of max and average pooling, channels last, padding 'valid'
or 'same' (TensorFlow's pads), giving the answers of TensorFlow's CPU
kernels (Eigen's; oneDNN's differ at the edges, see docs/ops-nn-coverage.md)
at the edges too:
- MaxPool skips NaN and starts from the dtype's lowest finite value: a
  window of only NaN and -inf gives it (float32: -3.4e38); of +0 and -0 it
  keeps the first.
- MaxPoolGrad sends each window's dy to the cell TensorFlow's kernel picks:
  the window's first cell inside the input, replaced by each later cell
  greater than the one held. That is the first maximum, except that a
  window whose first cell is NaN keeps it and a window of -inf its first.
- MaxPoolGradGrad reads ddx at each window's first cell equal to y, and
  gives 0 where none is (a window of NaN and -inf).
3-D max pooling's gradients are those of the tensorflow backend, which
pools over (H, W) and then over D: the first maximum in (D, H, W) order as
one pass would pick, but where NaN or -inf decide, each stage picks.
Average pooling sums, so NaN and inf flow as TensorFlow's AvgPool."""
import numpy as np

from pycg.backends import finfo
from pycg.backends import _depth3, _pool_folds
from pycg.backends._grid import grid as _grid
from pycg.backends._grid import padded_shape as _padded_shape
from pycg.backends._grid import pool_pads as _pool_pads
from pycg.backends._grid import slices as _slices
from pycg.backends.numpy import _windows as _w


def _reduce_windows(fold, xp, size, strides):
    """fold(held, new) over the window offsets, one strided slice each
    (several times faster than reducing the window axes of a stride-trick
    view)."""
    out = None
    for sl in _grid(xp, size, strides)[0]:
        out = xp[sl].copy() if out is None else fold(out, xp[sl])
    return out


def _add(held, new):
    return np.add(held, new, out=held)


def _max_held(held, new):   # where np.maximum(a, b) returns a of equals
    return np.maximum(held, new, out=held)


def _max_new(held, new):   # where it returns b
    return np.maximum(new, held, out=held)


_max_folds = {}   # dtype -> the fold that keeps the held of two equal values


def _max(dtype):
    """fold(held, new) as np.maximum, keeping the held one of two equal
    values (+0 and -0), as TensorFlow does: of two equal operands NumPy's
    loops return the first for some dtypes, the second for others."""
    fold = _max_folds.get(dtype)
    if fold is None:
        zero = np.zeros(1, dtype)
        first = np.signbit(np.maximum(-zero, zero))[0]
        fold = _max_folds[dtype] = _max_held if first else _max_new
    return fold


def max_pool(x, size, strides, padding):
    pads = _pool_pads(x.shape[1:-1], size, strides, padding)
    y = _reduce_windows(_max(x.dtype), _w.padded(x, pads, -np.inf), size,
                        strides)
    least = np.minimum.reduce(y, None, initial=np.inf)   # (NaN if any)
    if np.isnan(least):   # a window held NaN: again, as if it were -inf
        no_nan = np.where(np.isnan(x), np.array(-np.inf, x.dtype), x)
        y = _reduce_windows(_max(x.dtype), _w.padded(no_nan, pads, -np.inf),
                            size, strides)
        least = -np.inf
    lowest = finfo(x.dtype).min
    return np.maximum(y, lowest, out=y) if least < lowest else y


def _edgy(x, y):
    """Whether NaN or a window of -inf can make a pick other than the first
    maximum (a window of -inf gave y the lowest finite value)."""
    return bool(np.isnan(np.minimum.reduce(x, None, initial=np.inf))
                or np.minimum.reduce(y, None, initial=np.inf)
                <= finfo(y.dtype).min)


_pick = _pool_folds.Picks(_w.padded, np.where,
                          lambda shape, v, dtype, like: np.full(shape, v,
                                                                dtype),
                          bool)


def _picks(x, y, size, strides, padding):
    """The cells MaxPoolGrad picks (backends/_pool_folds.py): the first
    maximum, where neither NaN nor a window of -inf decides."""
    if not _edgy(x, y):
        return _pick.first_equal(x, y, size, strides, padding)
    return _pick.picks(x, size, strides, padding)


def max_pool_grad(x, y, dy, size, strides, padding):
    if x.ndim == 5 and _edgy(x, y):
        return _stages.max_pool_grad(x, y, dy, size, strides, padding)
    pads, padded, hits = _picks(x, y, size, strides, padding)
    gp = np.zeros(padded, dy.dtype)
    for sl, hit in hits:
        gp[sl] += np.where(hit, dy, 0)
    return _w.unpadded(gp, pads, x.shape)


def max_pool_grad_grad(x, y, ddx, size, strides, padding):
    if x.ndim == 5 and _edgy(x, y):
        return _stages.max_pool_grad_grad(x, y, ddx, size, strides,
                                           padding)
    pads, _, hits = _pick.first_equal(x, y, size, strides, padding)
    dp = _w.padded(ddx, pads)
    out = np.zeros(y.shape, ddx.dtype)
    for sl, hit in hits:
        out += np.where(hit, dp[sl], 0)
    return out


def _inverse_counts(shape, size, strides, padding, dtype):
    """1 / (cells of each window inside the input): (1, out..., 1)."""
    one = np.ones((1,) + tuple(shape[1:-1]) + (1,))
    pads = _pool_pads(shape[1:-1], size, strides, padding)
    w = _w.windows(_w.padded(one, pads), size, strides, (1,) * len(size))
    return (1.0 / w.sum(axis=tuple(range(len(shape) - 1,
                                         2 * len(shape) - 3)))).astype(dtype)


def avg_pool(x, size, strides, padding):
    pads = _pool_pads(x.shape[1:-1], size, strides, padding)
    total = _reduce_windows(_add, _w.padded(x, pads), size, strides)
    return total * _inverse_counts(x.shape, size, strides, padding, x.dtype)


def avg_pool_grad(dy, shape, size, strides, padding):
    pads = _pool_pads(shape[1:-1], size, strides, padding)
    share = dy * _inverse_counts(shape, size, strides, padding, dy.dtype)
    gp = np.zeros(_padded_shape(shape, pads), dy.dtype)
    for sl in _slices(size, strides, dy.shape[1:-1]):
        gp[sl] += share
    return _w.unpadded(gp, pads, shape)


# 3-D max pooling's gradients, composed as the tensorflow backend's
_stages = _depth3.Stages(max_pool, max_pool_grad, max_pool_grad_grad)
