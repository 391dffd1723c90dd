"""pycg.ops' nn names against keras.ops itself (TensorFlow backend), on both
pycg backends, with default and non-default keyword arguments."""
import functools
import os

os.environ["KERAS_BACKEND"] = "tensorflow"

import keras  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
import tensorflow as tf  # noqa: E402

from pycg import ops  # noqa: E402

RNG = np.random.default_rng(0)


def f32(*shape, scale=1.0):
    return (RNG.standard_normal(shape) * scale).astype(np.float32)


def probs(*shape):
    e = np.exp(f32(*shape))
    return (e / e.sum(-1, keepdims=True)).astype(np.float32)


X = f32(3, 4, scale=3.0)
LABELS = np.array([[2, 0, 1], [1, 1, 3]])
# (op name, positional args, keyword args)
CALLS = [(n, (X,), {}) for n in (
    "log_sigmoid", "relu6", "hard_sigmoid", "hard_silu", "hard_swish",
    "leaky_relu", "selu", "softsign", "swish", "celu", "glu", "hard_tanh",
    "hard_shrink", "soft_shrink", "tanh_shrink", "sparse_plus",
    "sparse_sigmoid", "squareplus")] + [
    ("leaky_relu", (X,), {"negative_slope": 0.05}),
    ("celu", (X,), {"alpha": 0.5}),
    ("glu", (f32(4, 3),), {"axis": 0}),
    ("hard_shrink", (X,), {"threshold": 1.5}),
    ("soft_shrink", (X,), {"threshold": 1.0}),
    ("threshold", (X, 0.3, -2.0), {}),
    ("squareplus", (X,), {"b": 1}),
    ("one_hot", (LABELS, 4), {}),
    ("one_hot", (LABELS, 4), {"axis": 0, "dtype": "int32"}),
    ("one_hot", (np.array([1, -1, 5]), 4), {}),
    ("multi_hot", (LABELS, 4), {}),
    ("multi_hot", (np.array([0, 3]), 5), {"dtype": "float64"}),
    ("binary_crossentropy", (np.float32(RNG.uniform(0, 1, (3, 4))),
                             probs(3, 4)), {}),
    ("binary_crossentropy", (np.float32(RNG.uniform(0, 1, (3, 4))), X),
     {"from_logits": True}),
    ("binary_crossentropy", (np.float32([0.0, 1.0]), np.float32([0.0, 1.0])),
     {}),
    ("categorical_crossentropy", (probs(3, 5), probs(3, 5)), {}),
    ("categorical_crossentropy", (probs(3, 5), f32(3, 5) + 2),
     {"from_logits": False}),
    ("categorical_crossentropy", (probs(3, 5), f32(3, 5)),
     {"from_logits": True}),
    ("categorical_crossentropy", (probs(5, 3).T.copy(), f32(3, 5)),
     {"from_logits": True, "axis": 0}),
    ("sparse_categorical_crossentropy", (LABELS, probs(2, 3, 4)), {}),
    ("sparse_categorical_crossentropy", (LABELS, f32(2, 3, 4)),
     {"from_logits": True}),
    ("sparse_categorical_crossentropy", (LABELS[..., None], f32(2, 3, 4)),
     {"from_logits": True, "axis": -1}),
    ("psnr", (X, X + f32(3, 4) * 0.1, 1.0), {}),
    ("ctc_decode", (f32(3, 7, 4), np.array([7, 5, 3])), {}),
    ("ctc_decode", (f32(3, 7, 4), np.array([7, 5, 3])),
     {"merge_repeated": False, "mask_index": 2}),
    ("ctc_loss", (np.array([[1, 2, 2], [3, 1, 0], [2, 0, 0]]), f32(3, 6, 4),
                  np.array([3, 2, 1]), np.array([6, 5, 3])), {}),
    ("ctc_loss", (np.array([[0, 2, 2], [3, 0, 0], [2, 1, 1]]), f32(3, 6, 4),
                  np.array([3, 2, 1]), np.array([6, 5, 3])),
     {"mask_index": 1}),
    ("moments", (f32(2, 3, 4), [0, 2]), {}),
    ("moments", (f32(2, 3, 4), 1), {"keepdims": True}),
    ("batch_normalization", (f32(2, 3), f32(3), np.abs(f32(3)) + 0.5, -1),
     {}),
    ("batch_normalization", (f32(2, 3, 4), f32(3), np.abs(f32(3)) + 0.5, 1),
     {"offset": f32(3), "scale": f32(3), "epsilon": 0.1}),
    ("normalize", (X,), {}),
    ("normalize", (X,), {"axis": 0, "order": 1}),
    ("normalize", (X,), {"order": 3, "epsilon": 1e-3}),
    ("layer_normalization", (f32(2, 3, 4),), {}),
    ("layer_normalization", (f32(2, 3, 4), f32(4), f32(4)), {}),
    ("layer_normalization", (f32(2, 3, 4), f32(3), f32(3)),
     {"axis": 1, "epsilon": 0.01}),
    ("layer_normalization", (f32(2, 3, 4), f32(3, 4)),
     {"axis": (1, 2), "rms_scaling": True}),
    ("rms_normalization", (f32(2, 3, 4),), {}),
    # convolutions and pooling
    ("conv", (f32(2, 7, 3), f32(3, 3, 4)), {}),
    ("conv", (f32(2, 7, 6, 3), f32(3, 2, 3, 4)),
     {"strides": 2, "padding": "same"}),
    ("conv", (f32(2, 3, 7, 6), f32(3, 2, 3, 4)),
     {"strides": (2, 1), "padding": "valid",
      "data_format": "channels_first"}),
    ("conv", (f32(2, 9, 3), f32(3, 3, 4)),
     {"dilation_rate": 2, "padding": "same"}),
    ("conv", (f32(2, 7, 6, 4), f32(3, 2, 2, 6)), {"padding": "same"}),
    ("conv", (f32(1, 5, 4, 5, 2), f32(2, 2, 2, 2, 3)),
     {"padding": "same", "strides": 2}),
    ("depthwise_conv", (f32(2, 7, 6, 3), f32(3, 2, 3, 2)), {}),
    ("depthwise_conv", (f32(2, 3, 7, 6), f32(3, 2, 3, 2)),
     {"strides": 2, "padding": "same", "data_format": "channels_first"}),
    ("depthwise_conv", (f32(2, 9, 3), f32(3, 3, 2)), {"dilation_rate": 2}),
    ("separable_conv", (f32(2, 7, 6, 3), f32(3, 2, 3, 2), f32(1, 1, 6, 5)),
     {}),
    ("separable_conv", (f32(2, 3, 7, 6), f32(3, 2, 3, 2), f32(1, 1, 6, 5)),
     {"strides": 2, "padding": "same", "data_format": "channels_first"}),
    ("conv_transpose", (f32(2, 5, 3), f32(3, 4, 3)), {}),
    ("conv_transpose", (f32(2, 5, 4, 3), f32(3, 2, 4, 3)),
     {"strides": 2, "padding": "same"}),
    ("conv_transpose", (f32(2, 5, 4, 3), f32(3, 2, 4, 3)),
     {"strides": 2, "padding": "valid", "output_padding": 1}),
    ("conv_transpose", (f32(2, 3, 5, 4), f32(3, 2, 4, 3)),
     {"strides": (2, 1), "padding": "same", "output_padding": (1, 1),
      "data_format": "channels_first"}),
    ("conv_transpose", (f32(2, 5, 3), f32(3, 4, 3)),
     {"dilation_rate": 2, "padding": "same"}),
    ("max_pool", (f32(2, 7, 6, 3), 3), {}),
    ("max_pool", (f32(2, 7, 6, 3), (3, 2)), {"strides": 2, "padding": "same"}),
    ("max_pool", (f32(2, 3, 7), 2),
     {"strides": 1, "data_format": "channels_first"}),
    ("average_pool", (f32(2, 7, 6, 3), 2), {}),
    # rearranging and adaptive pooling
    ("depth_to_space", (f32(2, 3, 4, 8), 2), {}),
    ("depth_to_space", (f32(2, 8, 3, 4), 2),
     {"data_format": "channels_first"}),
    ("space_to_depth", (f32(2, 4, 6, 3), 2), {}),
    ("space_to_depth", (f32(2, 3, 4, 6), 2),
     {"data_format": "channels_first"}),
    ("unfold", (f32(2, 3, 5, 6), 2), {}),
    ("unfold", (f32(2, 3, 5, 6), (2, 3)),
     {"dilation": (1, 2), "padding": 1, "stride": (2, 1)}),
    ("fold", (f32(2, 12, 12), (4, 5), 2), {}),
    ("fold", (f32(2, 18, 9), (5, 6), (2, 3)), {"padding": 1, "stride": 2}),
    ("adaptive_average_pool", (f32(2, 7, 5, 3), (3, 2)), {}),
    ("adaptive_average_pool", (f32(2, 3, 7, 5), (3, 4)),
     {"data_format": "channels_first"}),
    ("adaptive_average_pool", (f32(2, 6, 5, 4, 3), (2, 3, 3)), {}),
    ("adaptive_max_pool", (f32(2, 9, 3), 4), {}),
    ("adaptive_max_pool", (f32(2, 3, 7, 5), (3, 4)),
     {"data_format": "channels_first"}),
    # attention
    ("dot_product_attention", (f32(2, 3, 2, 4), f32(2, 5, 2, 4),
                               f32(2, 5, 2, 4)), {}),
    ("dot_product_attention", (f32(2, 3, 4, 4), f32(2, 5, 2, 4),
                               f32(2, 5, 2, 4)),
     {"bias": f32(2, 4, 3, 5), "scale": 0.3}),
    ("dot_product_attention", (f32(1, 4, 2, 3), f32(1, 4, 2, 3),
                               f32(1, 4, 2, 3)), {"is_causal": True}),
    ("dot_product_attention", (f32(2, 3, 2, 4), f32(2, 5, 2, 4),
                               f32(2, 5, 2, 4)),
     {"mask": RNG.uniform(size=(2, 1, 3, 5)) > 0.3, "is_causal": True}),
    ("average_pool", (f32(2, 7, 6, 3), (3, 2)),
     {"strides": 2, "padding": "same"}),
    ("average_pool", (f32(2, 3, 7, 6), (3, 2)),
     {"strides": (1, 2), "padding": "same",
      "data_format": "channels_first"}),
    ("rms_normalization", (f32(2, 3, 4), f32(3, 1)), {"axis": 1,
                                                    "epsilon": 0.1}),
]


def _np(v):
    if isinstance(v, (tuple, list)):
        return [_np(a) for a in v]
    return np.asarray(v.numpy() if hasattr(v, "numpy") else v)


def _id(call):
    name, _, kw = call
    return name + ("[" + ",".join(sorted(kw)) + "]" if kw else "")


def _cpu_kernels_refuse(name, kw):
    """Whether TensorFlow's own CPU kernels refuse this call where oneDNN is
    off (CPUs without AVX-512, or TF_ENABLE_ONEDNN_OPTS=0): Conv2D and its
    input gradient take channels-last only, and the input gradient no
    dilation. Keras on TensorFlow passes such calls straight to them."""
    dilated = np.any(np.asarray(kw.get("dilation_rate", 1)) > 1)
    return name in ("conv", "conv_transpose") and (
        kw.get("data_format") == "channels_first" or
        (name == "conv_transpose" and dilated))


@functools.lru_cache(maxsize=None)
def _keras(index):
    """keras.ops' answer for CALLS[index]. Where this CPU's TensorFlow kernels
    refuse the call, the same Keras function is compiled by XLA, whose CPU
    convolutions take every layout and dilation: still Keras' own formula,
    computed without pycg, on every CPU."""
    name, args, kw = CALLS[index]
    fn = functools.partial(getattr(keras.ops, name), **kw)
    if _cpu_kernels_refuse(name, kw):
        fn = tf.function(fn, jit_compile=True)
    return _np(fn(*[keras.ops.convert_to_tensor(a)
                    if isinstance(a, np.ndarray) else a for a in args]))


@pytest.mark.filterwarnings("ignore:You passed `rms_scaling=True`")
@pytest.mark.parametrize("index", range(len(CALLS)),
                         ids=[_id(c) for c in CALLS])
def test_matches_keras_ops(backend, index):
    name, args, kw = CALLS[index]
    got = _np(getattr(ops, name)(*args, **kw))
    want = _keras(index)
    if not isinstance(want, list):
        got, want = [got], [want]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.shape == w.shape, name
        assert g.dtype == w.dtype, name
        np.testing.assert_allclose(g, w, rtol=2e-5, atol=2e-6, err_msg=name)


def _sparsemax_by_sorting(z):
    # the textbook algorithm (Martins & Astudillo 2016, Algorithm 1)
    s = -np.sort(-z, axis=-1)
    cs = np.cumsum(s, axis=-1)
    r = np.arange(1, z.shape[-1] + 1)
    k = np.sum(1 + r * s > cs, axis=-1, keepdims=True)
    tau = (np.take_along_axis(cs, k - 1, axis=-1) - 1) / k
    return np.maximum(z - tau, 0)


def test_sparsemax_is_the_projection_onto_the_simplex(backend):
    z = f32(4, 5)
    got = ops.sparsemax(z).numpy()
    np.testing.assert_allclose(got, _sparsemax_by_sorting(z), rtol=1e-5,
                               atol=1e-6)
    np.testing.assert_allclose(got.sum(-1), 1, rtol=1e-5)
    got0 = ops.sparsemax(z, axis=0).numpy()
    np.testing.assert_allclose(got0, _sparsemax_by_sorting(z.T).T, rtol=1e-5,
                               atol=1e-6)


def test_sparsemax_matches_keras_where_keras_is_right(backend):
    # Keras 3.15's sparsemax sums the cumulative sums over the support where
    # the algorithm takes the last one; the two agree when one entry is left
    z = np.float32([[3.0, 0.0, -1.0], [0.2, 2.5, 0.1]])
    np.testing.assert_allclose(ops.sparsemax(z).numpy(),
                               np.asarray(keras.ops.sparsemax(z)), atol=1e-6)
