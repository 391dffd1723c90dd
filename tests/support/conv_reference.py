"""Convolutions and pooling in plain NumPy, written from their definitions
(a loop over kernel offsets, one einsum per offset), in float64: an oracle
that needs no TensorFlow kernel, so it answers the same on every CPU.

Layouts are Keras': inputs (batch, spatial..., channels) or channels first,
kernels (spatial..., in channels / groups, filters); conv_transpose's kernel is
(spatial..., filters, channels) and its output size is Keras' formula.
"""
import itertools

import numpy as np


def _tuple(v, d):
    return (int(v),) * d if np.isscalar(v) else tuple(int(a) for a in v)


def _last(x, data_format):
    return np.moveaxis(x, 1, -1) if data_format == "channels_first" else x


def _back(y, data_format):
    return np.moveaxis(y, -1, 1) if data_format == "channels_first" else y


def _same_pads(n, k, s, dil):
    span = (k - 1) * dil + 1
    out = -(-n // s)
    total = max((out - 1) * s + span - n, 0)
    return out, total // 2


def _geometry(shape, size, strides, padding, dilation):
    """(output sizes, pads before) of a window sliding over `shape`."""
    outs, before = [], []
    for n, k, s, dil in zip(shape, size, strides, dilation):
        if padding == "same":
            o, b = _same_pads(n, k, s, dil)
        else:
            o, b = (n - (k - 1) * dil - 1) // s + 1, 0
        outs.append(o)
        before.append(b)
    return outs, before


def _window(xp, offset, outs, strides):
    """xp[:, offset + o * stride, ...] for every output position o."""
    idx = tuple(slice(b, b + (o - 1) * s + 1, s)
                for b, o, s in zip(offset, outs, strides))
    return xp[(slice(None),) + idx]


def _padded(x, outs, before, size, strides, dilation, fill=0.0):
    pads = [(0, 0)]
    for n, o, b, k, s, dil in zip(x.shape[1:-1], outs, before, size, strides,
                                  dilation):
        need = (o - 1) * s + (k - 1) * dil + 1
        pads.append((b, max(need - n - b, 0)))
    return np.pad(x, pads + [(0, 0)], constant_values=fill)


def conv(x, kernel, strides=1, padding="valid", data_format="channels_last",
         dilation_rate=1):
    x = _last(np.asarray(x, np.float64), data_format)
    k = np.asarray(kernel, np.float64)
    d = x.ndim - 2
    size, strides = k.shape[:d], _tuple(strides, d)
    dilation = _tuple(dilation_rate, d)
    cg, f = k.shape[-2:]
    g = x.shape[-1] // cg
    outs, before = _geometry(x.shape[1:-1], size, strides, padding, dilation)
    xp = _padded(x, outs, before, size, strides, dilation)
    y = np.zeros((x.shape[0], *outs, g, f // g))
    for pos in itertools.product(*(range(n) for n in size)):
        patch = _window(xp, [p * dil for p, dil in zip(pos, dilation)], outs,
                        strides)
        patch = patch.reshape(patch.shape[:-1] + (g, cg))
        w = k[pos].reshape(cg, g, f // g)
        y += np.einsum("...gc,cgf->...gf", patch, w)
    return _back(y.reshape(y.shape[:-2] + (f,)), data_format)


def depthwise_conv(x, kernel, strides=1, padding="valid",
                   data_format="channels_last", dilation_rate=1):
    k = np.asarray(kernel, np.float64)
    c, m = k.shape[-2:]
    # channel c's multiplier m is filter c * m + m, one group per channel
    return conv(x, k.reshape(k.shape[:-2] + (1, c * m)), strides, padding,
                data_format, dilation_rate)


def separable_conv(x, depthwise_kernel, pointwise_kernel, strides=1,
                   padding="valid", data_format="channels_last",
                   dilation_rate=1):
    y = depthwise_conv(x, depthwise_kernel, strides, padding, data_format,
                       dilation_rate)
    return conv(y, pointwise_kernel, 1, "valid", data_format)


def transpose_size(n, k, s, padding, extra, dil):
    """Keras' output size of a transposed convolution along one axis."""
    span = (k - 1) * dil + 1
    if padding == "valid":
        extra = max(span, s) - span if extra is None else extra
        return (n - 1) * s + span + extra
    return n * s if extra is None else (n - 1) * s + span % 2 + extra


def conv_transpose(x, kernel, strides=1, padding="valid", output_padding=None,
                   data_format="channels_last", dilation_rate=1):
    """Each input position spreads kernel[..., f, c] * x[..., c] over the
    output window it would be read from by a convolution with the same
    geometry (the adjoint of conv)."""
    x = _last(np.asarray(x, np.float64), data_format)
    k = np.asarray(kernel, np.float64)
    d = x.ndim - 2
    size, strides = k.shape[:d], _tuple(strides, d)
    dilation = _tuple(dilation_rate, d)
    extra = (None,) * d if output_padding is None else \
        _tuple(output_padding, d)
    outs = [transpose_size(n, kk, s, padding, e, dil) for n, kk, s, e, dil
            in zip(x.shape[1:-1], size, strides, extra, dilation)]
    before = [_same_pads(o, kk, s, dil)[1] if padding == "same" else 0
              for o, kk, s, dil in zip(outs, size, strides, dilation)]
    big = [(n - 1) * s + (kk - 1) * dil + 1 + o for n, s, kk, dil, o
           in zip(x.shape[1:-1], strides, size, dilation, outs)]
    y = np.zeros((x.shape[0], *big, k.shape[-2]))
    for pos in itertools.product(*(range(n) for n in size)):
        idx = tuple(slice(p * dil, p * dil + (n - 1) * s + 1, s)
                    for p, dil, n, s in zip(pos, dilation, x.shape[1:-1],
                                            strides))
        y[(slice(None),) + idx] += np.einsum("...c,fc->...f", x, k[pos])
    crop = tuple(slice(b, b + o) for b, o in zip(before, outs))
    return _back(y[(slice(None),) + crop], data_format)


def _pool(x, pool_size, strides, padding, data_format, reduce, fill):
    x = _last(np.asarray(x, np.float64), data_format)
    d = x.ndim - 2
    size = _tuple(pool_size, d)
    strides = size if strides is None else _tuple(strides, d)
    ones = (1,) * d
    outs, before = _geometry(x.shape[1:-1], size, strides, padding, ones)
    xp = _padded(x, outs, before, size, strides, ones, fill)
    inside = _padded(np.ones((1, *x.shape[1:-1], 1)), outs, before, size,
                     strides, ones)
    windows = [(_window(xp, pos, outs, strides),
                _window(inside, pos, outs, strides))
               for pos in itertools.product(*(range(n) for n in size))]
    return _back(reduce(windows), data_format)


def max_pool(x, pool_size, strides=None, padding="valid",
             data_format="channels_last"):
    return _pool(x, pool_size, strides, padding, data_format,
                 lambda ws: np.max([w for w, _ in ws], axis=0), -np.inf)


def average_pool(x, pool_size, strides=None, padding="valid",
                 data_format="channels_last"):
    # TensorFlow's rule: padded cells are not counted in the mean
    return _pool(x, pool_size, strides, padding, data_format,
                 lambda ws: sum(w for w, _ in ws) / sum(c for _, c in ws),
                 0.0)
