"""Shapes and pads of the windowed kernels in nn.py, where TensorFlow's CPU
kernels need help: pads as TensorFlow's padding argument or as tf.pad, a
dilated kernel spread with zeros, 3-D operands folded for 2-D and 1-D
pooling."""
import tensorflow as tf


def same_pads(shape, size, strides, dilation):
    pads = []
    for n, k, s, d in zip(shape, size, strides, dilation):
        total = max((-(-n // s) - 1) * s + (k - 1) * d + 1 - n, 0)
        pads.append((total // 2, total - total // 2))
    return tuple(pads)


def padding(shape, size, strides, pads):
    """TensorFlow's padding argument for these pads, or None when only
    explicit pads (2-D, none negative) or tf.pad can express them."""
    if all(p == (0, 0) for p in pads):
        return "VALID", []
    if pads == same_pads(shape, size, strides, (1,) * len(size)):
        return "SAME", []
    if len(size) == 2 and min(min(p) for p in pads) >= 0:
        return "EXPLICIT", [0, 0, *pads[0], *pads[1], 0, 0]
    return None


def padded(x, pads):
    x = x[(slice(None),) + tuple(slice(None, a if a < 0 else None)
                                 for _, a in pads)]
    return tf.pad(x, [(0, 0)] + [(b, max(a, 0)) for b, a in pads]
                  + [(0, 0)])


def unpadded(xp, pads, shape):
    inner = xp[(slice(None),) + tuple(
        slice(b, b + n + min(a, 0)) for (b, a), n in zip(pads, shape[1:-1]))]
    return tf.pad(inner, [(0, 0)] + [(0, -min(a, 0)) for _, a in pads]
                  + [(0, 0)])


def spread(kernel, dilation):
    """A kernel with dilation - 1 zeros between its taps."""
    for i, d in enumerate(dilation):
        if d > 1:
            k = kernel.shape[i]
            z = tf.zeros_like(kernel)
            kernel = tf.stack([kernel] + [z] * (d - 1), i + 1)
            shape = tf.concat([tf.shape(kernel)[:i], [k * d],
                               tf.shape(kernel)[i + 2:]], 0)
            kernel = tf.reshape(kernel, shape)[
                (slice(None),) * i + (slice(0, (k - 1) * d + 1),)]
    return kernel


def split3(x):
    """(N, D, H, W, C) -> (N * D, H, W, C) and its inverse."""
    n, d = tf.shape(x)[0], x.shape[1]
    return (lambda a: tf.reshape(a, tf.concat([[n * d], tf.shape(a)[2:]],
                                              0)),
            lambda a: tf.reshape(a, tf.concat([[n, d], tf.shape(a)[1:]], 0)))


def depth_first(x):
    """(N, D, H, W, C) -> (N, H * W, D, C)... as a 1-D pooling over D:
    (N * H * W, D, C) by transposing, and its inverse."""
    s = tf.shape(x)
    t = tf.transpose(x, (0, 2, 3, 1, 4))
    flat = tf.reshape(t, tf.concat([[-1], s[1:2], s[4:]], 0))

    def back(a):
        a = tf.reshape(a, tf.concat([s[:1], s[2:4], tf.shape(a)[1:]], 0))
        return tf.transpose(a, (0, 3, 1, 2, 4))
    return flat, back
