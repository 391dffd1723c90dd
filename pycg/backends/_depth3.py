"""3-D max pooling's gradients composed from 2-D pooling over (H, W) and
1-D pooling over D, as the tensorflow backend computes them, for the
numpy, jax and torch backends. The layouts use array methods only
(reshape, transpose), so one copy serves NumPy arrays and JAX arrays and
tracers; torch, whose transpose swaps two axes, gives its own (permute)."""


def split3(a):
    """(N, D, H, W, C) -> (N * D, H, W, C)."""
    return a.reshape((-1,) + tuple(a.shape[2:]))


def depth_first(a):
    """(N, D, H, W, C) -> (N * H * W, D, C), for 1-D pooling over D."""
    return a.transpose(0, 2, 3, 1, 4).reshape(
        (-1,) + tuple(a.shape[1:2]) + tuple(a.shape[4:]))


def depth_back(a, shape):
    """The inverse of depth_first, to (N, D, H, W, C) `shape`."""
    n, d, h, w, c = shape
    return a.reshape(n, h, w, d, c).transpose(0, 3, 1, 2, 4)


class Stages:
    """A backend's max_pool, max_pool_grad and max_pool_grad_grad of 2-D and
    1-D operands, composed for 5-D ones: the (H, W) stage on
    (N * D, H, W, C), then the D stage on (N * H * W, D, C)."""

    def __init__(self, max_pool, grad, grad_grad,
                 layout=(split3, depth_first, depth_back)):
        self.max_pool, self.grad, self.grad_grad = max_pool, grad, grad_grad
        self.split3, self.depth_first, self.depth_back = layout

    def _stage2(self, x, size, strides, padding):
        """The (H, W) stage: its input and output as 2-D operands, and the
        output's 3-D shape."""
        x2 = self.split3(x)
        y2 = self.max_pool(x2, size[1:], strides[1:], padding)
        return x2, y2, tuple(x.shape[:2]) + tuple(y2.shape[1:])

    def max_pool_grad(self, x, y, dy, size, strides, padding):
        first = self.depth_first
        x2, y2, shape2 = self._stage2(x, size, strides, padding)
        dy2 = self.grad(first(y2.reshape(shape2)), first(y), first(dy),
                        size[:1], strides[:1], padding)
        dy2 = self.split3(self.depth_back(dy2, shape2))
        return self.grad(x2, y2, dy2, size[1:], strides[1:],
                         padding).reshape(tuple(x.shape))

    def max_pool_grad_grad(self, x, y, ddx, size, strides, padding):
        first = self.depth_first
        x2, y2, shape2 = self._stage2(x, size, strides, padding)
        dd2 = self.grad_grad(x2, y2, self.split3(ddx), size[1:], strides[1:],
                             padding).reshape(shape2)
        out = self.grad_grad(first(y2.reshape(shape2)), first(y), first(dd2),
                             size[:1], strides[:1], padding)
        return self.depth_back(out, tuple(y.shape))
