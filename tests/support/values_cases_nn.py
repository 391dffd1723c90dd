"""Forward-value cases of the keras.src.ops.nn / core additions (issue 14)
for tests/test_ops_values.py: float64 inputs, keras.ops (TensorFlow
backend) as the oracle, NumPy for control flow. Non-default arguments and
float32 are covered in tests/test_ops_keras_nn.py."""
import itertools
import os

os.environ.setdefault("KERAS_BACKEND", "tensorflow")

import keras  # noqa: E402
import numpy as np  # noqa: E402

import pycg  # noqa: E402
from pycg import ops  # noqa: E402

RNG = np.random.default_rng(7)
X = RNG.standard_normal((2, 4)) * 3
P = RNG.dirichlet(np.ones(4), 2)
T = RNG.uniform(0, 1, (2, 4))
IMG = RNG.standard_normal((2, 5, 4, 3))
LABELS = np.array([3, 0])


def t(a):
    return pycg.constant(a) if isinstance(a, np.ndarray) else a


def keras_case(name, *args, **kwargs):
    """(pycg thunk, keras thunk) of NAME(*args, **kwargs)."""
    def ours():
        return getattr(ops, name)(*[t(a) for a in args], **kwargs)

    def theirs():
        out = getattr(keras.ops, name)(*[
            keras.ops.convert_to_tensor(a) if isinstance(a, np.ndarray)
            else a for a in args], **kwargs)
        if isinstance(out, (tuple, list)):
            return [np.asarray(o) for o in out]
        return np.asarray(out)
    return ours, theirs


CTC_T = np.array([[1, 2], [3, 3]])
CTC_Z = RNG.standard_normal((2, 5, 4))


def _ctc_by_enumeration(z, target, target_length, output_length):
    out = []
    for b in range(z.shape[0]):
        t = output_length[b]
        logp = z[b, :t] - np.log(np.exp(z[b, :t]).sum(-1, keepdims=True))
        label = list(target[b, :target_length[b]])
        total = 0.0
        for path in itertools.product(range(z.shape[2]), repeat=t):
            merged = [c for i, c in enumerate(path)
                      if c != 0 and (i == 0 or c != path[i - 1])]
            if merged == label:
                total += np.exp(sum(logp[i, c] for i, c in enumerate(path)))
        out.append(-np.log(total))
    return np.array(out)


VALUES = {n: keras_case(n, X) for n in (
    "log_sigmoid", "relu6", "hard_sigmoid", "hard_silu", "hard_swish",
    "selu", "softsign", "swish", "celu", "glu", "hard_tanh",
    "hard_shrink", "soft_shrink", "tanh_shrink", "sparse_plus",
    "sparse_sigmoid", "squareplus", "normalize", "layer_normalization",
    "rms_normalization")}
VALUES.update({
    "threshold": keras_case("threshold", X, 0.5, -1.0),
    # NumPy oracles where Keras' TensorFlow backend rounds through float32
    # (tf.nn.leaky_relu's alpha attribute, the float64 max_pool)
    "leaky_relu": (lambda: ops.leaky_relu(t(X)),
                   lambda: np.where(X > 0, X, 0.2 * X)),
    "max_pool": (lambda: ops.max_pool(t(IMG), 2),
                 lambda: IMG[:, :4, :4].reshape(2, 2, 2, 2, 2, 3).max((2, 4))),
    # keras 3.15's sparsemax is wrong when the support has more than one
    # entry (tests/test_ops_keras_nn.py); these rows keep a single entry
    "sparsemax": keras_case("sparsemax", np.array([[3.0, 0.0, -1.0],
                                                   [0.2, 2.5, 0.1]])),
    "one_hot": keras_case("one_hot", LABELS, 4),
    "multi_hot": keras_case("multi_hot", np.array([[0, 2], [3, 3]]), 4),
    "binary_crossentropy": keras_case("binary_crossentropy", T, P),
    "categorical_crossentropy": keras_case("categorical_crossentropy", T, P),
    "sparse_categorical_crossentropy": keras_case(
        "sparse_categorical_crossentropy", LABELS, P),
    # Keras computes ctc_loss in float32: enumerate the alignments instead
    "ctc_loss": (lambda: ops.ctc_loss(CTC_T, t(CTC_Z), [2, 2], [5, 4]),
                 lambda: _ctc_by_enumeration(CTC_Z, CTC_T, [2, 2], [5, 4])),
    "ctc_decode": keras_case("ctc_decode", CTC_Z, np.array([5, 3])),
    "psnr": keras_case("psnr", X, X + 0.1 * P, 3.0),
    "moments": keras_case("moments", X, 1),
    "batch_normalization": keras_case(
        "batch_normalization", X, X[0], P[0], -1),
    "conv": keras_case("conv", IMG, RNG.standard_normal((3, 2, 3, 2))),
    "depthwise_conv": keras_case("depthwise_conv", IMG,
                                 RNG.standard_normal((3, 2, 3, 2))),
    "separable_conv": keras_case("separable_conv", IMG,
                                 RNG.standard_normal((3, 2, 3, 2)),
                                 RNG.standard_normal((1, 1, 6, 2))),
    "conv_transpose": keras_case("conv_transpose", IMG,
                                 RNG.standard_normal((3, 2, 2, 3))),
    "average_pool": keras_case("average_pool", IMG, 2),
    "depth_to_space": keras_case("depth_to_space", IMG[..., :1].repeat(4, 3),
                                 2),
    "space_to_depth": keras_case("space_to_depth", IMG[:, :4], 2),
    "unfold": keras_case("unfold", IMG, 2),
    "fold": keras_case("fold", RNG.standard_normal((2, 8, 6)), (3, 4), 2),
    "adaptive_average_pool": keras_case("adaptive_average_pool",
                                        IMG, (3, 3)),
    "adaptive_max_pool": keras_case("adaptive_max_pool", IMG, (2, 3)),
    "dot_product_attention": keras_case(
        "dot_product_attention", RNG.standard_normal((1, 3, 2, 4)),
        RNG.standard_normal((1, 5, 2, 4)), RNG.standard_normal((1, 5, 2, 4))),
    # control flow, against plain Python / NumPy
    "cond": (lambda: ops.cond(t(X)[0, 0] > 100, lambda: t(X), lambda: -t(X)),
             lambda: -X),
    "switch": (lambda: ops.switch(1, [ops.sin, ops.cos], t(X)),
               lambda: np.cos(X)),
    "while_loop": (lambda: ops.while_loop(
        lambda v: ops.max(v) < 100, lambda v: v * 3.0, t(np.abs(X) + 1)),
        lambda: (np.abs(X) + 1) * 3 ** int(
            np.ceil(np.log(100 / (np.abs(X).max() + 1)) / np.log(3)))),
    "fori_loop": (lambda: ops.fori_loop(0, 4, lambda i, v: v + i, t(X)),
                  lambda: X + 6),
    "scan": (lambda: ops.scan(lambda c, x: (c + x, c * x), t(X[0]), t(X)),
             lambda: [X[0] + X.sum(0), np.stack([X[0] * X[0],
                                                 (2 * X[0]) * X[1]])]),
    "map": (lambda: ops.map(ops.sum, t(X)), lambda: X.sum(1)),
    "vectorized_map": (lambda: ops.vectorized_map(ops.max, t(X)),
                       lambda: X.max(1)),
    "associative_scan": (lambda: ops.associative_scan(ops.add, t(X), axis=1),
                         lambda: np.cumsum(X, 1)),
})
