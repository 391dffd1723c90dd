"""TensorFlow kernels of the activations and their fused gradients
(TanhGrad, SigmoidGrad, ReluGrad, SqrtGrad, ...), and of convolution and
pooling, channels last (the layout every CPU kernel accepts, with or without
oneDNN): Conv2D, Conv3D, their backprop ops, MaxPool, AvgPool and their
gradients. Where TensorFlow's CPU kernels refuse a configuration they are
composed: 1-D runs as 2-D, a dilated kernel is spread with zeros (the
backprop ops and Conv3D take no dilation on CPU), groups run one after
another (the backprop ops and Conv3D take none) unless each is one channel
(DepthwiseConv2dNative), 3-D pooling is 2-D pooling then 1-D pooling
(MaxPool3D takes no float64; a box max or mean is separable), and pads
TensorFlow cannot express are applied with tf.pad (_windows.py)."""
import tensorflow as tf
from tensorflow.python.ops import gen_math_ops as _gen
from tensorflow.python.ops import gen_nn_ops as _nn

from pycg.backends.tensorflow import _windows as _w
from pycg.backends.tensorflow._fast import fast as _fast
from pycg.backends import kernels as _kernels

sigmoid = _fast("Sigmoid", _gen.sigmoid)
softplus = tf.math.softplus
relu = tf.nn.relu
log_softmax = tf.nn.log_softmax   # (fused; numpy composes it in ops.nn)


# TensorFlow's fused gradient kernels
tanh_grad = _fast("TanhGrad", _gen.tanh_grad, 2)
sigmoid_grad = _fast("SigmoidGrad", _gen.sigmoid_grad, 2)
relu_grad = _fast("ReluGrad", _nn.relu_grad, 2)
sqrt_grad = _fast("SqrtGrad", _gen.sqrt_grad, 2)   # (0 where dy is 0)
rsqrt_grad = _fast("RsqrtGrad", _gen.rsqrt_grad, 2)
reciprocal_grad = _fast("ReciprocalGrad", _gen.reciprocal_grad, 2)


# ---- convolution ---------------------------------------------------------------
def _one_d(fn, *args):
    """Runs a 2-D kernel on 1-D operands (a height of one)."""
    return tf.squeeze(fn(*args), 1)


def _depthwise(ndim, group_channels, groups, strides):
    """Whether a 2-D grouped conv is TensorFlow's depthwise conv (one input
    channel a group; its CPU kernels want equal strides)."""
    return (ndim == 4 and groups > 1 and group_channels == 1
            and strides[0] == strides[1])


def _per_channel(kernel, groups):
    """(h, w, 1, C * M) -> the depthwise filter (h, w, C, M)."""
    return tf.reshape(kernel, tuple(kernel.shape[:2])
                      + (groups, kernel.shape[-1] // groups))


def conv(x, kernel, strides, pads, dilation, groups):
    if x.ndim == 3:
        return _one_d(conv, x[:, None], kernel[None], (1,) + strides,
                      ((0, 0),) + pads, (1,) + dilation, groups)
    kernel = _w.spread(kernel, dilation)
    depthwise = _depthwise(x.ndim, kernel.shape[-2], groups, strides)
    if groups > 1 and not depthwise:
        return tf.concat([conv(a, b, strides, pads, (1,) * len(strides), 1)
                          for a, b in zip(tf.split(x, groups, -1),
                                          tf.split(kernel, groups, -1))], -1)
    size = tuple(kernel.shape[:-2])
    how = _w.padding(tuple(x.shape[1:-1]), size, strides, pads)
    if how is None:
        x, how = _w.padded(x, pads), ("VALID", [])
    s = [1, *strides, 1]
    if depthwise:
        return _nn.depthwise_conv2d_native(x, _per_channel(kernel, groups), s,
                                           how[0], explicit_paddings=how[1])
    if x.ndim == 4:
        return _nn.conv2d(x, kernel, s, how[0], explicit_paddings=how[1])
    if how[0] == "EXPLICIT":
        x, how = _w.padded(x, pads), ("VALID", [])
    return _nn.conv3d(x, kernel, s, how[0])


def conv_input_grad(g, kernel, shape, strides, pads, dilation, groups):
    if g.ndim == 3:
        return _one_d(conv_input_grad, g[:, None], kernel[None],
                      (shape[0], 1) + tuple(shape[1:]), (1,) + strides,
                      ((0, 0),) + pads, (1,) + dilation, groups)
    kernel = _w.spread(kernel, dilation)
    depthwise = _depthwise(g.ndim, kernel.shape[-2], groups, strides)
    if groups > 1 and not depthwise:
        part = tuple(shape[:-1]) + (shape[-1] // groups,)
        return tf.concat([conv_input_grad(a, b, part, strides, pads,
                                          (1,) * len(strides), 1)
                          for a, b in zip(tf.split(g, groups, -1),
                                          tf.split(kernel, groups, -1))], -1)
    size = tuple(kernel.shape[:-2])
    how = _w.padding(tuple(shape[1:-1]), size, strides, pads)
    if how is not None and (g.ndim == 4 or how[0] != "EXPLICIT"):
        sizes, wrap = list(shape), None
    else:
        sizes = [shape[0]] + [n + b + a for n, (b, a) in
                              zip(shape[1:-1], pads)] + [shape[-1]]
        how, wrap = ("VALID", []), pads
    s = [1, *strides, 1]
    if depthwise:
        out = _nn.depthwise_conv2d_native_backprop_input(
            sizes, _per_channel(kernel, groups), g, s, how[0],
            explicit_paddings=how[1])
    elif g.ndim == 4:
        out = _nn.conv2d_backprop_input(sizes, kernel, g, s, how[0],
                                        explicit_paddings=how[1])
    else:
        out = _nn.conv3d_backprop_input_v2(sizes, kernel, g, s, how[0])
    return out if wrap is None else _w.unpadded(out, wrap, shape)


def conv_filter_grad(x, g, shape, strides, pads, dilation, groups):
    if x.ndim == 3:
        return conv_filter_grad(x[:, None], g[:, None], (1,) + tuple(shape),
                                (1,) + strides, ((0, 0),) + pads,
                                (1,) + dilation, groups)[0]
    depthwise = _depthwise(x.ndim, shape[-2], groups, strides)
    if groups > 1 and not depthwise:
        part = tuple(shape[:-1]) + (shape[-1] // groups,)
        return tf.concat([conv_filter_grad(a, b, part, strides, pads,
                                           dilation, 1)
                          for a, b in zip(tf.split(x, groups, -1),
                                          tf.split(g, groups, -1))], -1)
    d = len(strides)
    size = tuple((k - 1) * r + 1 for k, r in zip(shape[:d], dilation))
    how = _w.padding(tuple(x.shape[1:-1]), size, strides, pads)
    if how is None or (x.ndim == 5 and how[0] == "EXPLICIT"):
        x, how = _w.padded(x, pads), ("VALID", [])
    s = [1, *strides, 1]
    sizes = list(size) + list(shape[d:])
    if depthwise:
        out = tf.reshape(_nn.depthwise_conv2d_native_backprop_filter(
            x, list(size) + [groups, shape[-1] // groups], g, s, how[0],
            explicit_paddings=how[1]), sizes)
    elif x.ndim == 4:
        out = _nn.conv2d_backprop_filter(x, sizes, g, s, how[0],
                                         explicit_paddings=how[1])
    else:
        out = _nn.conv3d_backprop_filter_v2(x, sizes, g, s, how[0])
    return out[tuple(slice(None, None, r) for r in dilation)]


# ---- pooling: padding is 'valid' or 'same' ----------------------------------
def _pool(fn2d, x, size, strides, padding, *rest):
    """fn2d(x, *rest, ksize, strides, padding) on 1-D to 3-D operands, where
    the operands and the result have x's rank."""
    if x.ndim == 4:
        return fn2d(x, *rest, [1, *size, 1], [1, *strides, 1],
                    padding.upper())
    if x.ndim == 3:
        return tf.squeeze(_pool(fn2d, x[:, None], (1,) + size,
                                (1,) + strides, padding,
                                *[r[:, None] for r in rest]), 1)
    raise AssertionError("3-D pooling is composed by the callers")


def _stages(x, size, strides, padding, fn2d):
    """3-D pooling as 2-D pooling over (H, W), then 1-D pooling over D:
    returns (x2, y2, y) with x2/y2 the 2-D stage's input and output."""
    to2, from2 = _w.split3(x)
    y2 = from2(fn2d(to2(x), [1, *size[1:], 1], [1, *strides[1:], 1],
                    padding.upper()))
    flat, back = _w.depth_first(y2)
    return y2, flat, back


def _max_pool2d(x, ksize, strides, padding):
    """MaxPool starting from the lowest finite value in every dtype, as
    TensorFlow's own kernel: oneDNN's half-precision one (on AVX-512 CPUs)
    starts from -inf, so a window of NaN and -inf would give -inf."""
    y = _nn.max_pool(x, ksize, strides, padding)
    if y.dtype in (tf.float16, tf.bfloat16):
        return tf.maximum(y, y.dtype.min)
    return y


def max_pool(x, size, strides, padding):
    if x.ndim != 5:
        return _pool(_max_pool2d, x, size, strides, padding)
    y2, flat, back = _stages(x, size, strides, padding, _max_pool2d)
    return back(_pool(_max_pool2d, flat, size[:1], strides[:1], padding))


def max_pool_grad(x, y, dy, size, strides, padding):
    if x.ndim != 5:
        return _pool(_nn.max_pool_grad, x, size, strides, padding, y, dy)
    y2, flat, back = _stages(x, size, strides, padding, _max_pool2d)
    fy, _ = _w.depth_first(y)
    fdy, _ = _w.depth_first(dy)
    dy2 = back(_pool(_nn.max_pool_grad, flat, size[:1], strides[:1],
                     padding, fy, fdy))
    to2, from2 = _w.split3(x)
    return from2(_nn.max_pool_grad(to2(x), to2(y2), to2(dy2),
                                   [1, *size[1:], 1], [1, *strides[1:], 1],
                                   padding.upper()))


def max_pool_grad_grad(x, y, ddx, size, strides, padding):
    if x.ndim != 5:
        return _pool(_nn.max_pool_grad_grad, x, size, strides, padding, y,
                     ddx)
    y2, flat, back = _stages(x, size, strides, padding, _max_pool2d)
    to2, from2 = _w.split3(x)
    dd2 = from2(_nn.max_pool_grad_grad(
        to2(x), to2(y2), to2(ddx), [1, *size[1:], 1], [1, *strides[1:], 1],
        padding.upper()))
    fy, _ = _w.depth_first(y)
    fdd, _ = _w.depth_first(dd2)
    return back(_pool(_nn.max_pool_grad_grad, flat, size[:1], strides[:1],
                      padding, fy, fdd))


def avg_pool(x, size, strides, padding):
    if x.ndim != 5:
        return _pool(_nn.avg_pool, x, size, strides, padding)
    y2, flat, back = _stages(x, size, strides, padding, _nn.avg_pool)
    return back(_pool(_nn.avg_pool, flat, size[:1], strides[:1], padding))


def _avg_grad(shape, dy, size, strides, padding):
    if len(shape) == 4:
        return _nn.avg_pool_grad(shape, dy, [1, *size, 1], [1, *strides, 1],
                                 padding.upper())
    return tf.squeeze(_avg_grad((shape[0], 1) + tuple(shape[1:]),
                                dy[:, None], (1,) + size, (1,) + strides,
                                padding), 1)


def avg_pool_grad(dy, shape, size, strides, padding):
    shape = tuple(int(n) for n in shape)
    if len(shape) != 5:
        return _avg_grad(shape, dy, size, strides, padding)
    n, d, h, w, c = shape
    h2, w2 = dy.shape[2], dy.shape[3]
    fdy, _ = _w.depth_first(dy)
    # the 2-D stage's output is (N, D, h2, w2, C); its 1-D view is
    # (N * h2 * w2, D, C)
    g1 = _avg_grad((n * h2 * w2, d, c), fdy, size[:1], strides[:1], padding)
    g1 = tf.transpose(tf.reshape(g1, (n, h2, w2, d, c)), (0, 3, 1, 2, 4))
    g2 = _avg_grad((n * d, h, w, c), tf.reshape(g1, (n * d, h2, w2, c)),
                   size[1:], strides[1:], padding)
    return tf.reshape(g2, shape)


__all__ = _kernels(globals())   # (this file's kernels: see backends.kernels)
