"""The nn additions beyond values and first derivatives: second order (the
cases of tests/support/nn_second_order.py, each run in
tests/ops/test_<topic>.py), tracing into pycg.function, and errors that
name the op and argument."""
import warnings

import numpy as np
import pytest

import pycg
from pycg import ops
from support.nn_second_order import SECOND_ORDER, f64
from support.op_topics import topic_of, without_a_file
from support import backend_switch


def test_every_second_order_case_runs_in_the_file_of_its_topic():
    homeless = without_a_file(SECOND_ORDER, "NnSecondOrder")
    assert not homeless, (
        f"second-order cases whose topic has no tests/ops/test_<topic>.py: "
        f"{[(n, topic_of(n)) for n in homeless]}")


# ---- the same values inside pycg.function ----------------------------------
TRACED = {
    "conv": lambda x, k: ops.conv(x, k, padding="same"),
    "max_pool": lambda x, k: ops.max_pool(x, 2) * ops.sum(k),
    "sparse_categorical_crossentropy": lambda x, k: ops.sum(
        ops.sparse_categorical_crossentropy(ops.argmax(x[1], axis=-1),
                                            x[0], from_logits=True)),
    "layer_normalization": lambda x, k: ops.layer_normalization(x, axis=1),
    "one_hot": lambda x, k: ops.one_hot(ops.argmax(x, axis=-1), 3),
    "ctc_loss": lambda x, k: ops.ctc_loss(
        np.array([[1, 2], [2, 0]]), x, np.array([2, 1]), np.array([4, 3])),
    "dot_product_attention": lambda x, k: ops.dot_product_attention(
        x[:, :, None], x[:, :, None], x[:, :, None], is_causal=True),
}


@pytest.mark.parametrize("name", sorted(TRACED))
def test_traced_value_and_gradient_match_eager(name):
    with backend_switch.on("tensorflow"):
        fn = TRACED[name]

        def value_and_grads(x, k):
            with pycg.GradientTape() as tape:
                tape.watch([x, k])
                y = fn(x, k)
            return y, tape.gradient(ops.sum(y * y) if y.dtype.kind == "f"
                                    else y, [x, k])
        x, k = pycg.constant(f64(2, 4, 3)), pycg.constant(f64(3, 3, 2))
        eager = value_and_grads(x, k)
        traced = pycg.function(value_and_grads)(x, k)
        np.testing.assert_allclose(traced[0].numpy(), eager[0].numpy(),
                                   rtol=1e-12, atol=1e-12)
        for g, e in zip(traced[1], eager[1]):
            assert (g is None) == (e is None)
            if g is not None:
                np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-12,
                                           atol=1e-12)


# ---- errors name the op and the argument ---------------------------------
IMG = np.zeros((1, 5, 5, 3))
ERRORS = [
    (lambda: ops.conv(IMG, np.zeros((3, 3, 3, 2)), padding="full"),
     ValueError, r"pycg\.ops\.conv: padding must be 'valid' or 'same', got "
     r"'full'"),
    (lambda: ops.conv(IMG, np.zeros((3, 3, 3, 2)), data_format="NHWC"),
     ValueError, r"pycg\.ops\.conv: data_format must be 'channels_last' or "
     r"'channels_first', got 'NHWC'"),
    (lambda: ops.conv(IMG, np.zeros((3, 3, 2))), ValueError,
     r"pycg\.ops\.conv: kernel must have rank 4 \(spatial\.\.\., in "
     r"channels, filters\) for inputs of rank 4, got shape \(3, 3, 2\)"),
    (lambda: ops.conv(IMG, np.zeros((3, 3, 2, 4))), ValueError,
     r"pycg\.ops\.conv: inputs has 3 channels, which kernel \(shape "
     r"\(3, 3, 2, 4\)\) cannot split into groups of 2"),
    (lambda: ops.conv(IMG, np.zeros((3, 3, 3, 2)), strides=(1, 0)),
     ValueError, r"pycg\.ops\.conv: strides must be a positive int or 2 "
     r"positive ints \(one per spatial dimension\), got \(1, 0\)"),
    (lambda: ops.conv(IMG, np.zeros((7, 7, 3, 2))), ValueError,
     r"pycg\.ops\.conv: a window of 7 \(size 7, dilation 1\) does not fit a "
     r"spatial size of 5 with padding='valid'"),
    (lambda: ops.conv(np.zeros((5, 3)), np.zeros((3, 3, 2))), ValueError,
     r"pycg\.ops\.conv: inputs must have rank 3, 4 or 5 \(batch, 1 to 3 "
     r"spatial dimensions, channels\), got shape \(5, 3\)"),
    (lambda: ops.depthwise_conv(IMG, np.zeros((3, 3, 2, 1))), ValueError,
     r"pycg\.ops\.depthwise_conv: kernel must have shape \(spatial\.\.\., 3, "
     r"multiplier\) for inputs with 3 channels, got \(3, 3, 2, 1\)"),
    (lambda: ops.separable_conv(IMG, np.zeros((3, 3, 3, 1)),
                                np.zeros((1, 1, 2, 4))), ValueError,
     r"pycg\.ops\.separable_conv: pointwise_kernel must have shape "
     r"\(1, 1, 3, 'filters'\), got \(1, 1, 2, 4\)"),
    (lambda: ops.conv_transpose(IMG, np.zeros((3, 3, 2, 4))), ValueError,
     r"pycg\.ops\.conv_transpose: kernel must have shape \(spatial\.\.\., "
     r"filters, 3\) for inputs with 3 channels, got \(3, 3, 2, 4\)"),
    (lambda: ops.max_pool(IMG, (2, 2, 2)), ValueError,
     r"pycg\.ops\.max_pool: pool_size must be a positive int or 2 positive "
     r"ints"),
    (lambda: ops.average_pool(IMG, 2, padding="causal"), ValueError,
     r"pycg\.ops\.average_pool: padding must be 'valid' or 'same', got "
     r"'causal'"),
    (lambda: ops.glu(np.zeros((2, 3))), ValueError,
     r"pycg\.ops\.glu: x needs an even size along axis 1, got shape "
     r"\(2, 3\)"),
    (lambda: ops.squareplus(np.zeros(2), b=-1), ValueError,
     r"pycg\.ops\.squareplus: b must be >= 0, got -1"),
    (lambda: ops.binary_crossentropy(np.zeros((2, 3)), np.zeros((3, 2))),
     ValueError, r"pycg\.ops\.binary_crossentropy: target and output must "
     r"have the same shape, got target\.shape=\(2, 3\) and "
     r"output\.shape=\(3, 2\)"),
    (lambda: ops.categorical_crossentropy(np.zeros(3), np.zeros(4)),
     ValueError, r"pycg\.ops\.categorical_crossentropy: target and output "
     r"must have the same shape"),
    (lambda: ops.sparse_categorical_crossentropy(np.array([1, 2]),
                                                 np.zeros((2, 3)), axis=0),
     ValueError, r"pycg\.ops\.sparse_categorical_crossentropy: only the last "
     r"axis can hold the classes \(axis=-1\), got axis=0"),
    (lambda: ops.sparse_categorical_crossentropy(np.array([1, 2, 0]),
                                                 np.zeros((2, 3))),
     ValueError, r"pycg\.ops\.sparse_categorical_crossentropy: target must "
     r"have output's shape without its last axis, got "
     r"target\.shape=\(3,\) and output\.shape=\(2, 3\)"),
    (lambda: ops.one_hot(np.array([True]), 2), TypeError,
     r"pycg\.ops\.one_hot: labels must be integers, got dtype bool"),
    (lambda: ops.one_hot(np.array([1]), 2, sparse=True), NotImplementedError,
     r"pycg\.ops\.one_hot: sparse=True is not supported"),
    (lambda: ops.multi_hot(np.array([1])), TypeError,
     r"pycg\.ops\.multi_hot: expected num_classes, got none"),
    (lambda: ops.psnr(np.zeros(2), np.zeros(3), 1.0), ValueError,
     r"pycg\.ops\.psnr: x1 and x2 must have the same shape, got \(2,\) and "
     r"\(3,\)"),
    (lambda: ops.moments(np.zeros((2, 3)), 2), ValueError,
     r"pycg\.ops\.moments: axis 2 is out of range for a tensor of rank 2"),
    (lambda: ops.batch_normalization(np.zeros((2, 3)), np.zeros(2),
                                     np.ones(3), -1), ValueError,
     r"pycg\.ops\.batch_normalization: mean must have shape \(3,\) \(the "
     r"size of x along axis 1\), got \(2,\)"),
    (lambda: ops.normalize(np.zeros(3), order=0), ValueError,
     r"pycg\.ops\.normalize: order must be an int >= 1, got 0"),
    (lambda: ops.layer_normalization(np.zeros((2, 3)), np.zeros(2), axis=1),
     ValueError, r"pycg\.ops\.layer_normalization: gamma must have shape "
     r"\(3,\) \(x's size along the normalised axes\), got \(2,\)"),
    (lambda: ops.layer_normalization(np.zeros(3), rms=True), TypeError,
     r"pycg\.ops\.layer_normalization: unexpected keyword arguments "
     r"\['rms'\]"),
    (lambda: ops.dot_product_attention(np.zeros((2, 3, 4)), np.zeros((2, 3, 4)),
                                       np.zeros((2, 3, 4))), ValueError,
     r"pycg\.ops\.dot_product_attention: query must have rank 4 \(batch, "
     r"sequence, heads, dim\), got shape \(2, 3, 4\)"),
    (lambda: ops.dot_product_attention(*[np.zeros((1, 2, 3, 4))] * 2,
                                       np.zeros((1, 2, 2, 4))), ValueError,
     r"pycg\.ops\.dot_product_attention: key and value must have a number "
     r"of heads that divides query's 3"),
    (lambda: ops.dot_product_attention(*[np.zeros((1, 2, 1, 4))] * 3,
                                       flash_attention=True), ValueError,
     r"pycg\.ops\.dot_product_attention: flash_attention=True is not "
     r"supported"),
    (lambda: ops.dot_product_attention(*[np.zeros((1, 2, 1, 4))] * 3,
                                       attn_logits_soft_cap=30.0),
     NotImplementedError, r"pycg\.ops\.dot_product_attention: "
     r"attn_logits_soft_cap is not supported"),
    (lambda: ops.ctc_loss(np.zeros((2, 3), int), np.zeros((3, 4, 5)), [1] * 2,
                          [4] * 2), ValueError,
     r"pycg\.ops\.ctc_loss: output must have shape \(batch, time, classes\) "
     r"and target \(batch, max_label_length\), got output\.shape=\(3, 4, 5\) "
     r"and target\.shape=\(2, 3\)"),
    (lambda: ops.ctc_decode(np.zeros((1, 3, 2)), [3], "beam_search"),
     NotImplementedError, r"pycg\.ops\.ctc_decode: strategy='beam_search' "
     r"is not supported; only 'greedy' is"),
    (lambda: ops.ctc_decode(np.zeros((3, 2)), [3]), ValueError,
     r"pycg\.ops\.ctc_decode: inputs must have shape \(batch, time, "
     r"classes\) and sequence_lengths \(batch,\), got \(3, 2\) and \(1,\)"),
    (lambda: ops.depth_to_space(np.zeros((1, 2, 2, 6)), 2), ValueError,
     r"pycg\.ops\.depth_to_space: the 6 channels of x do not split into "
     r"block_size\^2 = 4 blocks"),
    (lambda: ops.space_to_depth(np.zeros((1, 3, 4, 1)), 2), ValueError,
     r"pycg\.ops\.space_to_depth: the spatial shape \(3, 4\) of x is not "
     r"a multiple of block_size 2"),
    (lambda: ops.space_to_depth(np.zeros((3, 4, 1)), 2), ValueError,
     r"pycg\.ops\.space_to_depth: x must have rank 4"),
    (lambda: ops.unfold(np.zeros((1, 1, 2, 2)), 3), ValueError,
     r"pycg\.ops\.unfold: a kernel of \(3, 3\) with dilation \(1, 1\) "
     r"does not fit the padded spatial size \(2, 2\)"),
    (lambda: ops.fold(np.zeros((1, 4, 5)), (3, 3), 2), ValueError,
     r"pycg\.ops\.fold: x must have shape \(batch, channels \* 4, 4\) for "
     r"these sizes, got \(1, 4, 5\)"),
    (lambda: ops.adaptive_max_pool(IMG, (2, 0)), ValueError,
     r"pycg\.ops\.adaptive_max_pool: output_size must be a positive int or "
     r"2 positive ints"),
] + [   # complex: TensorFlow's conv and pool kernels take none, nor does Keras
    (call, TypeError, rf"pycg\.ops\.{name}: expected a real tensor, got "
     r"complex64; apply it to ops\.real\(x\) or ops\.abs\(x\)")
    for name, call in [
        ("conv", lambda: ops.conv(np.ones((1, 4, 1), np.complex64),
                                  np.ones((2, 1, 1)))),
        ("conv", lambda: ops.conv(np.ones((1, 4, 1)),
                                  np.ones((2, 1, 1), np.complex64))),
        ("depthwise_conv", lambda: ops.depthwise_conv(
            np.ones((1, 4, 1), np.complex64), np.ones((2, 1, 1)))),
        ("separable_conv", lambda: ops.separable_conv(
            np.ones((1, 4, 1)), np.ones((2, 1, 1)),
            np.ones((1, 1, 1), np.complex64))),
        ("conv_transpose", lambda: ops.conv_transpose(
            np.ones((1, 4, 1), np.complex64), np.ones((2, 1, 1)))),
        ("max_pool", lambda: ops.max_pool(np.ones((1, 4, 1), np.complex64),
                                          2)),
        ("average_pool", lambda: ops.average_pool(
            np.ones((1, 4, 1), np.complex64), 2))]]


@pytest.mark.parametrize("call, error, message", ERRORS,
                         ids=[f"{i}" for i in range(len(ERRORS))])
def test_bad_input_error_names_op_and_argument(backend, call, error, message):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(error, match=message):
            call()


def test_ctc_decode_inside_pycg_function_says_it_needs_values():
    with backend_switch.on("tensorflow"):
        f = pycg.function(lambda z: ops.ctc_decode(z, np.array([3]))[0])
        with pytest.raises(TypeError, match=r"pycg\.ops\.ctc_decode: "
                           r"decoding needs values, and inside pycg\.function"
                           r" inputs has none yet"):
            f(pycg.constant(np.zeros((1, 3, 2))))
