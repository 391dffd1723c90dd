"""Which cells of each pooling window max pooling's gradients read, as
TensorFlow's CPU kernels pick them, for the numpy, jax and torch backends'
_pooling.py (branch-free, so that they trace inside jax.jit): MaxPoolGrad
sends each window's dy to its first cell inside the input, replaced by
each later cell greater than the one held (the first maximum, but a first
NaN, or a first -inf of a window of -inf, is kept); MaxPoolGradGrad reads
ddx at each window's first cell equal to y. A backend gives its
padded(x, pads, value), where(c, a, b), and full(shape, value, dtype,
like) with its bool dtype."""
from pycg.backends._grid import grid, pool_pads


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
