"""Convolutions (keras.ops names): the arguments a user passed checked and
normalised here, the work done by the recorded primitives of
pycg/ops/_machinery/conv_primitives.py, which run each backend's own kernels
(TensorFlow's Conv ops; NumPy im2col and BLAS) and whose gradients are
rules in the table. depthwise_conv is a grouped conv (one group per
channel); conv_transpose is conv's input gradient, as in TensorFlow.
Spatial work is done channels_last; channels_first is transposed in and out
(TensorFlow's CPU kernels take no other layout).
"""
import numpy as np

from pycg._errors import Op, Shape, user_error
from pycg.ops._machinery import conv_primitives as P
from pycg.ops._machinery.dispatch import as_tensor, result_dtype
from pycg.ops._machinery.floats import real_only
from pycg.tensor import is_float
from pycg.ops.creation import cast
from pycg.ops.linalg import matmul
from pycg.ops.manipulation import reshape, transpose

__all__ = ("conv", "conv_transpose", "depthwise_conv", "separable_conv")


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
        raise user_error(ValueError, "{op}: inputs must have rank 3, 4 or 5 "
                         "(batch, 1 to 3 spatial dimensions, channels), got "
                         "shape {shape}", op=Op(op), shape=Shape(x.shape))
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
    return tuple(out), tuple(pads)


def _floats(op, inputs, kernel):
    """Both as one real float dtype (complex refused: TensorFlow's kernels
    take none, and Keras' conv raises for it)."""
    x = real_only(as_tensor(inputs, op), op)
    k = real_only(as_tensor(kernel, op), op)
    dt = result_dtype(x.dtype, k.dtype, "float32") if \
        not is_float(x.dtype) or not is_float(k.dtype) else \
        result_dtype(x.dtype, k.dtype)
    return cast(x, dt), cast(k, dt)


def _operands(op, inputs, kernel, data_format, channels_at=None, layout=""):
    """(inputs channels last, kernel, the spatial rank d), as one float
    dtype; with channels_at, the kernel's axis that holds the inputs'
    channels (`layout`: the kernel's last two axes, as the error names
    them)."""
    inputs, kernel = _floats(op, inputs, kernel)
    x = channels_last(op, inputs, data_format)
    d = x.ndim - 2
    if channels_at is not None and (kernel.ndim != d + 2 or
                                    kernel.shape[channels_at] != x.shape[-1]):
        raise user_error(ValueError, "{op}: kernel must have shape (spatial..., "
                         + layout + ") for inputs with {c} channels, got "
                         "{shape}", op=Op(op), c=x.shape[-1],
                         shape=Shape(kernel.shape))
    return x, kernel, d


def conv(inputs, kernel, strides=1, padding="valid", data_format=None,
         dilation_rate=1):
    """N-D convolution (cross-correlation, as in Keras) of inputs (batch,
    spatial..., channels) with kernel (spatial..., channels / groups,
    filters); channels a multiple of kernel.shape[-2] makes a grouped
    convolution.

    Args:
        inputs: The input (batch, spatial..., channels).
        kernel: The kernel (spatial..., channels / groups, filters).

    Returns:
        A tensor (batch, spatial..., filters) (channels_first: (batch, filters,
        spatial...)) in the promoted dtype.

    Example:
        >>> from pycg import ops
        >>> x = ops.reshape(ops.arange(5.0), (1, 5, 1))
        >>> ops.conv(x, ops.ones((2, 1, 1))).numpy().ravel().tolist()
        [1.0, 3.0, 5.0, 7.0]
    """
    op = "conv"
    x, kernel, d = _operands(op, inputs, kernel, data_format)
    if kernel.ndim != d + 2:
        raise user_error(ValueError, "{op}: kernel must have rank {want} "
                         "(spatial..., in channels, filters) for inputs of rank "
                         "{rank}, got shape {shape}", op=Op(op), want=d + 2,
                         rank=x.ndim, shape=Shape(kernel.shape))
    c, cg, f = x.shape[-1], kernel.shape[-2], kernel.shape[-1]
    if c % cg or f % (c // cg):
        raise user_error(ValueError, "{op}: inputs has {c} channels, which "
                         "kernel (shape {shape}) cannot split into groups of "
                         "{cg} (and its {f} filters must split into as many "
                         "groups)", op=Op(op), c=c, shape=Shape(kernel.shape),
                         cg=cg, f=f)
    s = _ints(op, "strides", strides, d)
    dil = _ints(op, "dilation_rate", dilation_rate, d)
    _, pads = window(op, x.shape[1:-1], kernel.shape[:d], s,
                     _padding(op, padding), dil)
    return restore(P.conv(x, kernel, s, pads, dil, c // cg), data_format)


def depthwise_conv(inputs, kernel, strides=1, padding="valid",
                   data_format=None, dilation_rate=1):
    """Each input channel convolved with its own kernel[..., c, :]
    (spatial..., channels, multiplier): channels * multiplier outputs.

    Args:
        kernel: The kernel (spatial..., channels, multiplier).

    Returns:
        A tensor (batch, spatial..., channels * multiplier) in the promoted
        dtype.
    """
    op = "depthwise_conv"
    x, kernel, d = _operands(op, inputs, kernel, data_format, -2,
                             "{c}, multiplier")
    s = _ints(op, "strides", strides, d)
    dil = _ints(op, "dilation_rate", dilation_rate, d)
    _, pads = window(op, x.shape[1:-1], kernel.shape[:d], s,
                     _padding(op, padding), dil)
    c, m = kernel.shape[-2:]
    grouped = reshape(kernel, kernel.shape[:d] + (1, c * m))
    return restore(P.conv(x, grouped, s, pads, dil, c), data_format)


def separable_conv(inputs, depthwise_kernel, pointwise_kernel, strides=1,
                   padding="valid", data_format=None, dilation_rate=1):
    """depthwise_conv, then a 1x1 conv with pointwise_kernel
    (1..., channels * multiplier, filters).

    Args:
        depthwise_kernel: The depthwise kernel (spatial..., channels,
            multiplier).
        pointwise_kernel: The 1x1 kernel (1..., channels * multiplier, filters).

    Returns:
        A tensor (batch, spatial..., filters) (channels_first: (batch, filters,
        spatial...)) in the promoted dtype.
    """
    op = "separable_conv"
    y = depthwise_conv(inputs, depthwise_kernel, strides, padding,
                       "channels_last" if data_format is None else
                       data_format, dilation_rate)
    y = channels_last(op, y, data_format)
    w = real_only(as_tensor(pointwise_kernel, op), op)
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
    size follows Keras (output_padding adds to the right).

    Args:
        inputs: The input (batch, spatial..., channels).
        kernel: The kernel (spatial..., filters, channels).
        output_padding: Extra rows and columns added to the right of each
            spatial axis (None: none).

    Returns:
        A tensor (batch, spatial..., filters) (channels_first: (batch, filters,
        spatial...)) in the promoted dtype.
    """
    op = "conv_transpose"
    x, kernel, d = _operands(op, inputs, kernel, data_format, -1,
                             "filters, {c}")
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
    _, pads = window(op, out_shape, size, s, pad_mode, dil)
    # the conv that maps out_shape onto x's spatial shape: its right pads
    # (negative where output cells lie beyond every window) follow
    pads = [(b, (n - 1) * si + (k - 1) * di + 1 - o - b)
            for (b, _), n, o, k, si, di in zip(pads, x.shape[1:-1],
                                               out_shape, size, s, dil)]
    full = (x.shape[0],) + tuple(out_shape) + (kernel.shape[-2],)
    return restore(P.conv_input_grad(x, kernel, full, s, pads, dil, 1),
                   data_format)
