"""NumPy kernels of the activations and their fused gradients (the ones
TensorFlow has as kernels: TanhGrad, SigmoidGrad, ReluGrad, SqrtGrad, ...),
and of convolution and pooling, channels last: windows as a stride-trick
view of the padded input, a convolution as one im2col copy and one BLAS
matmul per group, its input transpose as the full correlation with the
flipped kernel (stride 1) or a matmul and one strided add per kernel offset.
Pads are (before, after) per spatial dimension; a negative `after` drops
trailing cells that no window reaches."""
import itertools

import numpy as np
from numpy.lib.stride_tricks import as_strided as _as_strided


def sigmoid(x):
    if x.dtype.kind == "c":   # (|x| would lose the phase)
        return (1 / (1 + np.exp(-x))).astype(x.dtype)[()]
    # exp of a non-positive number only: no overflow warning at either end
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1 / (1 + e), e / (1 + e)).astype(x.dtype)[()]


def softplus(x):
    return (np.maximum(x, 0) + np.log1p(np.exp(-np.abs(x)))).astype(x.dtype)


def relu(x):
    return np.maximum(x, np.zeros((), x.dtype))


_ones = {}   # dtype -> 1 of that dtype (dtype.type(1) costs 0.2 us)


def _one(dt):
    one = _ones.get(dt)
    if one is None:
        one = _ones[dt] = dt.type(1)
    return one


def tanh_grad(y, dy):
    one = _ones.get(y.dtype) or _one(y.dtype)
    return dy * (one - y * y)


def relu_grad(dy, x):
    return np.where(x > 0, dy, np.zeros((), dy.dtype))[()]


def sigmoid_grad(y, dy):
    return dy * y * (_one(y.dtype) - y)


# TensorFlow's SqrtGrad, RsqrtGrad and ReciprocalGrad: 0 where dy is 0, even
# where the local derivative is infinite (the guard idiom where(c, f(x), 0))
def _zero_at_zero(dy, d):
    return np.where(dy == 0, np.zeros((), d.dtype), d)[()]


def sqrt_grad(y, dy):   # (numbers as y's dtype: bfloat16 * 0.5 is float32)
    return _zero_at_zero(dy, dy * y.dtype.type(0.5) / np.conj(y))


def rsqrt_grad(y, dy):
    c = np.conj(y)
    return _zero_at_zero(dy, dy * y.dtype.type(-0.5) * (c * c * c))


def reciprocal_grad(y, dy):
    c = np.conj(y)
    return _zero_at_zero(dy, -dy * (c * c))


# ---- convolution ---------------------------------------------------------------
def _matmul(a, b):
    if a.dtype.kind == "V":   # (bfloat16: BLAS in float32)
        return np.matmul(a.astype(np.float32), b.astype(np.float32)
                         ).astype(a.dtype)
    return np.matmul(a, b)


def _padded(x, pads, value=0):
    crop = tuple(slice(None, a if a < 0 else None) for _, a in pads)
    x = x[(slice(None),) + crop]
    if any(b or a > 0 for b, a in pads):
        widths = [(0, 0)] + [(b, max(a, 0)) for b, a in pads] + [(0, 0)]
        x = np.pad(x, widths, constant_values=value)
    return x


def _unpadded(xp, pads, shape):
    """The adjoint of _padded: the cells of xp that hold x's."""
    keep = tuple(slice(b, b + n + min(a, 0))
                 for (b, a), n in zip(pads, shape[1:-1]))
    inner = xp[(slice(None),) + keep]
    if inner.shape == tuple(shape):
        return inner
    out = np.zeros(shape, xp.dtype)
    out[tuple(slice(0, n) for n in inner.shape)] = inner
    return out


def _out(shape, size, strides, dilation):
    return tuple((n - (k - 1) * d - 1) // s + 1
                 for n, k, s, d in zip(shape, size, strides, dilation))


def _windows(xp, size, strides, dilation):
    """View (N, out..., size..., C) of every window of xp."""
    st = xp.strides
    out = _out(xp.shape[1:-1], size, strides, dilation)
    return _as_strided(
        xp, (xp.shape[0],) + out + tuple(size) + (xp.shape[-1],),
        (st[0],) + tuple(a * s for a, s in zip(st[1:-1], strides))
        + tuple(a * d for a, d in zip(st[1:-1], dilation)) + (st[-1],),
        writeable=False)


def _offsets(size, strides, dilation, out):
    """(kernel index, slice of the padded input it reads) per offset."""
    for j in itertools.product(*(range(k) for k in size)):
        yield j, (slice(None),) + tuple(
            slice(i * d, i * d + s * (o - 1) + 1, s)
            for i, d, s, o in zip(j, dilation, strides, out))


def conv(x, kernel, strides, pads, dilation, groups):
    d = x.ndim - 2
    w = _windows(_padded(x, pads), kernel.shape[:d], strides, dilation)
    f, cg = kernel.shape[-1], kernel.shape[-2]
    fg = f // groups
    rows = int(np.prod(w.shape[:1 + d]))
    parts = [_matmul(w[..., i * cg:(i + 1) * cg].reshape(rows, -1),
                     kernel[..., i * fg:(i + 1) * fg].reshape(-1, fg))
             for i in range(groups)]
    y = parts[0] if groups == 1 else np.concatenate(parts, -1)
    return y.reshape(w.shape[:1 + d] + (f,))


def conv_input_grad(g, kernel, shape, strides, pads, dilation, groups):
    """The transpose of conv with respect to its input (of `shape`)."""
    d = g.ndim - 2
    size, f, cg = kernel.shape[:d], kernel.shape[-1], kernel.shape[-2]
    fg = f // groups
    if all(s == 1 for s in strides):   # a full correlation with the kernel
        return _unpadded(conv(g, _flipped(kernel, groups), strides, tuple(
            ((k - 1) * r, (k - 1) * r) for k, r in zip(size, dilation)),
            dilation, groups), pads, shape)
    out = g.shape[1:1 + d]
    cols = [_matmul(g[..., i * fg:(i + 1) * fg].reshape(-1, fg),
                    kernel[..., i * fg:(i + 1) * fg].reshape(-1, fg).T
                    ).reshape(g.shape[:1 + d] + size + (cg,))
            for i in range(groups)]
    cols = cols[0] if groups == 1 else np.concatenate(cols, -1)
    xp = np.zeros((shape[0],) + tuple(
        n + b + a for n, (b, a) in zip(shape[1:-1], pads)) + (shape[-1],),
        g.dtype)
    lead = (slice(None),) * (1 + d)
    for j, sl in _offsets(size, strides, dilation, out):
        xp[sl] += cols[lead + j]
    return _unpadded(xp, pads, shape)


def _flipped(kernel, groups):
    """(spatial..., C / groups, F) -> reversed in space, (spatial...,
    F / groups, C): the kernel of conv's transpose, group by group."""
    d = kernel.ndim - 2
    cg, f = kernel.shape[-2:]
    k = kernel[(slice(None, None, -1),) * d].reshape(
        kernel.shape[:d] + (cg, groups, f // groups))
    k = np.moveaxis(k, d, -1)   # (spatial..., groups, F / groups, cg)
    return np.moveaxis(k, d, d + 1).reshape(kernel.shape[:d] + (
        f // groups, groups * cg))


def conv_filter_grad(x, g, shape, strides, pads, dilation, groups):
    """The transpose of conv with respect to its kernel (of `shape`)."""
    d = x.ndim - 2
    w = _windows(_padded(x, pads), shape[:d], strides, dilation)
    f, cg = shape[-1], shape[-2]
    fg = f // groups
    parts = [_matmul(w[..., i * cg:(i + 1) * cg].reshape(
                 g[..., 0].size, -1).T,
                 g[..., i * fg:(i + 1) * fg].reshape(-1, fg)
                 ).reshape(tuple(shape[:-1]) + (fg,))
             for i in range(groups)]
    return parts[0] if groups == 1 else np.concatenate(parts, -1)


# ---- pooling: padding is 'valid' or 'same' (TensorFlow's pads) -------------
def _pool_pads(shape, size, strides, padding):
    if padding == "valid":
        return ((0, 0),) * len(size)
    pads = []
    for n, k, s in zip(shape, size, strides):
        total = max((-(-n // s) - 1) * s + k - n, 0)
        pads.append((total // 2, total - total // 2))
    return tuple(pads)


def _reduce_windows(ufunc, xp, size, strides):
    """ufunc folded over the window offsets, one strided slice each (several
    times faster than reducing the window axes of a stride-trick view)."""
    ones = (1,) * len(size)
    out = None
    for _, sl in _offsets(size, strides, ones,
                          _out(xp.shape[1:-1], size, strides, ones)):
        out = xp[sl].copy() if out is None else ufunc(out, xp[sl], out=out)
    return out


def max_pool(x, size, strides, padding):
    pads = _pool_pads(x.shape[1:-1], size, strides, padding)
    return _reduce_windows(np.maximum, _padded(x, pads, -np.inf), size,
                           strides)


def _winners(x, y, size, strides, padding):
    """(pads, [(slice, mask)]): per window offset, where that offset holds
    the window's first maximum (TensorFlow's choice among ties)."""
    pads = _pool_pads(x.shape[1:-1], size, strides, padding)
    xp = _padded(x, pads, -np.inf)
    taken = np.zeros(y.shape, bool)
    hits = []
    for _, sl in _offsets(size, strides, (1,) * len(size), y.shape[1:-1]):
        hit = (xp[sl] == y) & ~taken
        taken |= hit
        hits.append((sl, hit))
    return pads, xp.shape, hits


def max_pool_grad(x, y, dy, size, strides, padding):
    pads, padded, hits = _winners(x, y, size, strides, padding)
    gp = np.zeros(padded, dy.dtype)
    for sl, hit in hits:
        gp[sl] += np.where(hit, dy, 0)
    return _unpadded(gp, pads, x.shape)


def max_pool_grad_grad(x, y, ddx, size, strides, padding):
    pads, _, hits = _winners(x, y, size, strides, padding)
    dp = _padded(ddx, pads)
    out = np.zeros(y.shape, ddx.dtype)
    for sl, hit in hits:
        out += np.where(hit, dp[sl], 0)
    return out


def _inverse_counts(shape, size, strides, padding, dtype):
    """1 / (cells of each window inside the input): (1, out..., 1)."""
    one = np.ones((1,) + tuple(shape[1:-1]) + (1,))
    pads = _pool_pads(shape[1:-1], size, strides, padding)
    w = _windows(_padded(one, pads), size, strides, (1,) * len(size))
    return (1.0 / w.sum(axis=tuple(range(len(shape) - 1,
                                         2 * len(shape) - 3)))).astype(dtype)


def avg_pool(x, size, strides, padding):
    pads = _pool_pads(x.shape[1:-1], size, strides, padding)
    total = _reduce_windows(np.add, _padded(x, pads), size, strides)
    return total * _inverse_counts(x.shape, size, strides, padding, x.dtype)


def avg_pool_grad(dy, shape, size, strides, padding):
    pads = _pool_pads(shape[1:-1], size, strides, padding)
    share = dy * _inverse_counts(shape, size, strides, padding, dy.dtype)
    gp = np.zeros((shape[0],) + tuple(
        n + b + a for n, (b, a) in zip(shape[1:-1], pads)) + (shape[-1],),
        dy.dtype)
    for _, sl in _offsets(size, strides, (1,) * len(size), dy.shape[1:-1]):
        gp[sl] += share
    return _unpadded(gp, pads, shape)
