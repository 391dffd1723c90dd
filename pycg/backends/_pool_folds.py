"""Max and average pooling as folds over the window offsets, one strided
slice each, with the answers of TensorFlow's CPU kernels (edges included:
NaN skipped by the max and its lowest finite start; MaxPoolGrad sends each
window's dy to its first cell inside the input, replaced by each later cell
greater than the one held: the first maximum, but a first NaN, or a first
-inf of a window of -inf, is kept; MaxPoolGradGrad reads ddx at each
window's first cell equal to y; 3-D gradients composed of the (H, W) and D
stages, _depth3.py). Branch-free, so that they trace inside jax.jit.

Picks (which cells the gradients read) serves the numpy, jax and torch
backends; Folds (the kernels) the jax and torch backends, the numpy
backend's _pooling.py having in-place kernels of its own. A backend gives
its padded(x, pads, value) and unpadded (its _windows.py), where(c, a, b),
full(shape, value, dtype, like) with its bool dtype, add_at(gp, slice, v)
(gp with v added at the slice) and its dtypes' lowest finite value."""
from pycg.backends import _depth3
from pycg.backends._grid import grid, padded_shape, pool_pads, slices


class Picks:
    def __init__(self, padded, where, full, bool_dtype):
        self.padded, self.where, self.full = padded, where, full
        self.bool = bool_dtype

    def _falses(self, shape, like):
        return self.full(tuple(shape), False, self.bool, like)

    def first_equal(self, x, y, size, strides, padding):
        """(pads, padded shape, [(slice, mask)]): per window offset, where
        that offset holds the window's first cell equal to y."""
        pads = pool_pads(tuple(x.shape[1:-1]), size, strides, padding)
        xp = self.padded(x, pads, float("-inf"))
        taken = self._falses(y.shape, y)
        hits = []
        for sl in grid(xp, size, strides)[0]:
            hit = (xp[sl] == y) & ~taken
            taken = taken | hit
            hits.append((sl, hit))
        return pads, tuple(xp.shape), hits

    def picks(self, x, size, strides, padding):
        """As first_equal, where the cells MaxPoolGrad picks are."""
        spatial = tuple(x.shape[1:-1])
        pads = pool_pads(spatial, size, strides, padding)
        xp = self.padded(x, pads, float("-inf"))
        inside = self.padded(self.full((1,) + spatial + (1,), True, self.bool,
                                       x), pads, False)
        slices, out = grid(xp, size, strides)
        held = self.full((x.shape[0],) + out + (x.shape[-1],), float("nan"),
                         x.dtype, x)
        seen = self._falses((1,) + out + (1,), x)
        takes = []
        for sl in slices:   # (held < v is False where either is NaN)
            take = (inside[sl] & ~seen) | (held < xp[sl])
            held = self.where(take, xp[sl], held)
            seen = seen | inside[sl]
            takes.append((sl, take))
        hits, later = [], self._falses(held.shape, x)
        for sl, take in reversed(takes):   # the last cell taken is the pick
            hits.append((sl, take & ~later))
            later = later | take
        return pads, tuple(xp.shape), hits[::-1]


class Folds(Picks):
    """The jax and torch backends' pooling kernels (`layout`: the 3-D
    layouts of _depth3.Stages)."""

    def __init__(self, windows, where, full, bool_dtype, add_at, lowest,
                 layout=None):
        padded, self.unpadded = windows
        super().__init__(padded, where, full, bool_dtype)
        self.add_at, self.lowest = add_at, lowest
        self.stages = _depth3.Stages(
            self.max_pool, self.max_pool_grad, self.max_pool_grad_grad,
            *(() if layout is None else (layout,)))

    def kernels(self):
        """max_pool, max_pool_grad, max_pool_grad_grad, avg_pool,
        avg_pool_grad."""
        return (self.max_pool, self.max_pool_grad, self.max_pool_grad_grad,
                self.avg_pool, self.avg_pool_grad)

    def _fold(self, fn, xp, size, strides):
        out = None
        for sl in grid(xp, size, strides)[0]:
            out = xp[sl] if out is None else fn(out, xp[sl])
        return out

    def max_pool(self, x, size, strides, padding):
        pads = pool_pads(tuple(x.shape[1:-1]), size, strides, padding)
        xp = self.padded(x, pads, float("-inf"))
        offsets, out = grid(xp, size, strides)
        y = self.full((x.shape[0],) + out + (x.shape[-1],),
                      self.lowest(x.dtype), x.dtype, x)
        for sl in offsets:   # TensorFlow's max: NaN skipped, of equals the first
            y = self.where(y < xp[sl], xp[sl], y)
        return y

    def max_pool_grad(self, x, y, dy, size, strides, padding):
        if x.ndim == 5:
            return self.stages.max_pool_grad(x, y, dy, size, strides, padding)
        pads, padded, hits = self.picks(x, size, strides, padding)
        gp = self.full(padded, 0, dy.dtype, dy)
        for sl, hit in hits:
            gp = self.add_at(gp, sl, self.where(hit, dy, 0))
        return self.unpadded(gp, pads, tuple(x.shape))

    def max_pool_grad_grad(self, x, y, ddx, size, strides, padding):
        if x.ndim == 5:
            return self.stages.max_pool_grad_grad(x, y, ddx, size, strides,
                                                  padding)
        pads, _, hits = self.first_equal(x, y, size, strides, padding)
        dp = self.padded(ddx, pads)
        out = self.full(tuple(y.shape), 0, ddx.dtype, ddx)
        for sl, hit in hits:
            out = out + self.where(hit, dp[sl], 0)
        return out

    def _inverse_counts(self, shape, size, strides, padding, like):
        """1 / (cells of each window inside the input): (1, out..., 1)."""
        one = self.full((1,) + tuple(shape[1:-1]) + (1,), 1, like.dtype, like)
        pads = pool_pads(tuple(shape[1:-1]), size, strides, padding)
        return 1 / self._fold(lambda a, b: a + b, self.padded(one, pads),
                              size, strides)

    def avg_pool(self, x, size, strides, padding):
        pads = pool_pads(tuple(x.shape[1:-1]), size, strides, padding)
        total = self._fold(lambda a, b: a + b, self.padded(x, pads), size,
                           strides)
        return total * self._inverse_counts(tuple(x.shape), size, strides,
                                            padding, x)

    def avg_pool_grad(self, dy, shape, size, strides, padding):
        shape = tuple(shape)
        pads = pool_pads(shape[1:-1], size, strides, padding)
        share = dy * self._inverse_counts(shape, size, strides, padding, dy)
        gp = self.full(padded_shape(shape, pads), 0, dy.dtype, dy)
        for sl in slices(size, strides, tuple(dy.shape[1:-1])):
            gp = self.add_at(gp, sl, share)
        return self.unpadded(gp, pads, shape)
