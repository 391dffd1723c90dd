"""Ported from TensorFlow: tensorflow/tensorflow,
tensorflow/python/eager/forwardprop_test.py (class ForwardpropTest). pycg has
no ForwardAccumulator; its forward mode is pycg.jvp / pycg.jacfwd, so the
tests that state a forward-mode fact through _jvp, _jacfwd, _hvp or
_test_gradients are ported with those. Each test names the TF test. The
helper _test_gradients follows TF's: reverse-mode and forward-mode Jacobians
of f and of its gradients up to `order`, both against float64 central
differences."""
import numpy as np
import pytest

import pycg
from pycg import ops

ORIGIN = "tensorflow/tensorflow tensorflow/python/eager/forwardprop_test.py"
X11_35_DERIVATIVES = [1.1 ** 3.5, 3.5 * 1.1 ** 2.5, 3.5 * 2.5 * 1.1 ** 1.5,
                      3.5 * 2.5 * 1.5 * 1.1 ** 0.5]


def close(a, b, tol=1e-6):
    np.testing.assert_allclose(np.asarray(a, dtype=float),
                               np.asarray(b, dtype=float), rtol=tol, atol=tol)


def _grad(f):
    """forwardprop_test._grad: the gradient of the sum of f's output."""
    def g(x):
        with pycg.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        return tape.gradient(y, x, unconnected_gradients="zero")
    return g


def _numeric_jacobian(f, x, delta=1e-5):
    x = np.asarray(x, np.float64)
    cols = []
    for i in range(x.size):
        e = np.zeros(x.size)
        e[i] = delta
        up = f(pycg.constant(x + e.reshape(x.shape))).numpy()
        dn = f(pycg.constant(x - e.reshape(x.shape))).numpy()
        cols.append(((up - dn) / (2 * delta)).reshape(-1))
    return np.stack(cols, axis=-1)


def _test_gradients(f, primal, order, rtol=1e-4, atol=1e-6):
    """forwardprop_test._test_gradients, for one float64 primal"""
    if order > 1:
        _test_gradients(_grad(f), primal, order - 1, rtol, atol)
    x = pycg.constant(np.asarray(primal, np.float64))
    num = _numeric_jacobian(f, primal)
    n_out = num.shape[0]
    back = pycg.jacrev(f)(x).numpy().reshape(n_out, -1)
    fwd = pycg.jacfwd(f)(x).numpy().reshape(n_out, -1)
    np.testing.assert_allclose(back, num, rtol=rtol, atol=atol)
    np.testing.assert_allclose(fwd, num, rtol=rtol, atol=atol)
    np.testing.assert_allclose(back, fwd, rtol=1e-9, atol=1e-12)


def test_jvp_function_add_and_mul(backend):
    """ForwardpropTest.testJVPFunction"""
    _, t = pycg.jvp(ops.add, (1.0, 3.0), (1.0, 5.0))
    close(t, 6.0)
    _, t = pycg.jvp(ops.multiply, ([4.0], [5.0]), ([2.0], [3.0]))
    close(t, [2.0 * 5.0 + 3.0 * 4.0])


def test_jvp_manual(backend):
    """ForwardpropTest.testJVPManual"""
    primal, tangent = pycg.jvp(ops.sin, (0.1,), (0.2,))
    close(primal, np.sin(0.1))
    close(tangent, np.cos(0.1) * 0.2)


def test_numeric_higher_order(backend):
    """ForwardpropTest.testNumericHigherOrder"""
    def f(x):
        pointwise = ops.sin(x) * ops.tan(x)
        return ops.prod(pointwise + ops.sum(pointwise), axis=1)
    _test_gradients(f, [[2.0, 3.0], [1.0, 4.0]], order=3, rtol=1e-3)


def test_custom_gradient(backend):
    """ForwardpropTest.testCustomGradient: a forward computed in NumPy, with
    grad dy * cos(x); higher orders differentiate the grad function"""
    @pycg.custom_gradient
    def f(x):
        return pycg.constant(np.sin(x.numpy())), lambda dy: dy * ops.cos(x)
    x = pycg.constant(np.array([1.0, 2.0]))
    close(pycg.jacrev(f)(x), np.diag(np.cos([1.0, 2.0])))
    close(pycg.jacfwd(f)(x), np.diag(np.cos([1.0, 2.0])))
    close(pycg.jacrev(_grad(f))(x), np.diag(-np.sin([1.0, 2.0])))


def test_exception_in_custom_gradient_not_swallowed(backend):
    """ForwardpropTest.testExceptionInCustomGradientNotSwallowed"""
    @pycg.custom_gradient
    def f(unused_x):
        def grad(unused_dy):
            raise ValueError("test_error_string")
        return pycg.constant(1.0) * unused_x, grad
    with pytest.raises(ValueError, match="test_error_string"):
        pycg.jvp(f, (1.0,), (2.0,))


@pytest.mark.parametrize("value,op", [(-0.5, ops.elu), ([0.5], ops.elu),
                                      (0.5, ops.silu), ([-0.5], ops.silu)],
                         ids=["EluM5", "EluP5", "SwishP5", "SwishM5"])
def test_elementwise_nn_ops(backend, value, op):
    """ForwardpropTest.testElementwiseNNOps"""
    _test_gradients(op, value, order=3, rtol=1e-3)


def test_dense_layer(backend):
    """ForwardpropTest.testKerasLayers (Dense, written as x @ w + b)"""
    w = pycg.constant(np.linspace(-1.0, 0.6, 5).reshape(1, 5))
    b = pycg.constant(np.linspace(-1.0, 0.6, 5))
    _test_gradients(lambda x: ops.matmul(x, w) + b, [[0.1]], order=2)


@pytest.mark.parametrize("order", range(4))
def test_higher_order_pure_forward(backend, order):
    """ForwardpropTest.testHigherOrderPureForward"""
    def forwardgrad(f):
        return lambda x: pycg.jvp(f, (x,), (1.0,))[1]
    f = lambda x: x ** 3.5  # noqa: E731
    for _ in range(order):
        f = forwardgrad(f)
    close(f(pycg.constant(1.1)), X11_35_DERIVATIVES[order], 1e-5)


def test_grad_pure_forward(backend):
    """ForwardpropTest.testGradPureForward"""
    def inner(x):
        return pycg.jvp(lambda v: v ** 3.5, (x,), (1.0,))
    primal_out, inner_jvp = inner(pycg.constant(1.1))
    _, outer_jvp = pycg.jvp(lambda x: inner(x)[1], (1.1,), (1.0,))
    close([primal_out, inner_jvp, outer_jvp], X11_35_DERIVATIVES[:3], 1e-5)


def test_function_grad(backend):
    """ForwardpropTest.testFunctionGrad"""
    _test_gradients(lambda x: ops.prod(ops.tanh(x) ** 2), [1.0, 2.0],
                    order=3, rtol=1e-3)


def test_reusing_jvp(backend):
    """ForwardpropTest.testReusingJVP (smaller matrices)"""
    rng = np.random.default_rng(0)
    m1 = rng.uniform(size=(4, 6))
    t1 = rng.uniform(size=(4, 6))
    out, t = pycg.jvp(lambda m: ops.matmul(m, ops.transpose(m)), (m1,), (t1,))
    close(out, m1 @ m1.T)
    close(t, t1 @ m1.T + m1 @ t1.T)


def _fun(x):
    return ops.prod(ops.tanh(x) ** 2)


def test_hvp_correctness(backend):
    """ForwardpropTest.testHVPCorrectness: forward-over-back against
    back-over-back Hessian-vector products"""
    primals = pycg.constant(np.array([1.0, 2.0, 3.0]))
    tangents = np.array([3.0, 4.0, 5.0])
    _, fwd_back = pycg.jvp(pycg.grad(_fun), (primals,), (tangents,))
    hess = pycg.hessian(_fun)(primals).numpy()
    close(fwd_back, hess @ tangents)


def test_backward_over_forward(backend):
    """ForwardpropTest.testBackwardOverForward"""
    g = pycg.grad(lambda c: pycg.jvp(ops.cos, (c,), (0.1,))[1])(1.0)
    close(g, -0.1 * np.cos(1.0))


def test_variable_watched(backend):
    """ForwardpropTest.testVariableWatched"""
    v = pycg.Variable([1.0, 2.0, 3.0])
    t = np.array([0.1, -0.2, 0.3], np.float32)
    close(pycg.jvp(lambda x: x, (v,), (t,))[1], t)
    close(pycg.jvp(lambda x: x * 2.0, (v,), (t,))[1], [0.2, -0.4, 0.6])
    close(pycg.jvp(lambda x: x + 0.1, (v,), (t,))[1], t)


def test_unconnected_gradients(backend):
    """ForwardpropTest.testUnconnectedGradients (pycg's jvp gives zeros)"""
    _, t = pycg.jvp(lambda x: x, (-1.0,), (0.1,))
    close(t, 0.1)
    _, t = pycg.jvp(lambda x: pycg.constant(-2.0), (-1.0,), (0.1,))
    close(t, 0.0)


def test_jvp_of_a_pytree_output(backend):
    """ForwardpropTest.testVariableWatchedFunction (acc.jvp of a tuple)"""
    v = pycg.constant([1.0, 2.0, 3.0])
    _, (vj, xj, x2j) = pycg.jvp(lambda u: (u, u * 2.0, u + 0.1), (v,),
                                (np.array([0.1, -0.2, 0.3]),))
    close([vj, xj, x2j], [[0.1, -0.2, 0.3], [0.2, -0.4, 0.6],
                          [0.1, -0.2, 0.3]])
