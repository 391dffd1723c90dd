"""VJP cases for the keras.src.ops.nn / core additions (issue 14): each is
checked against finite differences and TensorFlow's GradientTape on both
backends by tests/test_ops_vjp.py. TensorFlow references are TF's own nn
ops where TF has one, else the defining formula in TF ops."""
import numpy as np
import tensorflow as tf
from tensorflow.python.ops import gen_nn_ops as tf_nn

from pycg import ops
from pycg.ops._machinery import conv_primitives as P
from support.vjp_case import Case, normal, off_zero, positive, uniform, unary


def away_from(*kinks):
    """Inputs at least 0.1 from every kink, on both sides of each."""
    def domain(*shape):
        def make(rng):
            k = rng.choice(np.asarray(kinks, float), shape)
            return k + rng.choice([-1.0, 1.0], shape) * rng.uniform(0.1, 0.9,
                                                                    shape)
        return make
    return domain


def probs(*shape):
    def make(rng):
        e = np.exp(rng.standard_normal(shape))
        return e / e.sum(-1, keepdims=True)
    return make


def labels_of(n):
    return np.array([[2, 0, 1], [1, 1, n - 1]])


def tf_sparsemax(z):
    s = -tf.sort(-z, axis=-1)
    cs = tf.cumsum(s, axis=-1)
    r = tf.range(1, z.shape[-1] + 1, dtype=z.dtype)
    k = tf.reduce_sum(tf.cast(1 + r * s > cs, z.dtype), -1, keepdims=True)
    tau = (tf.gather(cs, tf.cast(k, tf.int32) - 1, batch_dims=1) - 1) / k
    return tf.nn.relu(z - tau)


def distinct(*shape):
    """Entries at least 0.05 apart (no ties for max_pool)."""
    def make(rng):
        n = int(np.prod(shape))
        return (rng.permutation(n) * 0.1 + rng.uniform(0, 0.05, n)
                ).reshape(shape) - n * 0.05
    return make


def tf_conv_transpose(x, k, out_shape, strides, padding):
    return tf.nn.conv_transpose(x, k, out_shape, strides, padding)


# strides (2, 1), pads ((1, 1), (0, 1)), no dilation, one group
CONV = ((2, 1), ((1, 1), (0, 1)), (1, 1), 1)
TF_PADS = [[0, 0], [1, 1], [0, 1], [0, 0]]
POOL = ((2, 2), (1, 2), "same")
SELU = (1.0507009873554804934193349852946, 1.6732632423543772848170429916717)
BN_MEAN = np.array([0.1, -0.2, 0.3])

CASES = {
    # activations
    "log_sigmoid": unary(ops.log_sigmoid, tf.math.log_sigmoid),
    "relu6": unary(ops.relu6, tf.nn.relu6, away_from(0.0, 6.0)),
    "hard_sigmoid": unary(ops.hard_sigmoid,
                          lambda x: tf.nn.relu6(x + 3) / 6,
                          away_from(-3.0, 3.0)),
    "hard_silu": unary(ops.hard_silu, lambda x: x * tf.nn.relu6(x + 3) / 6,
                       away_from(-3.0, 3.0)),
    "hard_swish": unary(ops.hard_swish, lambda x: x * tf.nn.relu6(x + 3) / 6,
                        away_from(-3.0, 3.0)),
    "leaky_relu": [unary(ops.leaky_relu, tf.nn.leaky_relu, off_zero),
                   unary(lambda x: ops.leaky_relu(x, negative_slope=0.05),
                         lambda x: tf.nn.leaky_relu(x, 0.05), off_zero)],
    "selu": unary(ops.selu, tf.nn.selu, off_zero),
    "softsign": unary(ops.softsign, tf.nn.softsign, off_zero),
    "swish": unary(ops.swish, tf.nn.silu),
    "celu": [unary(ops.celu, tf.nn.elu, off_zero),
             unary(lambda x: ops.celu(x, alpha=0.5),
                   lambda x: 0.5 * tf.nn.elu(x / 0.5), off_zero)],
    "glu": [Case(ops.glu, lambda x: x[:, :2] * tf.sigmoid(x[:, 2:]),
                 (normal(3, 4),)),
            Case(lambda x: ops.glu(x, axis=0),
                 lambda x: x[:2] * tf.sigmoid(x[2:]), (normal(4, 3),))],
    "hard_tanh": unary(ops.hard_tanh,
                       lambda x: tf.clip_by_value(x, -1.0, 1.0),
                       away_from(-1.0, 1.0)),
    "hard_shrink": unary(lambda x: ops.hard_shrink(x, 0.7),
                         lambda x: tf.where(tf.abs(x) > 0.7, x, 0.0),
                         away_from(-0.7, 0.7)),
    "soft_shrink": unary(ops.soft_shrink,
                         lambda x: tf.sign(x) * tf.nn.relu(tf.abs(x) - 0.5),
                         away_from(-0.5, 0.5)),
    "tanh_shrink": unary(ops.tanh_shrink, lambda x: x - tf.tanh(x)),
    "threshold": unary(lambda x: ops.threshold(x, 0.2, -1.0),
                       lambda x: tf.where(x > 0.2, x, -1.0),
                       away_from(0.2)),
    "sparse_plus": unary(ops.sparse_plus,
                         lambda x: tf.where(x <= -1, 0.0, tf.where(
                             x >= 1, x, (x + 1) ** 2 / 4)),
                         away_from(-1.0, 1.0)),
    "sparse_sigmoid": unary(ops.sparse_sigmoid,
                            lambda x: tf.clip_by_value((x + 1) / 2, 0, 1),
                            away_from(-1.0, 1.0)),
    "squareplus": [unary(ops.squareplus,
                         lambda x: (x + tf.sqrt(x * x + 4)) / 2),
                   unary(lambda x: ops.squareplus(x, b=0.5),
                         lambda x: (x + tf.sqrt(x * x + 0.5)) / 2)],
    "sparsemax": Case(ops.sparsemax, tf_sparsemax,
                      (lambda rng: np.array([[1.0, 0.9, 0.0, -0.5],
                                             [0.1, 0.3, 0.2, 0.25],
                                             [2.0, -1.0, 0.5, 0.4]])
                       + rng.uniform(-0.01, 0.01, (3, 4)),)),
    # losses (the target is differentiable too)
    "binary_crossentropy": [
        Case(ops.binary_crossentropy,
             lambda t, p: -(t * tf.math.log(p) + (1 - t) * tf.math.log(1 - p)),
             (uniform(0, 1, 2, 3), uniform(0.1, 0.9, 2, 3))),
        Case(lambda t, z: ops.binary_crossentropy(t, z, from_logits=True),
             lambda t, z: tf.nn.sigmoid_cross_entropy_with_logits(t, z),
             (uniform(0, 1, 2, 3), normal(2, 3)))],
    "categorical_crossentropy": [
        Case(ops.categorical_crossentropy,
             lambda t, p: -tf.reduce_sum(
                 t * tf.math.log(p / tf.reduce_sum(p, -1, keepdims=True)),
                 -1),
             (probs(2, 4), uniform(0.1, 0.9, 2, 4))),
        Case(lambda t, z: ops.categorical_crossentropy(t, z, from_logits=True,
                                                       axis=0),
             lambda t, z: tf.nn.softmax_cross_entropy_with_logits(t, z,
                                                                  axis=0),
             (lambda rng: probs(3, 2)(rng).T, normal(2, 3)))],
    "sparse_categorical_crossentropy": [
        # (Keras' TensorFlow form: p clipped, then rescaled to sum 1)
        Case(lambda p: ops.sparse_categorical_crossentropy(labels_of(4), p),
             lambda p: tf.nn.sparse_softmax_cross_entropy_with_logits(
                 labels_of(4), tf.math.log(tf.clip_by_value(
                     p, 1e-7, 1 - 1e-7))),
             (uniform(0.1, 0.9, 2, 3, 4),)),
        Case(lambda z: ops.sparse_categorical_crossentropy(
            labels_of(4), z, from_logits=True),
             lambda z: tf.nn.sparse_softmax_cross_entropy_with_logits(
                 labels_of(4), z), (normal(2, 3, 4),))],
    "psnr": Case(lambda a, b: ops.psnr(a, b, 2.0),
                 lambda a, b: 20 * np.log10(2.0) - 10 * tf.math.log(
                     tf.reduce_mean((a - b) ** 2)) / np.log(10),
                 (normal(2, 3), normal(2, 3))),
    "ctc_loss": Case(lambda z: ops.ctc_loss(CTC_TARGET, z, [2, 1], [4, 3]),
                     lambda z: _tf_ctc_by_enumeration(z, CTC_TARGET, [2, 1],
                                                      [4, 3]),
                     (normal(2, 4, 3),)),
    # moments and normalisation
    "moments": [Case(lambda x: list(ops.moments(x, [0, 2])),
                     lambda x: list(tf.nn.moments(x, [0, 2])),
                     (normal(2, 3, 2),)),
                Case(lambda x: list(ops.moments(x, 1, keepdims=True)),
                     lambda x: list(tf.nn.moments(x, [1], keepdims=True)),
                     (normal(2, 3),))],
    "batch_normalization": [
        Case(lambda x, m, v, o, s: ops.batch_normalization(
            x, m, v, axis=-1, offset=o, scale=s, epsilon=0.01),
             lambda x, m, v, o, s: tf.nn.batch_normalization(x, m, v, o, s,
                                                             0.01),
             (normal(2, 3), normal(3), positive(3), normal(3), normal(3))),
        Case(lambda x, v: ops.batch_normalization(x, BN_MEAN, v, axis=1),
             lambda x, v: tf.nn.batch_normalization(
                 x, BN_MEAN[:, None], v[:, None], None, None, 1e-3),
             (normal(2, 3, 2), positive(3)))],
    "normalize": [
        unary(ops.normalize, lambda x: tf.math.l2_normalize(x, -1, 1e-14)),
        unary(lambda x: ops.normalize(x, axis=0, order=1),
              lambda x: x / tf.reduce_sum(tf.abs(x), 0, keepdims=True),
              off_zero),
        unary(lambda x: ops.normalize(x, order=3),
              lambda x: x / tf.norm(x, 3, -1, keepdims=True), off_zero)],
    "layer_normalization": [
        Case(lambda x, g, b: ops.layer_normalization(x, g, b, epsilon=0.01),
             lambda x, g, b: tf.nn.batch_normalization(
                 x, *tf.nn.moments(x, [-1], keepdims=True), b, g, 0.01),
             (normal(2, 3), normal(3), normal(3))),
        Case(lambda x, g: ops.layer_normalization(x, g, axis=(0, 1)),
             lambda x, g: tf.nn.batch_normalization(
                 x, *tf.nn.moments(x, [0, 1], keepdims=True), None, g,
                 1e-7), (normal(2, 3), normal(2, 3)))],
    "rms_normalization": [
        Case(lambda x, s: ops.rms_normalization(x, s, epsilon=0.01),
             lambda x, s: x * tf.math.rsqrt(
                 tf.reduce_mean(x * x, -1, keepdims=True) + 0.01) * s,
             (normal(2, 3), normal(3))),
        unary(lambda x: ops.rms_normalization(x, axis=0),
              lambda x: x * tf.math.rsqrt(
                  tf.reduce_mean(x * x, 0, keepdims=True) + 1e-7))],
    # convolutions and pooling (tiny shapes: finite differences per entry)
    "conv": [
        Case(ops.conv, lambda x, k: tf.nn.convolution(x, k),
             (normal(1, 5, 2), normal(2, 2, 3))),
        Case(lambda x, k: ops.conv(x, k, strides=2, padding="same"),
             lambda x, k: tf.nn.convolution(x, k, 2, "SAME"),
             (normal(1, 4, 3, 2), normal(2, 2, 2, 2))),
        Case(lambda x, k: ops.conv(x, k, padding="same", dilation_rate=2,
                                   data_format="channels_first"),
             lambda x, k: tf.transpose(tf.nn.convolution(
                 tf.transpose(x, (0, 2, 1)), k, 1, "SAME", dilations=2),
                 (0, 2, 1)), (normal(1, 2, 5), normal(2, 2, 2))),
        Case(lambda x, k: ops.conv(x, k),   # two groups
             lambda x, k: tf.concat([
                 tf.nn.convolution(x[..., :1], k[..., :1]),
                 tf.nn.convolution(x[..., 1:], k[..., 1:])], -1),
             (normal(1, 4, 2), normal(2, 1, 2)))],
    "depthwise_conv": [
        Case(ops.depthwise_conv,
             lambda x, k: tf.nn.depthwise_conv2d(x, k, (1, 1, 1, 1),
                                                 "VALID"),
             (normal(1, 3, 3, 2), normal(2, 2, 2, 2))),
        Case(lambda x, k: ops.depthwise_conv(x, k, 2, "same"),
             lambda x, k: tf.nn.depthwise_conv2d(x, k, (1, 2, 2, 1), "SAME"),
             (normal(1, 4, 3, 2), normal(2, 2, 2, 1)))],
    "separable_conv": Case(
        lambda x, d, p: ops.separable_conv(x, d, p, padding="same"),
        lambda x, d, p: tf.nn.separable_conv2d(x, d, p, (1, 1, 1, 1),
                                               "SAME"),
        (normal(1, 3, 3, 2), normal(2, 2, 2, 1), normal(1, 1, 2, 2))),
    "conv_transpose": [
        Case(ops.conv_transpose,
             lambda x, k: tf_conv_transpose(x, k, (1, 5, 2), 1, "VALID"),
             (normal(1, 3, 2), normal(3, 2, 2))),
        Case(lambda x, k: ops.conv_transpose(x, k, 2, "same"),
             lambda x, k: tf_conv_transpose(x, k, (1, 6, 4, 3), 2, "SAME"),
             (normal(1, 3, 2, 2), normal(3, 2, 3, 2))),
        Case(lambda x, k: ops.conv_transpose(x, k, 2, output_padding=1),
             lambda x, k: tf_conv_transpose(x, k, (1, 8, 1), 2, "VALID"),
             (normal(1, 3, 2), normal(3, 1, 2)))],
    "max_pool": [
        Case(lambda x: ops.max_pool(x, 2),
             lambda x: tf.nn.max_pool(x, 2, 2, "VALID"),
             (distinct(1, 4, 4, 2),)),
        Case(lambda x: ops.max_pool(x, 3, strides=1, padding="same"),
             lambda x: tf.nn.max_pool(x, 3, 1, "SAME"),
             (distinct(1, 5, 2),))],
    "average_pool": [
        Case(lambda x: ops.average_pool(x, 2),
             lambda x: tf.nn.avg_pool(x, 2, 2, "VALID"), (normal(1, 4, 4, 2),)),
        Case(lambda x: ops.average_pool(x, (3, 2), strides=2, padding="same"),
             lambda x: tf.nn.avg_pool(x, (3, 2), 2, "SAME"),
             (normal(1, 5, 3, 2),))],
    # the recorded primitives under them (2-D, explicit pads; the other
    # ranks, layouts and dilations: tests/support/conv_configurations.py)
    "_conv": Case(lambda x, k: P.conv(x, k, *CONV),
                  lambda x, k: tf.nn.conv2d(x, k, (1, 2, 1, 1), TF_PADS),
                  (normal(1, 4, 3, 2), normal(2, 2, 2, 3))),
    "_conv_input_grad": Case(
        lambda dy, k: P.conv_input_grad(dy, k, (1, 4, 3, 2), *CONV),
        lambda dy, k: tf_nn.conv2d_backprop_input(
            (1, 4, 3, 2), k, dy, (1, 2, 1, 1), "EXPLICIT",
            explicit_paddings=sum(TF_PADS, [])),
        (normal(1, 3, 3, 3), normal(2, 2, 2, 3))),
    "_conv_filter_grad": Case(
        lambda x, dy: P.conv_filter_grad(x, dy, (2, 2, 2, 3), *CONV),
        lambda x, dy: tf_nn.conv2d_backprop_filter(
            x, (2, 2, 2, 3), dy, (1, 2, 1, 1), "EXPLICIT",
            explicit_paddings=sum(TF_PADS, [])),
        (normal(1, 4, 3, 2), normal(1, 3, 3, 3))),
    "_max_pool": Case(lambda x: P.max_pool(x, *POOL),
                      lambda x: tf.nn.max_pool2d(x, 2, (1, 2), "SAME"),
                      (distinct(1, 4, 4, 2),)),
    "_max_pool_grad": Case(
        lambda x, dy: P.max_pool_grad(x, P.max_pool(x, *POOL), dy, *POOL),
        lambda x, dy: tf_nn.max_pool_grad(
            x, tf.nn.max_pool2d(x, 2, (1, 2), "SAME"), dy, (1, 2, 2, 1),
            (1, 1, 2, 1), "SAME"),
        (distinct(1, 4, 4, 2), normal(1, 4, 2, 2))),
    "_max_pool_grad_grad": Case(
        lambda x, ddx: P.max_pool_grad_grad(x, P.max_pool(x, *POOL), ddx,
                                            *POOL),
        lambda x, ddx: tf_nn.max_pool_grad_grad(
            x, tf.nn.max_pool2d(x, 2, (1, 2), "SAME"), ddx, (1, 2, 2, 1),
            (1, 1, 2, 1), "SAME"),
        (distinct(1, 4, 4, 2), normal(1, 4, 4, 2))),
    "_avg_pool": Case(lambda x: P.avg_pool(x, (3, 2), (2, 2), "same"),
                      lambda x: tf.nn.avg_pool2d(x, (3, 2), 2, "SAME"),
                      (normal(1, 5, 3, 2),)),
    "_avg_pool_grad": Case(
        lambda dy: P.avg_pool_grad(dy, (1, 5, 3, 2), (3, 2), (2, 2), "same"),
        lambda dy: tf_nn.avg_pool_grad((1, 5, 3, 2), dy, (1, 3, 2, 1),
                                       (1, 2, 2, 1), "SAME"),
        (normal(1, 3, 2, 2),)),
    # rearranging and adaptive pooling
    "depth_to_space": Case(lambda x: ops.depth_to_space(x, 2),
                           lambda x: tf.nn.depth_to_space(x, 2),
                           (normal(1, 2, 1, 8),)),
    "space_to_depth": Case(lambda x: ops.space_to_depth(
        x, 2, data_format="channels_first"),
        lambda x: tf.transpose(tf.nn.space_to_depth(
            tf.transpose(x, (0, 2, 3, 1)), 2), (0, 3, 1, 2)),
        (normal(1, 2, 2, 4),)),
    "unfold": Case(lambda x: ops.unfold(x, 2, padding=1, stride=2),
                   lambda x: _tf_unfold(x, 2, 1, 2), (normal(1, 2, 3, 3),)),
    "fold": Case(lambda x: ops.fold(x, (3, 3), 2, padding=1, stride=2),
                 lambda x: _tf_fold(x, (3, 3), 2, 1, 2), (normal(1, 8, 4),)),
    "adaptive_average_pool": Case(
        lambda x: ops.adaptive_average_pool(x, 2),
        lambda x: tf.stack([tf.reduce_mean(x[:, :3], 1),
                            tf.reduce_mean(x[:, 2:], 1)], 1),
        (normal(1, 5, 2),)),
    "adaptive_max_pool": Case(
        lambda x: ops.adaptive_max_pool(x, 2),
        lambda x: tf.stack([tf.reduce_max(x[:, :3], 1),
                            tf.reduce_max(x[:, 2:], 1)], 1),
        (distinct(1, 5, 2),)),
    # attention
    "dot_product_attention": [
        Case(ops.dot_product_attention, lambda q, k, v: _tf_attention(
            q, k, v, None, None), (normal(1, 2, 2, 3), normal(1, 3, 2, 3),
                                   normal(1, 3, 2, 2))),
        Case(lambda q, k, v, b: ops.dot_product_attention(
            q, k, v, bias=b, mask=ATT_MASK, scale=0.5, is_causal=True),
             lambda q, k, v, b: _tf_attention(q, k, v, b, ATT_MASK & np.tril(
                 np.ones((3, 3), bool)), 0.5),
             (normal(1, 3, 2, 2), normal(1, 3, 1, 2), normal(1, 3, 1, 2),
              normal(1, 2, 3, 3)))],
    # control flow, eager (traced: tests/ops/test_control_flow_traced.py)
    "cond": [Case(lambda x: ops.cond(True, lambda: ops.sin(x) * x,
                                     lambda: x),
                  lambda x: tf.sin(x) * x, (normal(2, 3),)),
             Case(lambda x: ops.cond(ops.sum(x) > 100.0, lambda: x,
                                     lambda: ops.exp(x)),
                  lambda x: tf.cond(tf.reduce_sum(x) > 100.0, lambda: x,
                                    lambda: tf.exp(x)), (normal(2, 3),))],
    "switch": Case(lambda x, y: ops.switch(1, [lambda a, b: a, lambda a, b:
                                               a * b], x, y),
                   lambda x, y: tf.switch_case(tf.constant(1), [lambda: x,
                                                   lambda: x * y]),
                   (normal(3), normal(3))),
    "while_loop": Case(
        lambda x: ops.while_loop(lambda v, i: i < 3,
                                 lambda v, i: (ops.sin(v) * 1.5, i + 1),
                                 (x, 0))[0],
        lambda x: tf.while_loop(lambda v, i: i < 3,
                                lambda v, i: (tf.sin(v) * 1.5, i + 1),
                                (x, 0))[0], (normal(2, 3),)),
    "fori_loop": Case(
        lambda x, y: ops.fori_loop(0, 3, lambda i, v: v * y + i, x),
        lambda x, y: tf.while_loop(
            lambda i, v: i < 3,
            lambda i, v: (i + 1, v * y + tf.cast(i, v.dtype)), (0, x))[1],
        (normal(3), normal(3))),
    "scan": [Case(lambda x, a: list(ops.scan(
        lambda c, xi: (c * a + xi, ops.sin(c)), ops.zeros((3,), "float64"),
        x)), lambda x, a: list(_tf_scan(x, a)), (normal(4, 3), normal(3))),
             Case(lambda x: ops.scan(lambda c, _: (c * c * 0.5, None), x,
                                     length=3)[0],
                  lambda x: x ** 8 / 128, (normal(3),)),
             Case(lambda x: ops.scan(lambda c, xi: (c + xi, c), x[0], x,
                                     reverse=True)[1],
                  lambda x: tf.cumsum(x, 0, exclusive=True, reverse=True)
                  + x[0], (normal(3, 2),))],
    "map": Case(lambda x: ops.map(lambda r: ops.sum(r * r), x),
                lambda x: tf.map_fn(lambda r: tf.reduce_sum(r * r), x),
                (normal(3, 2),)),
    "vectorized_map": Case(lambda x: ops.vectorized_map(ops.softmax, x),
                           lambda x: tf.vectorized_map(tf.nn.softmax, x),
                           (normal(3, 2),)),
    "associative_scan": [
        Case(lambda x: ops.associative_scan(lambda a, b: a * b, x, axis=1),
             lambda x: tf.math.cumprod(x, axis=1), (normal(2, 5),)),
        Case(lambda x: ops.associative_scan(ops.add, x, reverse=True),
             lambda x: tf.cumsum(x, 0, reverse=True), (normal(6, 2),)),
        Case(lambda a, b: list(ops.associative_scan(
            lambda p, q: (p[0] * q[0], p[1] * q[0] + q[1]), (a, b))),
             lambda a, b: list(_tf_linear_recurrence(a, b)),
             (normal(5), normal(5)))],
}


def _tf_unfold(x, k, p, s):
    """torch's Unfold: (N, C, H, W) -> (N, C*k*k, L), from tf.image."""
    x = tf.pad(tf.transpose(x, (0, 2, 3, 1)), [(0, 0), (p, p), (p, p),
                                               (0, 0)])
    n, c = x.shape[0], x.shape[3]
    patches = tf.image.extract_patches(x, (1, k, k, 1), (1, s, s, 1),
                                       (1, 1, 1, 1), "VALID")
    oh, ow = patches.shape[1:3]
    patches = tf.reshape(patches, (n, oh, ow, k, k, c))
    return tf.reshape(tf.transpose(patches, (0, 5, 3, 4, 1, 2)),
                      (n, c * k * k, oh * ow))


def _tf_fold(x, size, k, p, s):
    """torch's Fold, as the VJP of _tf_unfold (TensorFlow's own)."""
    c = x.shape[1] // (k * k)
    zeros = tf.zeros((x.shape[0], c) + size, x.dtype)
    with tf.GradientTape() as tape:
        tape.watch(zeros)
        cols = _tf_unfold(zeros, k, p, s)
    return tape.gradient(cols, zeros, output_gradients=x)


CTC_TARGET = np.array([[1, 2], [2, 0]])


def _tf_ctc_by_enumeration(z, target, target_length, output_length):
    """-log of the summed probability of every alignment (blank 0) that
    collapses to the label: all C^T paths enumerated, no recursion."""
    import itertools
    losses = []
    for b in range(z.shape[0]):
        label = list(target[b, :target_length[b]])
        t = output_length[b]
        logp = tf.nn.log_softmax(z[b, :t])
        scores = []
        for path in itertools.product(range(z.shape[2]), repeat=t):
            merged = [c for i, c in enumerate(path)
                      if c != 0 and (i == 0 or c != path[i - 1])]
            if merged == label:
                scores.append(tf.reduce_sum(tf.gather_nd(
                    logp, [[i, c] for i, c in enumerate(path)])))
        losses.append(-tf.reduce_logsumexp(tf.stack(scores)))
    return tf.stack(losses)


ATT_MASK = np.array([[[[True, False, True], [True, True, False],
                       [False, True, True]]]])


def _tf_attention(q, k, v, bias, keep, scale=None):
    heads = q.shape[2]
    k = tf.repeat(k, heads // k.shape[2], axis=2)
    v = tf.repeat(v, heads // v.shape[2], axis=2)
    scale = 1 / np.sqrt(q.shape[-1]) if scale is None else scale
    logits = tf.einsum("btnh,bsnh->bnts", q, k) * scale
    if bias is not None:
        logits += bias
    if keep is not None:
        logits = tf.where(keep, logits, -0.7 * 3.38953e38)
    return tf.einsum("bnts,bsnh->btnh", tf.nn.softmax(logits), v)


def _tf_scan(x, a):
    c, ys = tf.zeros((3,), tf.float64), []
    for i in range(x.shape[0]):
        ys.append(tf.sin(c))
        c = c * a + x[i]
    return c, tf.stack(ys)


def _tf_linear_recurrence(a, b):
    """Element i: (a_0 ... a_i, the recurrence h_i = a_i h_{i-1} + b_i)."""
    ps, hs, p, h = [], [], tf.ones((), a.dtype), tf.zeros((), a.dtype)
    for i in range(a.shape[0]):
        p, h = p * a[i], h * a[i] + b[i]
        ps.append(p)
        hs.append(h)
    return tf.stack(ps), tf.stack(hs)
