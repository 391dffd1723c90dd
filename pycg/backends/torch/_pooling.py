"""torch kernels of max and average pooling, channels last, padding 'valid'
or 'same' (TensorFlow's pads), with the answers of the numpy backend's
_pooling.py (TensorFlow's CPU kernels, edges included: NaN skipped by the
max and its lowest finite start, the cell MaxPoolGrad picks, the first cell
equal to y for MaxPoolGradGrad, 3-D gradients composed of the (H, W) and D
stages). The jax backend's folds over window offsets, on torch."""
import torch

from pycg.backends.torch import _windows as _w


def _pool_pads(shape, size, strides, padding):
    if padding == "valid":
        return ((0, 0),) * len(size)
    pads = []
    for n, k, s in zip(shape, size, strides):
        total = max((-(-n // s) - 1) * s + k - n, 0)
        pads.append((total // 2, total - total // 2))
    return tuple(pads)


def _grid(xp, size, strides):
    """(the slices of xp each window offset reads, the windows' grid)."""
    grid = _w.out_shape(tuple(xp.shape[1:-1]), size, strides)
    return list(_w.slices(size, strides, grid)), grid


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


def _first_equal(x, y, size, strides, padding):
    """(pads, padded shape, [(slice, mask)]): per window offset, where that
    offset holds the window's first cell equal to y."""
    pads = _pool_pads(tuple(x.shape[1:-1]), size, strides, padding)
    xp = _w.padded(x, pads, float("-inf"))
    taken = torch.zeros(tuple(y.shape), dtype=torch.bool, device=y.device)
    hits = []
    for sl in _grid(xp, size, strides)[0]:
        hit = (xp[sl] == y) & ~taken
        taken = taken | hit
        hits.append((sl, hit))
    return pads, tuple(xp.shape), hits


def _picks(x, size, strides, padding):
    """As _first_equal, where the cells MaxPoolGrad picks are: each window's
    first cell inside the input, replaced by each later cell greater than
    the one held (the first maximum, but a first NaN, or a first -inf of a
    window of -inf, is kept)."""
    pads = _pool_pads(tuple(x.shape[1:-1]), size, strides, padding)
    xp = _w.padded(x, pads, float("-inf"))
    inside = _w.padded(torch.ones((1,) + tuple(x.shape[1:-1]) + (1,),
                                  dtype=torch.bool, device=x.device),
                       pads, False)
    slices, grid = _grid(xp, size, strides)
    held = _full((x.shape[0],) + grid + (x.shape[-1],), float("nan"), x)
    seen = torch.zeros((1,) + grid + (1,), dtype=torch.bool,
                       device=x.device)
    takes = []
    for sl in slices:   # (held < v is False where either is NaN)
        take = (inside[sl] & ~seen) | (held < xp[sl])
        held = torch.where(take, xp[sl], held)
        seen = seen | inside[sl]
        takes.append((sl, take))
    hits = []
    later = torch.zeros(tuple(held.shape), dtype=torch.bool, device=x.device)
    for sl, take in reversed(takes):   # the last cell taken is the pick
        hits.append((sl, take & ~later))
        later = later | take
    return pads, tuple(xp.shape), hits[::-1]


# 3-D max pooling's gradients, composed as the tensorflow backend's: the
# (H, W) stage on (N * D, H, W, C), the D stage on (N * H * W, D, C)
def _split3(a):
    return a.reshape((-1,) + tuple(a.shape[2:]))


def _depth_first(a):
    return a.permute(0, 2, 3, 1, 4).reshape((-1, a.shape[1], a.shape[4]))


def _depth_back(a, shape):
    n, d, h, w, c = shape
    return a.reshape(n, h, w, d, c).permute(0, 3, 1, 2, 4)


def _stage2(x, size, strides, padding):
    """The (H, W) stage: its input and output as 2-D operands, and the
    output's 3-D shape."""
    x2 = _split3(x)
    y2 = max_pool(x2, size[1:], strides[1:], padding)
    return x2, y2, tuple(x.shape[:2]) + tuple(y2.shape[1:])


def max_pool_grad(x, y, dy, size, strides, padding):
    if x.ndim == 5:
        x2, y2, shape2 = _stage2(x, size, strides, padding)
        dy2 = max_pool_grad(_depth_first(y2.reshape(shape2)),
                            _depth_first(y), _depth_first(dy), size[:1],
                            strides[:1], padding)
        dy2 = _split3(_depth_back(dy2, shape2))
        return max_pool_grad(x2, y2, dy2, size[1:], strides[1:],
                             padding).reshape(tuple(x.shape))
    pads, padded, hits = _picks(x, size, strides, padding)
    gp = torch.zeros(padded, dtype=dy.dtype, device=dy.device)
    zero = torch.zeros((), dtype=dy.dtype, device=dy.device)
    for sl, hit in hits:
        gp[sl] += torch.where(hit, dy, zero)
    return _w.unpadded(gp, pads, tuple(x.shape))


def max_pool_grad_grad(x, y, ddx, size, strides, padding):
    if x.ndim == 5:
        x2, y2, shape2 = _stage2(x, size, strides, padding)
        dd2 = max_pool_grad_grad(x2, y2, _split3(ddx), size[1:], strides[1:],
                                 padding).reshape(shape2)
        out = max_pool_grad_grad(_depth_first(y2.reshape(shape2)),
                                 _depth_first(y), _depth_first(dd2),
                                 size[:1], strides[:1], padding)
        return _depth_back(out, tuple(y.shape))
    pads, _, hits = _first_equal(x, y, size, strides, padding)
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
    gp = torch.zeros((shape[0],) + tuple(
        n + b + a for n, (b, a) in zip(shape[1:-1], pads)) + (shape[-1],),
        dtype=dy.dtype, device=dy.device)
    for sl in _w.slices(size, strides, tuple(dy.shape[1:-1])):
        gp[sl] += share
    return _w.unpadded(gp, pads, tuple(shape))
