"""Kernels that the numpy and jax backends write once: the same lines over
NumPy's API, with `xp` NumPy itself or jax.numpy. Each backend's topic file
takes a group by name (`globals().update(_numpy_like.shapes(jnp, ...))`),
so its kernels stay where tests/test_backend_layout.py looks for them; a
kernel whose lines differ between the two stays in each backend's file."""
import numpy as np


def shapes(xp, int_dtype):
    """numpy.py's arg-reductions, cumsum and shape kernels; `int_dtype(x)`
    is the dtype a sum of x accumulates in (None: x's own)."""
    def argmax(x, axis=None, keepdims=False):
        return xp.argmax(x, axis=axis, keepdims=keepdims).astype(np.int32)

    def argmin(x, axis=None, keepdims=False):
        return xp.argmin(x, axis=axis, keepdims=keepdims).astype(np.int32)

    def cumsum(x, axis=None):
        return xp.cumsum(x, axis=axis, dtype=int_dtype(x))

    def reshape(x, shape):
        return xp.reshape(x, shape)

    def transpose(x, axes=None):
        return xp.transpose(x, axes)

    def broadcast_to(x, shape):
        return xp.broadcast_to(x, shape)

    def concatenate(xs, axis=0):
        return xp.concatenate(xs, axis=axis)

    def pad(x, pad_width, constant_values=0):
        return xp.pad(x, pad_width, constant_values=constant_values)

    return {f.__name__: f for f in (argmax, argmin, cumsum, reshape,
                                    transpose, broadcast_to, concatenate,
                                    pad)}


def traced_shapes(xp):
    """math.py's kernels for dimensions unknown while tracing (the
    TensorFlow backend's), here for parity: NumPy's and JAX's shapes are
    always known."""
    def dynamic_dim(x, axis):
        return x.shape[axis]

    def slice_axis(x, axis, start, size):
        return x[(slice(None),) * axis + (slice(start, start + size),)]

    def pad_axis(x, axis, before, after):
        pads = [(0, 0)] * x.ndim
        pads[axis] = (before, after)
        return xp.pad(x, pads)

    def sum_to(g, shape):
        shape = tuple(int(n) for n in shape)
        extra = g.ndim - len(shape)
        axes = tuple(range(extra)) + tuple(
            i + extra for i, n in enumerate(shape)
            if n == 1 and g.shape[i + extra] != 1)
        return xp.sum(g, axis=axes).reshape(shape) if axes else \
            g.reshape(shape)

    return {f.__name__: f for f in (dynamic_dim, slice_axis, pad_axis,
                                    sum_to)}


def packed_decompositions(xp):
    """linalg.py's decompositions whose several outputs are packed into one
    array (the ops unpack them: pycg/ops/decompositions.py)."""
    def svd_packed(x, full_matrices):
        u, s, vh = xp.linalg.svd(x, full_matrices=full_matrices)
        batch = x.shape[:-2]
        return xp.concatenate([u.reshape(batch + (-1,)), s,
                               vh.reshape(batch + (-1,))], axis=-1)

    def qr_packed(x, mode):
        q, r = xp.linalg.qr(x, mode=mode)
        batch = x.shape[:-2]
        return xp.concatenate([q.reshape(batch + (-1,)),
                               r.reshape(batch + (-1,))], axis=-1)

    def eigh_packed(x):
        w, v = xp.linalg.eigh(x)
        return xp.concatenate([w[..., None, :], v], axis=-2)

    return {f.__name__: f for f in (svd_packed, qr_packed, eigh_packed)}


def windows(xp):
    """_windows.py's pads of the spatial axes, for convolution and pooling."""
    def padded(x, pads, value=0):
        """x with `pads` (before, after) on each spatial axis; a negative
        `after` crops the trailing cells that no window reaches."""
        crop = tuple(slice(None, a if a < 0 else None) for _, a in pads)
        x = x[(slice(None),) + crop]
        if any(b or a > 0 for b, a in pads):
            widths = [(0, 0)] + [(b, max(a, 0)) for b, a in pads] + [(0, 0)]
            x = xp.pad(x, widths, constant_values=value)
        return x

    return {"padded": padded}
