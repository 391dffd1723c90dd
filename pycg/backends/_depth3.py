"""The layouts through which the numpy and jax backends compose 3-D max
pooling's gradients from 2-D pooling over (H, W) and 1-D pooling over D,
as the tensorflow backend computes them. Array methods only (reshape,
transpose), so one copy serves NumPy arrays and JAX arrays and tracers."""


def split3(a):
    """(N, D, H, W, C) -> (N * D, H, W, C)."""
    return a.reshape((-1,) + a.shape[2:])


def depth_first(a):
    """(N, D, H, W, C) -> (N * H * W, D, C), for 1-D pooling over D."""
    return a.transpose(0, 2, 3, 1, 4).reshape(
        (-1,) + a.shape[1:2] + a.shape[4:])


def depth_back(a, shape):
    """The inverse of depth_first, to (N, D, H, W, C) `shape`."""
    n, d, h, w, c = shape
    return a.reshape(n, h, w, d, c).transpose(0, 3, 1, 2, 4)
