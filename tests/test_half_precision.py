"""bfloat16 and float16 are floating everywhere: watched, differentiated by
pycg.grad, through every rule, and updated by the optimizers, with
TensorFlow's (and Keras') results, on both backends."""
import warnings

import numpy as np
import pytest

import pycg
from pycg import ops

tf = pytest.importorskip("tensorflow")
keras = pytest.importorskip("keras")

HALF = ["bfloat16", "float16"]
X = np.array([0.3, 0.7, 1.5], np.float32)


def _tf_grad(f, x, dtype=None):
    x = tf.constant(x) if dtype is None else tf.cast(tf.constant(x), dtype)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x)


def _close(got, want, dtype):
    tol = 2e-2 if dtype == "bfloat16" else 2e-3
    np.testing.assert_allclose(np.asarray(got, np.float32),
                               np.asarray(tf.cast(want, tf.float32)),
                               rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", HALF)
def test_gradient_through_a_cast_to_half_and_back_as_tensorflow(backend,
                                                                dtype):
    got = pycg.grad(lambda x: ops.sum(
        ops.cast(ops.cast(x, dtype) * 3.0, "float32") ** 2))(X)
    want = _tf_grad(lambda x: tf.reduce_sum(
        tf.cast(tf.cast(x, dtype) * 3.0, tf.float32) ** 2), X)
    assert got.dtype == np.float32
    _close(got.numpy(), want, dtype)


@pytest.mark.parametrize("dtype", HALF)
def test_a_watched_half_tensor_gets_its_gradient(backend, dtype):
    x = ops.cast(pycg.constant(X), dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # (no "not floating" warning)
        with pycg.GradientTape() as tape:
            tape.watch(x)
            y = ops.sum(x * x)
    g = tape.gradient(y, x)
    assert g.dtype.name == dtype
    _close(g.numpy(), _tf_grad(lambda x: tf.reduce_sum(x * x), X, dtype),
           dtype)


UNARY = {
    "sqrt": (ops.sqrt, tf.sqrt), "rsqrt": (ops.rsqrt, tf.math.rsqrt),
    "reciprocal": (ops.reciprocal, tf.math.reciprocal),
    "exp": (ops.exp, tf.exp), "log": (ops.log, tf.math.log),
    "tanh": (ops.tanh, tf.tanh), "sigmoid": (ops.sigmoid, tf.sigmoid),
    "sin": (ops.sin, tf.sin), "relu": (ops.relu, tf.nn.relu),
    "softplus": (ops.softplus, tf.math.softplus),
    "gelu": (ops.gelu, lambda x: tf.nn.gelu(x, approximate=True)),
    "erf": (ops.erf, tf.math.erf), "square": (ops.square, tf.square),
    "exp2": (ops.exp2, lambda x: tf.math.pow(tf.constant(2, x.dtype), x)),
    "erfinv": (ops.erfinv, lambda x: tf.cast(
        tf.math.erfinv(tf.cast(x, tf.float32)), x.dtype)),
    "x ** 3": (lambda x: x ** 3.0, lambda x: x ** 3.0),
    "x / (1 + x)": (lambda x: x / (1.0 + x), lambda x: x / (1.0 + x)),
    "norm": (ops.norm, tf.norm),
    "softmax": (lambda x: ops.softmax(x)[0], lambda x: tf.nn.softmax(x)[0]),
    "logsumexp": (ops.logsumexp, tf.math.reduce_logsumexp),
    "std": (ops.std, tf.math.reduce_std),
}


@pytest.mark.parametrize("dtype", HALF)
@pytest.mark.parametrize("name", sorted(UNARY))
def test_each_rule_runs_in_half_precision_as_tensorflow(backend, name,
                                                         dtype):
    f, tf_f = UNARY[name]
    x = ops.cast(pycg.constant(X * 0.5), dtype)
    g = pycg.grad(lambda v: ops.sum(f(v)))(x)
    assert g.dtype.name == dtype
    _close(g.numpy(), _tf_grad(lambda v: tf.reduce_sum(tf_f(v)), X * 0.5,
                               dtype), dtype)


@pytest.mark.parametrize("dtype", HALF)
def test_matmul_gradient_in_half_precision_as_tensorflow(backend, dtype):
    a = np.arange(6, dtype=np.float32).reshape(2, 3) / 4
    b = np.arange(12, dtype=np.float32).reshape(3, 4) / 8
    got = pycg.grad(lambda a, b: ops.sum(ops.matmul(a, b) ** 2),
                    argnums=(0, 1))(ops.cast(pycg.constant(a), dtype),
                                    ops.cast(pycg.constant(b), dtype))
    ta, tb = tf.cast(a, dtype), tf.cast(b, dtype)
    with tf.GradientTape() as tape:
        tape.watch([ta, tb])
        y = tf.reduce_sum(tf.matmul(ta, tb) ** 2)
    for g, w in zip(got, tape.gradient(y, [ta, tb])):
        assert g.dtype.name == dtype
        _close(g.numpy(), w, dtype)


@pytest.mark.parametrize("dtype", HALF)
def test_float16_with_bfloat16_is_float32_as_in_keras(backend, dtype):
    other = "float16" if dtype == "bfloat16" else "bfloat16"
    got = ops.add(ops.ones(2, dtype), ops.ones(2, other))
    want = keras.ops.add(keras.ops.ones(2, dtype), keras.ops.ones(2, other))
    assert got.dtype.name == want.dtype.name == "float32"
    assert (ops.ones(2, dtype) + 1.5).dtype.name == dtype


OPTIMIZERS = ["SGD", "Adam", "AdamW", "RMSprop", "Adagrad"]


@pytest.mark.parametrize("dtype", HALF)
@pytest.mark.parametrize("name", OPTIMIZERS)
def test_optimizers_update_half_variables_as_keras(backend, name, dtype):
    v = pycg.Variable(ops.cast(pycg.constant([1.0, 2.0]), dtype))
    g = ops.cast(pycg.constant([2.0, 4.0]), dtype)
    opt = getattr(pycg.optimizers, name)(learning_rate=0.1)
    kv = keras.Variable(np.array([1.0, 2.0]), dtype=dtype)
    kg = keras.ops.cast(keras.ops.array([2.0, 4.0]), dtype)
    kopt = getattr(keras.optimizers, name)(learning_rate=0.1)
    for _ in range(3):
        opt.apply_gradients([(g, v)])
        kopt.apply_gradients([(kg, kv)])
    assert v.dtype.name == dtype
    np.testing.assert_array_equal(
        np.asarray(v.numpy(), np.float32),
        np.asarray(keras.ops.convert_to_numpy(kv), np.float32))


@pytest.mark.parametrize("dtype", HALF)
def test_top_k_of_half_values_keeps_their_order(backend, dtype):
    x = ops.cast(pycg.constant([2.25, 2.75, 2.5, -1.0]), dtype)
    values, indices = ops.top_k(x, 3)
    np.testing.assert_array_equal(indices.numpy(), [1, 2, 0])
    np.testing.assert_array_equal(np.asarray(values.numpy(), np.float32),
                                  [2.75, 2.5, 2.25])


@pytest.mark.parametrize("dtype", HALF)
def test_a_half_numpy_array_is_a_custom_rules_tensor_input(backend, dtype):
    a = np.asarray(keras.ops.convert_to_numpy(
        keras.ops.cast(keras.ops.array([1.5, 2.0]), dtype)))

    @pycg.custom_gradient
    def times(x, a):
        return x * a, lambda g: (g * a, g * x)

    x = ops.cast(pycg.constant([3.0, 4.0]), dtype)
    g = pycg.grad(lambda v: ops.sum(times(v, a)))(x)
    assert g.dtype.name == dtype
    np.testing.assert_array_equal(np.asarray(g.numpy(), np.float32),
                                  [1.5, 2.0])
