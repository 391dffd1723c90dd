"""NumPy kernels of the activations and their fused gradients (the ones
TensorFlow has as kernels: TanhGrad, SigmoidGrad, ReluGrad, SqrtGrad, ...),
and of convolution, channels last: windows (_windows.py) as a stride-trick
view of the padded input, a convolution as one im2col copy and one BLAS
matmul per group, its input transpose as the full correlation with the
flipped kernel (stride 1) or a matmul and one strided add per kernel offset.
The pooling kernels are in _pooling.py."""
import numpy as np

from pycg.backends import kernels as _kernels
from pycg.backends.numpy import _windows as _w
from pycg.backends.numpy._pooling import (  # noqa: F401  (kernels of nn)
    avg_pool, avg_pool_grad, max_pool, max_pool_grad, max_pool_grad_grad)


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


def conv(x, kernel, strides, pads, dilation, groups):
    d = x.ndim - 2
    w = _w.windows(_w.padded(x, pads), kernel.shape[:d], strides, dilation)
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
        return _w.unpadded(conv(g, _flipped(kernel, groups), strides, tuple(
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
    for j, sl in _w.offsets(size, strides, dilation, out):
        xp[sl] += cols[lead + j]
    return _w.unpadded(xp, pads, shape)


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
    w = _w.windows(_w.padded(x, pads), shape[:d], strides, dilation)
    f, cg = shape[-1], shape[-2]
    fg = f // groups
    parts = [_matmul(w[..., i * cg:(i + 1) * cg].reshape(
                 g[..., 0].size, -1).T,
                 g[..., i * fg:(i + 1) * fg].reshape(-1, fg)
                 ).reshape(tuple(shape[:-1]) + (fg,))
             for i in range(groups)]
    return parts[0] if groups == 1 else np.concatenate(parts, -1)


__all__ = _kernels(globals())   # (this file's kernels: see backends.kernels)
