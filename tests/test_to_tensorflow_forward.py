"""pycg.to_tensorflow under TensorFlow's forward mode
(tf.autodiff.ForwardAccumulator): the output tangents are the rule's (a
custom_gradient rule transposed, a custom_jvp rule as it stands; rules
that differ from the true derivative on purpose, so that only the rule
passes), plain pycg.ops code agrees with TensorFlow's own forward mode and
float64 central differences, several and nested inputs and outputs,
integer inputs, inside and around tf.function, forward-over-reverse
Hessian-vector products against closed forms, reverse mode unchanged, and
the TensorFlow internals it relies on pinned (pycg/interop/_tf_forward)."""
import os

import numpy as np
import pytest

os.environ.setdefault("KERAS_BACKEND", "tensorflow")

import tensorflow as tf  # noqa: E402

import pycg  # noqa: E402
from pycg import ops  # noqa: E402
from pycg.interop import _tf_forward  # noqa: E402
from support.log1pexp_case import log1pexp  # noqa: E402

pytestmark = pytest.mark.usefixtures("tf_backend")

X = np.array([-3.0, -0.5, 0.0, 0.7, 4.0])
T = np.array([1.0, -2.0, 0.5, 3.0, -1.5])


@pycg.custom_gradient
def sin_twice(x):
    """sin(x), whose rule says 2 (not cos(x)): a rule unlike the true
    derivative, everywhere."""
    return ops.sin(x), lambda upstream: 2 * upstream


@pycg.custom_jvp
def sin_thrice(x):
    return ops.sin(x)


@sin_thrice.defjvp
def _sin_thrice_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return sin_thrice(x), 3 * t   # (not cos(x) * t)


@pycg.custom_jvp
def polar(d, n):
    """{"r": |a| * n, "p": (a * b, b ** 2)} of d = {"a": a, "b": b}; n an
    integer; its rule doubles the "r" tangent."""
    a, b = d["a"], d["b"]
    return {"r": ops.abs(a) * ops.cast(n, a.dtype), "p": (a * b, b * b)}


@polar.defjvp
def _polar_jvp(primals, tangents):
    (d, n), (td, _) = primals, tangents
    a, b, ta, tb = d["a"], d["b"], td["a"], td["b"]
    return polar(d, n), {"r": 2 * ops.sign(a) * ta * ops.cast(n, a.dtype),
                         "p": (ta * b + a * tb, 2 * b * tb)}


def mixed(d, n, scale):
    """Plain pycg.ops: a dict and an integer in, a list and a dict out."""
    a, b = d["a"], d["b"]
    k = ops.cast(n, a.dtype)
    return [ops.sin(a) * b * k, {"s": ops.exp(b) * scale,
                                 "m": ops.matmul(a[None, :], b[:, None])}]


def tf_mixed(d, n, scale):   # (the same maths in TensorFlow's ops)
    a, b = d["a"], d["b"]
    k = tf.cast(n, a.dtype)
    return [tf.sin(a) * b * k, {"s": tf.exp(b) * scale,
                                "m": tf.matmul(a[None, :], b[:, None])}]


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def sigmoid_slope(x):
    e = np.exp(-np.abs(x))
    return e / (1 + e) ** 2


def c(v, dtype=tf.float64):
    return tf.constant(v, dtype)


def forward(g, primal, tangent, *rest):
    with tf.autodiff.ForwardAccumulator(primal, tangent) as acc:
        y = g(primal, *rest)
    return y, acc.jvp(y)


def test_the_tensorflow_internals_it_uses_are_there():
    pack, stop_recording, record_operation = _tf_forward.internals()
    assert callable(pack) and callable(record_operation)
    with stop_recording():
        pass
    assert not _tf_forward.watched([c(1.0)])
    x = c(1.0)
    with tf.autodiff.ForwardAccumulator(x, c(1.0)):
        assert _tf_forward.watched([x]) and not _tf_forward.watched([c(2.0)])


def test_a_missing_internal_is_an_error_naming_the_version(monkeypatch):
    monkeypatch.setattr(_tf_forward, "_NAMES", (
        ("tensorflow.python.eager.record", "no_such_function"),))
    _tf_forward.internals.cache_clear()
    try:
        with pytest.raises(RuntimeError, match=(
                rf"record\.no_such_function, which TensorFlow "
                rf"{tf.__version__} does not have")):
            _tf_forward.internals()
        # (reverse mode goes on, with a warning saying forward mode is off)
        x = c(X)
        with pytest.warns(RuntimeWarning, match=tf.__version__):
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = pycg.to_tensorflow(sin_twice)(x)
        np.testing.assert_allclose(tape.gradient(y, x), 2 * np.ones(5))
    finally:
        monkeypatch.undo()
        _tf_forward.internals.cache_clear()


@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
def test_a_custom_gradient_rule_is_the_tangent(dtype):
    y, t = forward(pycg.to_tensorflow(sin_twice), c(X, dtype), c(T, dtype))
    np.testing.assert_allclose(y, np.sin(X), rtol=1e-6)
    np.testing.assert_allclose(t, 2 * T, rtol=1e-6)   # (the rule: 2)


def test_log1pexp_rule_at_100_where_the_forward_overflows():
    y, t = forward(pycg.to_tensorflow(log1pexp), c([100.0, 0.5], tf.float32),
                   c([1.0, 2.0], tf.float32))
    np.testing.assert_allclose(t, [1.0, 2 * sigmoid(0.5)], rtol=1e-6)


def test_a_custom_jvp_rule_is_the_tangent():
    y, t = forward(pycg.to_tensorflow(sin_thrice), c(X), c(T))
    np.testing.assert_allclose(t, 3 * T)


def test_a_custom_jvp_rule_with_nested_structures_and_an_integer():
    a, b = np.array([-1.5, 2.0]), np.array([0.5, 3.0])
    ta, tb = np.array([1.0, 2.0]), np.array([-1.0, 0.5])
    d = {"a": c(a), "b": c(b)}
    with tf.autodiff.ForwardAccumulator(d, {"a": c(ta), "b": c(tb)}) as acc:
        y = pycg.to_tensorflow(polar)(d, tf.constant(3))
    t = acc.jvp(y)
    np.testing.assert_allclose(y["r"], np.abs(a) * 3)
    np.testing.assert_allclose(t["r"], 2 * np.sign(a) * ta * 3)   # (rule)
    np.testing.assert_allclose(t["p"][0], ta * b + a * tb)
    np.testing.assert_allclose(t["p"][1], 2 * b * tb)


def _mixed_case():
    a, b = np.array([0.3, -1.2, 2.0]), np.array([1.5, 0.25, -0.7])
    ta, tb = np.array([1.0, -0.5, 2.0]), np.array([0.3, 1.0, -2.0])
    return a, b, ta, tb


def _mixed_tangents(fn, wrap=lambda g: g):
    a, b, ta, tb = _mixed_case()
    d = {"a": c(a), "b": c(b)}
    with tf.autodiff.ForwardAccumulator(d, {"a": c(ta), "b": c(tb)}) as acc:
        y = wrap(fn)(d, tf.constant(2), 0.5)
    return tf.nest.map_structure(np.asarray, acc.jvp(y))


def _central(a, b, ta, tb, h=1e-6):
    def at(s):
        d = {"a": c(a + s * ta), "b": c(b + s * tb)}
        return tf.nest.map_structure(np.asarray, tf_mixed(d, 2, 0.5))
    return tf.nest.map_structure(lambda p, m: (p - m) / (2 * h), at(h), at(-h))


@pytest.mark.parametrize("where", ["eager", "in tf.function"])
def test_plain_ops_agree_with_tensorflow_and_central_differences(where):
    wrap = (lambda g: g) if where == "eager" else tf.function
    ours = _mixed_tangents(pycg.to_tensorflow(mixed), wrap)
    theirs = _mixed_tangents(tf_mixed, wrap)
    tf.nest.map_structure(np.testing.assert_allclose, ours, theirs)
    tf.nest.map_structure(
        lambda o, f: np.testing.assert_allclose(o, f, rtol=1e-6, atol=1e-8),
        ours, _central(*_mixed_case()))


def test_the_rule_holds_around_and_inside_tf_function():
    g = pycg.to_tensorflow(sin_twice)
    x, t = c(X), c(T)
    with tf.autodiff.ForwardAccumulator(x, t) as acc:   # (around)
        y = tf.function(g)(x)
    np.testing.assert_allclose(acc.jvp(y), 2 * T)
    _, jvp = forward(tf.function(pycg.to_tensorflow(sin_thrice)), x, t)
    np.testing.assert_allclose(jvp, 3 * T)

    @tf.function
    def inside(x, t):
        with tf.autodiff.ForwardAccumulator(x, t) as acc:
            y = g(x)
        return acc.jvp(y)
    np.testing.assert_allclose(inside(x, t), 2 * T)
    np.testing.assert_allclose(tf.function(
        lambda x, t: forward(pycg.to_tensorflow(sin_thrice), x, t)[1])(x, t),
        3 * T)


def test_an_integer_input_has_no_tangent_and_a_variable_is_watched():
    v = tf.Variable(X)
    with tf.autodiff.ForwardAccumulator(v, c(T)) as acc:
        y = pycg.to_tensorflow(lambda x, n: ops.sin(x) * ops.cast(
            n, x.dtype))(v, tf.constant(3))
    np.testing.assert_allclose(acc.jvp(y), 3 * np.cos(X) * T)


def test_each_accumulator_gets_its_own_tangent():
    x = c(X)
    with tf.autodiff.ForwardAccumulator(x, c(T)) as one, \
            tf.autodiff.ForwardAccumulator(x, c(2 * T)) as two:
        y = pycg.to_tensorflow(sin_twice)(x)
    np.testing.assert_allclose(one.jvp(y), 2 * T)
    np.testing.assert_allclose(two.jvp(y), 4 * T)


def _hvp(g, x, v):
    with tf.autodiff.ForwardAccumulator(x, v) as acc:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(g(x))
        grad = tape.gradient(y, x)
    return grad, acc.jvp(grad)


@pytest.mark.parametrize("where", ["eager", "in tf.function"])
def test_forward_over_reverse_hessian_vector_products(where):
    wrap = (lambda h: h) if where == "eager" else tf.function
    x, v = c(X), c(T)
    grad, hv = wrap(lambda x, v: _hvp(pycg.to_tensorflow(log1pexp), x, v))(
        x, v)
    np.testing.assert_allclose(grad, sigmoid(X))
    np.testing.assert_allclose(hv, sigmoid_slope(X) * T)
    cube = pycg.to_tensorflow(lambda x: x * x * x)
    grad, hv = wrap(lambda x, v: _hvp(cube, x, v))(x, v)
    np.testing.assert_allclose(grad, 3 * X ** 2)
    np.testing.assert_allclose(hv, 6 * X * T)


def test_reverse_mode_is_the_rule_with_and_without_an_accumulator():
    g, x = pycg.to_tensorflow(sin_twice), c(X)
    for accumulating in (False, True):
        acc = tf.autodiff.ForwardAccumulator(x, c(T))
        if accumulating:
            acc.__enter__()
        try:
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = g(x)
            np.testing.assert_allclose(tape.gradient(y, x), 2 * np.ones(5))
        finally:
            if accumulating:
                acc.__exit__(None, None, None)


def test_to_keras_carries_the_rule_into_forward_mode():
    keras = pytest.importorskip("keras")
    if keras.backend.backend() != "tensorflow":
        pytest.skip("Keras runs on another backend here")
    layer = keras.layers.Lambda(pycg.to_keras(sin_twice))
    x = c(X, tf.float32)
    with tf.autodiff.ForwardAccumulator(x, c(T, tf.float32)) as acc:
        y = layer(x)
    np.testing.assert_allclose(acc.jvp(y), 2 * T, rtol=1e-6)


def test_forward_over_forward_is_the_rules_second_derivative():
    x, t = c(X), c(T)
    with tf.autodiff.ForwardAccumulator(x, t) as outer:
        with tf.autodiff.ForwardAccumulator(x, t) as inner:
            y = pycg.to_tensorflow(log1pexp)(x)
        first = inner.jvp(y)
    np.testing.assert_allclose(first, sigmoid(X) * T)
    np.testing.assert_allclose(outer.jvp(first), sigmoid_slope(X) * T * T)
