"""Kernels that the numpy and jax backends write once: the same lines over
NumPy's API, with `xp` NumPy itself or jax.numpy. Each function here makes
one kernel over a namespace, and each backend's topic file binds it by the
kernel's name (`cumsum = _numpy_like.cumsum(jnp, _int_dtype)`), so that
`grep "^cumsum = "` finds it where tests/test_backend_layout.py looks for
it; a kernel whose lines differ between the two stays in each backend's
file."""
import numpy as np

# numpy.py's rounding, arg-reductions, cumsum and shape kernels; `int_dtype(x)`
# is the dtype a sum of x accumulates in (None: x's own)


def int_dtype(x):
    """The integer dtype x's sum keeps: x's own (NumPy would sum int32 into
    int64), int32 for bools; None for floats and complex numbers."""
    k = x.dtype.kind
    return np.int32 if k == "b" else x.dtype if k in "iu" else None


def round(xp):
    def round(x, decimals=0):
        return xp.round(x, decimals)
    return round


def rsqrt(xp):
    def rsqrt(x):
        return 1 / xp.sqrt(x)
    return rsqrt


def argmax(xp):
    def argmax(x, axis=None, keepdims=False):
        return xp.argmax(x, axis=axis, keepdims=keepdims).astype(np.int32)
    return argmax


def argmin(xp):
    def argmin(x, axis=None, keepdims=False):
        return xp.argmin(x, axis=axis, keepdims=keepdims).astype(np.int32)
    return argmin


def cumsum(xp, int_dtype):
    def cumsum(x, axis=None):
        return xp.cumsum(x, axis=axis, dtype=int_dtype(x))
    return cumsum


def reshape(xp):
    def reshape(x, shape):
        return xp.reshape(x, shape)
    return reshape


def transpose(xp):
    def transpose(x, axes=None):
        return xp.transpose(x, axes)
    return transpose


def broadcast_to(xp):
    def broadcast_to(x, shape):
        return xp.broadcast_to(x, shape)
    return broadcast_to


def concatenate(xp):
    def concatenate(xs, axis=0):
        return xp.concatenate(xs, axis=axis)
    return concatenate


def pad(xp):
    def pad(x, pad_width, constant_values=0):
        return xp.pad(x, pad_width, constant_values=constant_values)
    return pad


# numpy.py's kernels above, as one binding: their makers, in order
NUMPY = (round, rsqrt, argmax, argmin, cumsum, reshape, transpose,
         broadcast_to, concatenate, pad)


def numpy_kernels(xp):
    """The kernels of NUMPY over xp, in its order (cumsum keeps
    int_dtype's integer dtypes)."""
    return tuple(make(xp, int_dtype) if make is cumsum else make(xp)
                 for make in NUMPY)


# math.py's kernels for dimensions unknown while tracing (the TensorFlow
# backend's), here for parity: NumPy's and JAX's shapes are always known


def dynamic_dim(xp):
    def dynamic_dim(x, axis):
        return x.shape[axis]
    return dynamic_dim


def slice_axis(xp):
    def slice_axis(x, axis, start, size):
        return x[(slice(None),) * axis + (slice(start, start + size),)]
    return slice_axis


def pad_axis(xp):
    def pad_axis(x, axis, before, after):
        pads = [(0, 0)] * x.ndim
        pads[axis] = (before, after)
        return xp.pad(x, pads)
    return pad_axis


def sum_to(xp):   # (torch's too: its sum takes NumPy's axis)
    def sum_to(g, shape):
        shape = tuple(int(n) for n in shape)
        extra = g.ndim - len(shape)
        axes = tuple(range(extra)) + tuple(
            i + extra for i, n in enumerate(shape)
            if n == 1 and g.shape[i + extra] != 1)
        return xp.sum(g, axis=axes).reshape(shape) if axes else \
            g.reshape(shape)
    return sum_to


# linalg.py's decompositions whose several outputs are packed into one
# array (the ops unpack them: pycg/ops/decompositions.py)


def svd_packed(xp):
    def svd_packed(x, full_matrices):
        u, s, vh = xp.linalg.svd(x, full_matrices=full_matrices)
        batch = x.shape[:-2]
        return xp.concatenate([u.reshape(batch + (-1,)), s,
                               vh.reshape(batch + (-1,))], axis=-1)
    return svd_packed


def qr_packed(xp):
    def qr_packed(x, mode):
        q, r = xp.linalg.qr(x, mode=mode)
        batch = x.shape[:-2]
        return xp.concatenate([q.reshape(batch + (-1,)),
                               r.reshape(batch + (-1,))], axis=-1)
    return qr_packed


def eigh_packed(xp):
    def eigh_packed(x):
        w, v = xp.linalg.eigh(x)
        return xp.concatenate([w[..., None, :], v], axis=-2)
    return eigh_packed


# _windows.py's pads of the spatial axes, for convolution and pooling


def padded(xp):
    def padded(x, pads, value=0):
        """x with `pads` (before, after) on each spatial axis; a negative
        `after` crops the trailing cells that no window reaches."""
        crop = tuple(slice(None, a if a < 0 else None) for _, a in pads)
        x = x[(slice(None),) + crop]
        if any(b or a > 0 for b, a in pads):
            widths = [(0, 0)] + [(b, max(a, 0)) for b, a in pads] + [(0, 0)]
            x = xp.pad(x, widths, constant_values=value)
        return x
    return padded
