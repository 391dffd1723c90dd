"""pycg ops on TensorFlow tensors whose static shape has unknown dimensions
(None while a tf.function with an input_signature, or Keras, traces): the
values and first-order gradients through pycg.to_tensorflow equal
TensorFlow's own on two batch sizes, from one trace. Ops that need every
dimension known (static gathers: indexing) raise an error naming the op."""
import numpy as np
import pytest
import tensorflow as tf

import pycg
from pycg import ops
from support.log1pexp_case import log1pexp


pytestmark = pytest.mark.usefixtures("tf_backend")


W = np.linspace(-1.0, 1.0, 12).reshape(3, 4)
ROW = np.array([0.5, -2.0, 1.5])
COLUMN_OF_ONES = np.ones((1, 3))

# name: (pycg function, TensorFlow function), of x with shape [None, 3]
CASES = {
    "sum-axis": (lambda x: ops.sum(x, axis=1),
                 lambda x: tf.reduce_sum(x, 1)),
    "sum-all": (lambda x: ops.sum(x), lambda x: tf.reduce_sum(x)),
    "mean-axis0": (lambda x: ops.mean(x, axis=0),
                   lambda x: tf.reduce_mean(x, 0)),
    "mean-all": (lambda x: ops.mean(x), lambda x: tf.reduce_mean(x)),
    "max": (lambda x: ops.max(x, axis=1), lambda x: tf.reduce_max(x, 1)),
    "prod": (lambda x: ops.prod(x, axis=1), lambda x: tf.reduce_prod(x, 1)),
    "softmax": (ops.softmax, tf.nn.softmax),
    "log_softmax": (ops.log_softmax, tf.nn.log_softmax),
    "logsumexp": (lambda x: ops.logsumexp(x, axis=1),
                  lambda x: tf.reduce_logsumexp(x, 1)),
    "concatenate-axis1": (lambda x: ops.concatenate([x, ops.exp(x)], 1),
                          lambda x: tf.concat([x, tf.exp(x)], 1)),
    "concatenate-axis0": (lambda x: ops.concatenate([x, ops.exp(x)], 0),
                          lambda x: tf.concat([x, tf.exp(x)], 0)),
    "reshape-1": (lambda x: ops.reshape(x, (-1,)) * 2.0,
                  lambda x: tf.reshape(x, (-1,)) * 2.0),
    "reshape-1-k": (lambda x: ops.reshape(x, (-1, 1)),
                    lambda x: tf.reshape(x, (-1, 1))),
    "where": (lambda x: ops.where(x > 0, x, 0.1 * x),
              lambda x: tf.where(x > 0, x, 0.1 * x)),
    "matmul": (lambda x: ops.matmul(x, W), lambda x: x @ W),
    "broadcast-row": (lambda x: x * ROW + ROW,
                      lambda x: x * ROW + ROW),
    "broadcast-column": (lambda x: ops.sum(x, axis=1, keepdims=True) * x,
                         lambda x: tf.reduce_sum(x, 1, keepdims=True) * x),
    "broadcast-ones": (lambda x: COLUMN_OF_ONES * ops.exp(x),
                       lambda x: COLUMN_OF_ONES * tf.exp(x)),
    "cumsum": (lambda x: ops.cumsum(x, axis=0),
               lambda x: tf.cumsum(x, 0)),
    "var-layer-norm": (
        lambda x: (x - ops.mean(x, -1, keepdims=True))
        / ops.sqrt(ops.var(x, -1, keepdims=True) + 1e-3),
        lambda x: tf.nn.batch_normalization(
            x, *tf.nn.moments(x, [-1], keepdims=True), None, None, 1e-3)),
    "split": (lambda x: ops.split(x, [1], axis=1)[1] * 3.0,
              lambda x: tf.split(x, [1, 2], axis=1)[1] * 3.0),
    "pad": (lambda x: ops.pad(x, ((1, 0), (2, 1))),
            lambda x: tf.pad(x, [[1, 0], [2, 1]])),
    "tensordot": (lambda x: ops.tensordot(x, W, 1),
                  lambda x: tf.tensordot(x, W, 1)),
    "stack-transpose": (lambda x: ops.transpose(ops.stack([x, x * x], 1)),
                        lambda x: tf.transpose(tf.stack([x, x * x], 1))),
    "getitem-column": (lambda x: x[:, 1] * 2.0, lambda x: x[:, 1] * 2.0),
    "getitem-slice": (lambda x: x[:, 1:3], lambda x: x[:, 1:3]),
    "getitem-ellipsis": (lambda x: x[..., -1, None],
                         lambda x: x[..., -1, None]),
    "getitem-newaxis": (lambda x: x[:, None, 0], lambda x: x[:, None, 0]),
    "dense-log1pexp": (lambda x: log1pexp(ops.matmul(x, W) + 0.1),
                       lambda x: tf.math.softplus(x @ W + 0.1)),
}


def _traced(f):
    """Values and the gradient of sum(out * out) of f, traced once with a
    None batch."""
    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float64)])
    def run(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            out = f(x)
            loss = tf.reduce_sum(out * out)
        return out, tape.gradient(loss, x)
    return run


@pytest.mark.parametrize("name", list(CASES))
def test_unknown_batch_matches_tensorflow(name):
    pycg_fn, tf_fn = CASES[name]
    ours = _traced(pycg.to_tensorflow(pycg_fn))
    theirs = _traced(tf.autograph.experimental.do_not_convert(tf_fn))
    for n in (4, 7):
        x = tf.constant(np.random.default_rng(n).uniform(-2, 2, (n, 3)))
        (out, grad), (t_out, t_grad) = ours(x), theirs(x)
        assert out.shape == t_out.shape
        np.testing.assert_allclose(out.numpy(), t_out.numpy(), rtol=1e-12,
                                   atol=1e-12)
        np.testing.assert_allclose(grad.numpy(), t_grad.numpy(), rtol=1e-10,
                                   atol=1e-12)
    assert ours.experimental_get_tracing_count() == 1


def test_a_dense_rule_with_its_weights_as_arguments():
    layer = pycg.to_tensorflow(
        lambda x, w, b: log1pexp(ops.matmul(x, w) + b))
    w, b = tf.constant(W), tf.constant([0.1, -0.2, 0.3, 0.0], tf.float64)

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float64)])
    def grads(x):
        with tf.GradientTape(persistent=True) as tape:
            tape.watch([x, w, b])
            ours = tf.reduce_sum(tf.sin(layer(x, w, b)))
            theirs = tf.reduce_sum(tf.sin(tf.math.softplus(x @ w + b)))
        return tape.gradient(ours, [x, w, b]), tape.gradient(theirs, [x, w, b])
    for n in (2, 9):
        x = tf.constant(np.random.default_rng(n).standard_normal((n, 3)))
        for g, t in zip(*grads(x)):
            np.testing.assert_allclose(g.numpy(), t.numpy(), rtol=1e-10)
    assert grads.experimental_get_tracing_count() == 1


def test_a_keras_model_with_a_pycg_rule_fits_with_a_smaller_last_batch():
    import keras
    rng = np.random.default_rng(0)
    x = rng.standard_normal((50, 3)).astype("float32")
    y = np.log1p(np.exp(x @ np.array([[1.0], [-2.0], [0.5]]))).astype(
        "float32")
    rule = pycg.to_tensorflow(log1pexp)
    # no output_shape: Keras calls the rule on a symbolic (None, 1) batch;
    # 50 samples in batches of 16 leave a last batch of 2
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1),
                              keras.layers.Lambda(rule)])
    model.compile(keras.optimizers.Adam(0.1), "mse")
    history = model.fit(x, y, epochs=30, batch_size=16, verbose=0)
    assert history.history["loss"][-1] < 0.05 * history.history["loss"][0]
    kernel, bias = (v.numpy() for v in model.layers[0].weights)
    np.testing.assert_allclose(model.predict(x[:5], verbose=0),
                               np.log1p(np.exp(x[:5] @ kernel + bias)),
                               rtol=1e-5)


@pytest.mark.parametrize("index", [
    (slice(1, None),), (slice(None), [0, 2]), (slice(None, None, 2),),
    (slice(None), slice(None, None, -1))], ids=["slice-unknown", "array",
                                                 "step", "step-known"])
def test_indexing_beyond_basic_needs_known_dimensions_and_says_so(index):
    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def pick(x):
        return pycg.Tensor(x)[index]._value
    with pytest.raises(ValueError, match=r"ValueError: pycg.ops.getitem: "
                       r"needs every dimension of its input known when "
                       r"TensorFlow traces, got shape \(None, 3\) \(None: "
                       r"unknown\); give the input a full shape .*; with "
                       r"unknown dimensions, index with ints, ':', None, "
                       r"\.\.\. and slices of step 1 on the known "
                       r"dimensions only"):
        pick(tf.ones((4, 3)))


def test_static_gathers_need_known_dimensions_and_say_so():
    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def flipped(x):
        return ops.flip(pycg.Tensor(x), 1)._value
    with pytest.raises(ValueError, match=r"ValueError: pycg.ops.flip: needs "
                       r"every dimension of its input known when TensorFlow "
                       r"traces, got shape \(None, 3\)"):
        flipped(tf.ones((4, 3)))


def test_known_shapes_still_check_broadcasting():
    with pytest.raises(ValueError, match=r"pycg.ops.add: shapes \(2, 3\) "
                       r"and \(4,\) cannot be broadcast together"):
        ops.add(np.ones((2, 3)), np.ones(4))


def test_pycg_function_retraced_with_a_none_batch_matches_tensorflow():
    # reduce_retracing: TensorFlow's second trace has a None batch
    def loss(v):
        return ops.sum(ops.log_softmax(v) * ops.mean(v, axis=0)) + \
            ops.sum(ops.concatenate([v, v * v], 0))
    slope = pycg.function(pycg.grad(loss), reduce_retracing=True)
    for n in (4, 7, 9, 11):
        x = np.random.default_rng(n).standard_normal((n, 3))
        tx = tf.constant(x)
        with tf.GradientTape() as tape:
            tape.watch(tx)
            s = tf.reduce_sum(tf.nn.log_softmax(tx) * tf.reduce_mean(tx, 0)) \
                + tf.reduce_sum(tf.concat([tx, tx * tx], 0))
        np.testing.assert_allclose(slope(pycg.constant(x)).numpy(),
                                   tape.gradient(s, tx).numpy(), rtol=1e-10)
    assert slope.trace_count == 2


def test_broadcasting_of_an_unknown_dimension_is_undone_at_run_time():
    # a None batch may be 1 when the graph runs: its gradient is then summed
    product = pycg.to_tensorflow(lambda x, z: ops.exp(x) * z + x)
    spec = tf.TensorSpec([None, 3], tf.float64)

    @tf.function(input_signature=[spec, spec])
    def grads(x, z):
        with tf.GradientTape(persistent=True) as tape:
            tape.watch([x, z])
            ours = tf.reduce_sum(tf.sin(product(x, z)))
            theirs = tf.reduce_sum(tf.sin(tf.exp(x) * z + x))
        return tape.gradient(ours, [x, z]), tape.gradient(theirs, [x, z])
    rng = np.random.default_rng(1)
    for nx, nz in ((5, 5), (1, 5), (5, 1), (1, 1)):
        x, z = rng.standard_normal((nx, 3)), rng.standard_normal((nz, 3))
        for g, t in zip(*grads(tf.constant(x), tf.constant(z))):
            assert g.shape == t.shape
            np.testing.assert_allclose(g.numpy(), t.numpy(), rtol=1e-10)
    assert grads.experimental_get_tracing_count() == 1


def test_prod_over_an_unknown_dimension_says_so():
    total = pycg.to_tensorflow(lambda x: ops.prod(x, axis=0))

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def slope(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = total(x)
        return tape.gradient(y, x)
    with pytest.raises(ValueError, match=r"ValueError: pycg.ops.prod: needs "
                       r"every dimension of its input known when TensorFlow "
                       r"traces, got shape \(None, 3\)"):
        slope(tf.ones((4, 3)))
