"""pycg.jvp, pycg.jacfwd and pycg.ops.jvp through a rule whose gradient
has its own rule (TensorFlow's nested custom gradients, issue 46): the
tangent is J t for the J the reverse rule's values define (3 x^2 t for
x**3), not the gradient-of-the-gradient rule's declared derivative in the
cotangent (7). Oracles: closed forms; TensorFlow's ForwardAccumulator on
the same nested tf.custom_gradient."""
import numpy as np
import pytest

import pycg
from pycg import ops


def _nested(declared=7.0):
    @pycg.custom_gradient
    def cube(x):
        def grad_fn(dy):
            @pycg.custom_gradient
            def first(dy):
                return dy * 3 * x ** 2, lambda ddy: ddy * declared
            return first(dy)
        return x ** 3, grad_fn
    return cube


X = np.array([2.0, -1.5, 0.5])
T = np.array([1.0, 0.25, -2.0])


def test_nested_rule_jvp_is_the_vjp_values_transposed(backend):
    cube = _nested()
    x = pycg.convert_to_tensor(2.0, "float64")
    assert float(pycg.grad(cube)(x)) == pytest.approx(12.0)
    y, t = pycg.jvp(cube, (x,), (1.0,))
    assert float(y) == pytest.approx(8.0)
    assert float(t) == pytest.approx(12.0)   # 3 x^2 t, not 7 t
    one = pycg.convert_to_tensor(1.0, "float64")
    assert float(ops.jvp(cube, (x,), (one,))[1]) == pytest.approx(12.0)


def test_nested_rule_vector_jvp_and_jacfwd(backend):
    cube = _nested()
    x = pycg.convert_to_tensor(X)
    _, t = pycg.jvp(cube, (x,), (T,))
    np.testing.assert_allclose(np.asarray(t), 3 * X ** 2 * T, rtol=1e-12)
    np.testing.assert_allclose(np.asarray(pycg.jacfwd(cube)(x)),
                               np.diag(3 * X ** 2), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(pycg.jacobian(cube)(x)),
                               np.diag(3 * X ** 2), rtol=1e-12)


def test_rule_without_nesting_unchanged(backend):
    @pycg.custom_gradient
    def log1pexp(x):
        e = ops.exp(x)
        return ops.log(1 + e), lambda up: up * (1 - 1 / (1 + e))
    x = pycg.convert_to_tensor(X)
    _, t = pycg.jvp(log1pexp, (x,), (T,))
    np.testing.assert_allclose(np.asarray(t), T / (1 + np.exp(-X)),
                               rtol=1e-12)


def test_nested_rule_leaving_pycg_keeps_its_rule(backend):
    # the inner forward's value is computed outside pycg (NumPy): its ops
    # do not reach it, so its own rule (3 x^2, consistent) stands
    @pycg.custom_gradient
    def cube(x):
        def grad_fn(dy):
            @pycg.custom_gradient
            def first(dy):
                v = np.asarray(dy) * 3 * np.asarray(x) ** 2
                return (pycg.convert_to_tensor(v),
                        lambda ddy: ddy * 3 * x ** 2)
            return first(dy)
        return x ** 3, grad_fn
    x = pycg.convert_to_tensor(X)
    _, t = pycg.jvp(cube, (x,), (T,))
    np.testing.assert_allclose(np.asarray(t), 3 * X ** 2 * T, rtol=1e-12)


def test_tensorflow_forward_accumulator_agrees():
    tf = pytest.importorskip("tensorflow")

    @tf.custom_gradient
    def cube(x):
        def grad_fn(dy):
            @tf.custom_gradient
            def first(dy):
                return dy * 3 * x ** 2, lambda ddy: ddy * 7
            return first(dy)
        return x ** 3, grad_fn
    x = tf.constant(X)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(T)) as acc:
        y = cube(x)
    expected = acc.jvp(y).numpy()
    _, t = pycg.jvp(_nested(), (pycg.convert_to_tensor(X),), (T,))
    np.testing.assert_allclose(np.asarray(t), expected, rtol=1e-12)


def test_decorated_grad_fn_forward_accumulator_agrees():
    # grad_fn itself a tf.custom_gradient (the reference test's shape)
    tf = pytest.importorskip("tensorflow")

    def make(cg, sin, cos):
        @cg
        def op(x):
            @cg
            def grad_fn(dy):
                return dy * cos(x), lambda ddy: 7.0 * ddy * cos(x)
            return sin(x), grad_fn
        return op
    x = tf.constant(X)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(T)) as acc:
        y = make(tf.custom_gradient, tf.sin, tf.cos)(x)
    expected = acc.jvp(y).numpy()
    np.testing.assert_allclose(expected, np.cos(X) * T, rtol=1e-12)
    op = make(pycg.custom_gradient, ops.sin, ops.cos)
    _, t = pycg.jvp(op, (pycg.convert_to_tensor(X),), (T,))
    np.testing.assert_allclose(np.asarray(t), expected, rtol=1e-12)
