"""Convolutions (keras.ops names), built from differentiable pycg ops.

A convolution is one gather of patches (flat positions computed with NumPy
from the static shapes, as the indexing ops do) and one einsum with the
kernel; its gradient is a scatter-add and an einsum, through the existing
rules, to any order, on both backends. conv_transpose is the scatter-add
itself: it is the VJP of conv with respect to its input, as in TensorFlow.
Spatial work is done channels_last; channels_first is transposed in and out.
"""
import numpy as np

from pycg.ops._dispatch import as_tensor, result_dtype
from pycg.tensor import is_float
from pycg.ops.creation import cast
from pycg.ops.linalg import einsum, matmul
from pycg.ops.manipulation import (_gather, _scatter, getitem, pad, reshape,
                                   transpose)

_LETTERS = "abcdefghijklm"


def _data_format(op, data_format):
    fmt = data_format or "channels_last"
    if fmt not in ("channels_last", "channels_first"):
        raise ValueError(
            f"pycg.ops.{op}: data_format must be 'channels_last' or "
            f"'channels_first', got {data_format!r}")
    return fmt


def _ints(op, name, v, n):
    t = (int(v),) * n if isinstance(v, (int, np.integer)) else tuple(
        int(a) for a in v)
    if len(t) != n or min(t) < 1:
        raise ValueError(
            f"pycg.ops.{op}: {name} must be a positive int or {n} positive "
            f"ints (one per spatial dimension), got {v!r}")
    return t


def _padding(op, padding):
    p = padding.lower() if isinstance(padding, str) else padding
    if p not in ("valid", "same"):
        raise ValueError(
            f"pycg.ops.{op}: padding must be 'valid' or 'same', got "
            f"{padding!r}")
    return p


def channels_last(op, x, data_format):
    """x as a float tensor of rank 3 to 5 with the channels last."""
    x = as_tensor(x, op)
    if x.ndim not in (3, 4, 5):
        raise ValueError(
            f"pycg.ops.{op}: inputs must have rank 3, 4 or 5 (batch, 1 to 3 "
            f"spatial dimensions, channels), got shape {x.shape}")
    if _data_format(op, data_format) == "channels_first":
        x = transpose(x, (0,) + tuple(range(2, x.ndim)) + (1,))
    return x


def restore(y, data_format):
    if (data_format or "channels_last") == "channels_first":
        return transpose(y, (0, y.ndim - 1) + tuple(range(1, y.ndim - 1)))
    return y


def window(op, shape, size, strides, padding, dilation):
    """(output sizes, (before, after) pads) of a sliding window."""
    out, pads = [], []
    for n, k, s, d in zip(shape, size, strides, dilation):
        span = (k - 1) * d + 1
        if padding == "same":
            o = -(-n // s)
            total = max((o - 1) * s + span - n, 0)
            pads.append((total // 2, total - total // 2))
        else:
            o = (n - span) // s + 1
            pads.append((0, 0))
        if o < 1:
            raise ValueError(
                f"pycg.ops.{op}: a window of {span} (size {k}, dilation {d}) "
                f"does not fit a spatial size of {n} with padding='valid'")
        out.append(o)
    return tuple(out), pads


_cache = {}


def _positions(shape, out, size, strides, dilation):
    """Flat positions in an array of `shape` (N, spatial..., C) of every
    patch: shape (N, out..., size..., C)."""
    key = (shape, out, size, strides, dilation)
    pos = _cache.get(key)
    if pos is None:
        d = len(out)
        grid = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)
        index = [np.arange(shape[0]).reshape((-1,) + (1,) * (2 * d + 1))]
        for i in range(d):
            o = np.arange(out[i]) * strides[i]
            k = np.arange(size[i]) * dilation[i]
            idx = o[:, None] + k[None, :]
            full = [1] * (2 * d + 2)
            full[1 + i], full[1 + d + i] = out[i], size[i]
            index.append(idx.reshape(full))
        index.append(np.arange(shape[-1]).reshape((1,) * (2 * d + 1) + (-1,)))
        pos = grid[tuple(index)]
        if len(_cache) > 256:
            _cache.clear()
        _cache[key] = pos
    return pos


def patches(op, x, size, strides, padding, dilation, pad_value=0.0):
    """Every window of x (N, spatial..., C): shape (N, out..., size..., C)."""
    out, pads = window(op, x.shape[1:-1], size, strides, padding, dilation)
    if any(p != (0, 0) for p in pads):
        x = pad(x, [(0, 0)] + pads + [(0, 0)], constant_values=pad_value)
    return _gather(x, _positions(x.shape, out, size, strides, dilation))


def _floats(op, inputs, kernel):
    x, k = as_tensor(inputs, op), as_tensor(kernel, op)
    dt = result_dtype(x.dtype, k.dtype, "float32") if \
        not is_float(x.dtype) or not is_float(k.dtype) else \
        result_dtype(x.dtype, k.dtype)
    return cast(x, dt), cast(k, dt)


def conv(inputs, kernel, strides=1, padding="valid", data_format=None,
         dilation_rate=1):
    """N-D convolution (cross-correlation, as in Keras) of inputs (batch,
    spatial..., channels) with kernel (spatial..., channels / groups,
    filters); channels a multiple of kernel.shape[-2] makes a grouped
    convolution.

    >>> from pycg import ops
    >>> x = ops.reshape(ops.arange(5.0), (1, 5, 1))
    >>> ops.conv(x, ops.ones((2, 1, 1))).numpy().ravel().tolist()
    [1.0, 3.0, 5.0, 7.0]
    """
    op = "conv"
    inputs, kernel = _floats(op, inputs, kernel)
    x = channels_last(op, inputs, data_format)
    d = x.ndim - 2
    if kernel.ndim != d + 2:
        raise ValueError(
            f"pycg.ops.{op}: kernel must have rank {d + 2} (spatial..., "
            f"in channels, filters) for inputs of rank {x.ndim}, got shape "
            f"{kernel.shape}")
    c, cg, f = x.shape[-1], kernel.shape[-2], kernel.shape[-1]
    if c % cg or f % (c // cg):
        raise ValueError(
            f"pycg.ops.{op}: inputs has {c} channels, which kernel (shape "
            f"{kernel.shape}) cannot split into groups of {cg} (and its "
            f"{f} filters must split into as many groups)")
    g = c // cg
    p = patches(op, x, kernel.shape[:d], _ints(op, "strides", strides, d),
                _padding(op, padding),
                _ints(op, "dilation_rate", dilation_rate, d))
    if g == 1:   # one matmul of (positions, window) by (window, filters)
        rows = reshape(p, (-1, int(np.prod(p.shape[1 + d:]))))
        y = matmul(rows, reshape(kernel, (rows.shape[1], f)))
        return restore(reshape(y, p.shape[:1 + d] + (f,)), data_format)
    o, k = _LETTERS[:d], _LETTERS[d:2 * d]
    p = reshape(p, p.shape[:-1] + (g, cg))
    w = reshape(kernel, kernel.shape[:d] + (cg, g, f // g))
    y = einsum(f"n{o}{k}GC,{k}CGF->n{o}GF", p, w)
    return restore(reshape(y, y.shape[:-2] + (f,)), data_format)


def depthwise_conv(inputs, kernel, strides=1, padding="valid",
                   data_format=None, dilation_rate=1):
    """Each input channel convolved with its own kernel[..., c, :]
    (spatial..., channels, multiplier): channels * multiplier outputs."""
    op = "depthwise_conv"
    inputs, kernel = _floats(op, inputs, kernel)
    x = channels_last(op, inputs, data_format)
    d = x.ndim - 2
    if kernel.ndim != d + 2 or kernel.shape[-2] != x.shape[-1]:
        raise ValueError(
            f"pycg.ops.{op}: kernel must have shape (spatial..., "
            f"{x.shape[-1]}, multiplier) for inputs with {x.shape[-1]} "
            f"channels, got {kernel.shape}")
    p = patches(op, x, kernel.shape[:d], _ints(op, "strides", strides, d),
                _padding(op, padding),
                _ints(op, "dilation_rate", dilation_rate, d))
    o, k = _LETTERS[:d], _LETTERS[d:2 * d]
    y = einsum(f"n{o}{k}C,{k}CM->n{o}CM", p, kernel)
    return restore(reshape(y, y.shape[:-2] + (y.shape[-2] * y.shape[-1],)),
                   data_format)


def separable_conv(inputs, depthwise_kernel, pointwise_kernel, strides=1,
                   padding="valid", data_format=None, dilation_rate=1):
    """depthwise_conv, then a 1x1 conv with pointwise_kernel
    (1..., channels * multiplier, filters)."""
    op = "separable_conv"
    y = depthwise_conv(inputs, depthwise_kernel, strides, padding,
                       "channels_last" if data_format is None else
                       data_format, dilation_rate)
    y = channels_last(op, y, data_format)
    w = as_tensor(pointwise_kernel, op)
    if w.shape[:-2] != (1,) * (y.ndim - 2) or w.shape[-2] != y.shape[-1]:
        raise ValueError(
            f"pycg.ops.{op}: pointwise_kernel must have shape "
            f"{(1,) * (y.ndim - 2) + (y.shape[-1], 'filters')}, got "
            f"{w.shape}")
    w = reshape(cast(w, y.dtype), w.shape[-2:])
    return restore(matmul(y, w), data_format)


def conv_transpose(inputs, kernel, strides=1, padding="valid",
                   output_padding=None, data_format=None, dilation_rate=1):
    """The transpose (VJP) of conv: kernel (spatial..., filters, channels)
    spreads each input position over a window of the output; the output
    size follows Keras (output_padding adds to the right)."""
    op = "conv_transpose"
    inputs, kernel = _floats(op, inputs, kernel)
    x = channels_last(op, inputs, data_format)
    d = x.ndim - 2
    if kernel.ndim != d + 2 or kernel.shape[-1] != x.shape[-1]:
        raise ValueError(
            f"pycg.ops.{op}: kernel must have shape (spatial..., filters, "
            f"{x.shape[-1]}) for inputs with {x.shape[-1]} channels, got "
            f"{kernel.shape}")
    size = kernel.shape[:d]
    s = _ints(op, "strides", strides, d)
    dil = _ints(op, "dilation_rate", dilation_rate, d)
    pad_mode = _padding(op, padding)
    extra = (None,) * d if output_padding is None else \
        (output_padding,) * d if isinstance(output_padding, int) else \
        tuple(output_padding)
    out_shape = []
    for n, k, si, di, e in zip(x.shape[1:-1], size, s, dil, extra):
        span = (k - 1) * di + 1
        if pad_mode == "valid":
            e = max(span, si) - span if e is None else e
            out_shape.append((n - 1) * si + span + e)
        else:
            out_shape.append(n * si if e is None else
                             (n - 1) * si + span % 2 + e)
    o, k = _LETTERS[:d], _LETTERS[d:2 * d]
    spread = einsum(f"n{o}C,{k}FC->n{o}{k}F", x, kernel)
    _, pads = window(op, out_shape, size, s, pad_mode, dil)
    pos = _spread_positions(spread.shape, tuple(out_shape),
                            tuple(p[0] for p in pads), s, dil)
    full = (x.shape[0],) + tuple(out_shape) + (kernel.shape[-2],)
    size_out = int(np.prod(full))
    y = _scatter(spread, pos, (size_out + 1,))
    return restore(reshape(getitem(y, slice(0, size_out)), full), data_format)


def _spread_positions(shape, out, before, strides, dilation):
    """Flat output position of every entry of spread (N, in..., size...,
    F); those that fall outside the output go to one extra slot."""
    d = len(out)
    n, f = shape[0], shape[-1]
    ins, size = shape[1:1 + d], shape[1 + d:1 + 2 * d]
    index = np.zeros(shape, np.int64)
    inside = np.ones(shape, bool)
    stride = f
    for i in reversed(range(d)):
        p = (np.arange(ins[i])[:, None] * strides[i]
             + np.arange(size[i])[None, :] * dilation[i] - before[i])
        full = [1] * len(shape)
        full[1 + i], full[1 + d + i] = ins[i], size[i]
        p = p.reshape(full)
        inside &= (p >= 0) & (p < out[i])
        index += p * stride
        stride *= out[i]
    index += np.arange(n).reshape((-1,) + (1,) * (len(shape) - 1)) * stride
    index += np.arange(f).reshape((1,) * (len(shape) - 1) + (-1,))
    return np.where(inside, index, stride * n)
