"""pycg called on TensorFlow values where TensorFlow differentiates (a
tf.GradientTape, a tf.function, a Keras model's training step), tensorflow
backend: a pycg.custom_gradient rule is the gradient TensorFlow uses (the
call becomes one tf.custom_gradient op, as pycg.to_tensorflow makes), and
plain pycg ops keep TensorFlow's tape connected (a pycg tensor converts to
TensorFlow as its own TensorFlow value). Never a silent None."""
import numpy as np
import pytest

import pycg
from pycg import ops

tf = pytest.importorskip("tensorflow")
keras = pytest.importorskip("keras")


@pytest.fixture(autouse=True)
def _tensorflow(tf_backend):
    yield


@pycg.custom_gradient
def log1pexp(x):   # the rule is finite where the forward's derivative is nan
    e = ops.exp(x)
    return ops.log(1 + e), lambda g: g * (1 - 1 / (1 + e))


@pycg.custom_gradient
def triple(x):   # forward: x; rule: 3 g
    return x * 1.0, lambda g: g * 3.0


X = np.array([1.0, 100.0], np.float32)
WANT = np.array([1 / (1 + np.exp(-1.0)), 1.0], np.float32)   # the rule


def test_a_rule_under_tf_gradient_tape_is_tensorflows_gradient():
    x = tf.constant(X)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(log1pexp(x))
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), WANT, rtol=1e-6)


def test_a_rule_on_a_tf_variable_is_tensorflows_gradient():
    v = tf.Variable(X)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(log1pexp(v))
    np.testing.assert_allclose(tape.gradient(y, v).numpy(), WANT, rtol=1e-6)


def test_a_rule_inside_tf_function_is_tensorflows_gradient():
    @tf.function(autograph=False)
    def slope(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(log1pexp(x))
        return tape.gradient(y, x)

    np.testing.assert_allclose(slope(tf.constant(X)).numpy(), WANT,
                               rtol=1e-6)


def test_plain_ops_under_tf_gradient_tape_stay_connected():
    x = tf.constant(np.array([0.5, -1.0]))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(ops.exp(x) * ops.sin(x))
    g = tape.gradient(y, x)
    assert g is not None
    xv = x.numpy()
    np.testing.assert_allclose(g.numpy(), np.exp(xv) * (np.sin(xv) +
                                                        np.cos(xv)))


def test_a_pycg_tensor_converts_to_its_own_tensorflow_value():
    t = ops.exp(pycg.constant([1.0, 2.0]))
    assert tf.convert_to_tensor(t) is t._value
    wider = tf.convert_to_tensor(t, dtype=tf.float64)   # (as NumPy's would)
    assert wider.dtype == tf.float64
    np.testing.assert_allclose(wider.numpy(), np.exp([1.0, 2.0]), rtol=1e-6)
    np.testing.assert_array_equal(tf.reduce_sum(t).numpy(),
                                  np.float32(np.exp(1.0) + np.exp(2.0)))


def test_a_rule_in_a_keras_layer_trains_with_model_fit():
    class Tripled(keras.layers.Layer):
        def build(self, shape):
            self.w = self.add_weight(shape=(), initializer="ones")

        def call(self, x):
            return triple(x * self.w)

    model = keras.Sequential([keras.Input((2,)), Tripled()])
    model.compile(optimizer=keras.optimizers.SGD(0.01), loss="mse")
    x, y = np.ones((8, 2), np.float32), np.zeros((8, 2), np.float32)
    model.fit(x, y, epochs=1, batch_size=8, verbose=0)
    # d mse / dw at w = 1: mean(2 w x * x) times the rule's 3 = 6
    np.testing.assert_allclose(float(model.layers[0].w.numpy()),
                               1 - 0.01 * 6, rtol=1e-6)


def test_a_rule_reading_a_variable_under_tf_gradient_tape_raises():
    w = pycg.Variable(2.0, name="w")

    @pycg.custom_gradient
    def scaled(x):
        def grad(g, variables=None):
            return g * w, [ops.sum(g * x)]
        return x * w, grad

    x = tf.constant(X)
    with tf.GradientTape() as tape:
        tape.watch(x)
        with pytest.raises(ValueError, match=(
                r"scaled: this custom_gradient function reads a Variable it "
                r"does not take as an argument, where TensorFlow "
                r"differentiates it .*pass the Variable to scaled")):
            scaled(x)


def test_eagerly_without_a_tape_a_rule_returns_a_pycg_tensor():
    out = log1pexp(tf.constant(X))
    assert isinstance(out, pycg.Tensor)
    np.testing.assert_allclose(out.numpy(), np.log1p(np.exp(X)))


@pytest.mark.parametrize("given", ["tf", "pycg"])
def test_a_rule_in_a_pycg_function_under_tf_gradient_tape(given):
    step = pycg.function(lambda x: ops.sum(triple(x)))
    x = tf.constant([1.0, 2.0])
    arg = x if given == "tf" else pycg.Tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.convert_to_tensor(step(arg))
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [3.0, 3.0])


def test_a_rule_in_a_tf_function_on_pycg_tensors():
    @tf.function(autograph=False)
    def slope(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.convert_to_tensor(ops.sum(triple(pycg.Tensor(x))))
        return tape.gradient(y, x)

    np.testing.assert_allclose(slope(tf.constant([1.0, 2.0])).numpy(),
                               [3.0, 3.0])


@pytest.mark.parametrize("other", ["numpy", "jax"])
def test_a_rule_on_tensorflow_values_on_another_backend_is_an_error(other):
    # on the numpy and jax backends pycg cannot make the call one TensorFlow
    # op; TensorFlow would differentiate the forward (x * 1.0: 1, not the
    # rule's 3) without a word
    if other == "jax":
        pytest.importorskip("jax")
    pycg.config.set_backend(other)
    x = tf.constant(X)
    message = (r"triple: this pycg.custom_gradient function was called on "
               r"TensorFlow values while TensorFlow records .* pycg's backend "
               rf"is '{other}', .* use the tensorflow backend \(pycg.config."
               r"set_backend\('tensorflow'\)\), .* pycg.to_tensorflow\(triple\)")
    with tf.GradientTape() as tape, pytest.raises(TypeError, match=message):
        tape.watch(x)
        triple(x)
    with pytest.raises(TypeError, match=message):
        tf.function(lambda x: triple(x), autograph=False)(x)
