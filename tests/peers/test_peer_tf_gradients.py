"""Ported from TensorFlow: tensorflow/tensorflow,
tensorflow/python/ops/gradients_test.py (classes GradientsTest,
FunctionGradientsTest, StopGradientTest, HessianVectorProductTest,
HessianTest, CustomGradientTest). Graph-mode `tf.gradients(ys, xs)` is
written with a GradientTape (the same sum-over-targets contract); each test
names the TF test it ports. Expected values are the TF tests' own closed
forms."""
import numpy as np
import pytest

import pycg
from pycg import ops

ORIGIN = "tensorflow/tensorflow tensorflow/python/ops/gradients_test.py"


def close(a, b, tol=1e-5):
    np.testing.assert_allclose(np.asarray(a, dtype=float),
                               np.asarray(b, dtype=float), rtol=tol, atol=tol)


def gradients(fn, xs, unconnected_gradients="none"):
    """tf.gradients(fn(*xs), xs) with a tape."""
    xs = [pycg.constant(x) if not isinstance(x, pycg.Tensor) else x
          for x in xs]
    with pycg.GradientTape() as t:
        t.watch(xs)
        ys = fn(*xs)
    return t.gradient(ys, xs, unconnected_gradients=unconnected_gradients)


# ---- GradientsTest ---------------------------------------------------------
def test_boundary_continue(backend):
    """GradientsTest.testBoundaryContinue"""
    x = pycg.constant(1.0)
    with pycg.GradientTape() as t:
        t.watch(x)
        y = x * 2.0
        z = y * 3.0
    gx, gy = t.gradient(z, [x, y])
    close([gx, gy], [6.0, 3.0])


@pytest.mark.parametrize("method", ["accumulate_n", "add_n", "tree"])
def test_aggregation(backend, method):
    """GradientsTest.testAggregationMethodAccumulateN / AddN / Tree (pycg
    has one aggregation: a running sum)"""
    x = pycg.constant(1.0)
    with pycg.GradientTape() as t:
        t.watch(x)
        y = x * 2.0
        z = y + y + y + y + y + y + y + y + y + y
    close(t.gradient(z, [x, y]), [20.0, 10.0])


def test_dependent_ys(backend):
    """GradientsTest.testDependentYs"""
    x = pycg.constant(3.0)
    with pycg.GradientTape(persistent=True) as t:
        t.watch(x)
        y = ops.square(x)
        y1 = ops.square(y)
        y2 = ops.square(y1)
        total = y + y2
        z, z2 = ops.reshape(y, ()), ops.reshape(y2, ())
    close(t.gradient([y, y2], x), 17502.0)
    close(t.gradient(total, x), 17502.0)
    close(t.gradient([z, z2], x), 17502.0)


def test_partial_derivatives_total(backend):
    """GradientsTest.testPartialDerivatives (total derivative part)"""
    x = pycg.constant(1.0)
    with pycg.GradientTape() as t:
        t.watch(x)
        y = 2 * x
        z = x + y
    close(t.gradient(z, [x, y]), [3.0, 1.0])


def test_unconnected_gradients_none(backend):
    """GradientsTest.testUnconnectedGradientsNoneUnconnectedGradients"""
    x, y = ops.full((2, 2), 1.0), ops.full((3, 1), 3.0)
    with pycg.GradientTape() as t:
        t.watch(x)
    assert t.gradient([y], [x], unconnected_gradients="none")[0] is None


def test_unconnected_gradients_zeros(backend):
    """GradientsTest.testUnconnectedGradientsZerosUnconnectedGradients"""
    x, y = ops.full((2, 2), 1.0), ops.full((3, 1), 3.0)
    with pycg.GradientTape() as t:
        t.watch(x)
    close(t.gradient([y], [x], unconnected_gradients="zero")[0],
          np.zeros((2, 2)))


def test_unconnected_gradients_zero_connected_gradients(backend):
    """GradientsTest.testUnconnectedGradientsZeroConnectedGradients"""
    (g,) = gradients(lambda x: x * 3.0, [1.0], "zero")
    close(g, 3.0)


def test_unknown_unconnected_gradients_value_given(backend):
    """GradientsTest.testUnknownUnconnectedGradientsValueGiven"""
    x = pycg.constant(1.0)
    with pycg.GradientTape() as t:
        t.watch(x)
        y = x * 1.0
    with pytest.raises(ValueError, match="nonsense"):
        t.gradient(y, x, unconnected_gradients="nonsense")


@pytest.mark.parametrize("mode", ["zero", "none"])
def test_unconnected_op_with_multiple_outputs(backend, mode):
    """GradientsTest.testUnconnectedOpWithMultipleOutputs (split is pycg's
    multi-output op)"""
    ab = pycg.constant([1.0, 1.0])
    with pycg.GradientTape(persistent=True) as t:
        t.watch(ab)
        c, d = ops.split(ab, 2)
        e = ops.reshape(c, (1,))
    out = t.gradient(e, d, unconnected_gradients=mode)
    assert (out is None) == (mode == "none")


@pytest.mark.parametrize("mode", ["zero", "none"])
def test_unconnected_op_with_multiple_outputs_stop_gradient(backend, mode):
    """GradientsTest.testUnconnectedOpWithMultipleOutputsStopGradient"""
    ab = pycg.constant([1.0, 1.0])
    with pycg.GradientTape() as t:
        t.watch(ab)
        c, d = ops.split(ab, 2)
        e = ops.stop_gradient(c) + d
    out = t.gradient(e, c, unconnected_gradients=mode)
    assert (out is None) == (mode == "none")


# ---- FunctionGradientsTest -------------------------------------------------
def _x_square_plus_b(x, b):
    return x * x + b


def test_function_gradients_basic(backend):
    """FunctionGradientsTest.testFunctionGradientsBasic"""
    close(gradients(_x_square_plus_b, [[2.0], [1.0]]), [[4.0], [1.0]])


def test_function_gradients_composition(backend):
    """FunctionGradientsTest.testFunctionGradientsComposition"""
    gx, gb1, _ = gradients(
        lambda x, b1, b2: _x_square_plus_b(_x_square_plus_b(x, b1), b2),
        [[2.0], [1.0], [1.0]])
    close([gx, gb1], [[40.0], [10.0]])


def test_function_gradients_with_grad_func(backend):
    """FunctionGradientsTest.testFunctionGradientsWithGradFunc (a custom
    gradient that doubles the true one)"""
    @pycg.custom_gradient
    def f(x, b):
        return x * x + b, lambda g: (2 * g * 2.0 * x, 2 * g)
    close(gradients(f, [[2.0], [1.0]]), [[8.0], [2.0]])


@pytest.mark.filterwarnings("ignore:pycg.function")
def test_gradient_wrt_captured(backend):
    """FunctionGradientsTest.testGradientWrtCaptured"""
    x = pycg.constant(1.0)

    @pycg.function
    def foo(x):
        with pycg.GradientTape() as t:
            t.watch(x)
            y = ops.multiply(x, 2.0)
        return t.gradient(y, x)
    close(foo(x), 2.0)


def test_captured_nested(backend):
    """FunctionGradientsTest.testCapturedNested"""
    x1, x2 = pycg.constant(1.0), pycg.constant(2.0)
    with pycg.GradientTape() as t:
        t.watch([x1, x2])
        x3 = ops.multiply(x1, x2)
        inner1, inner2 = ops.reshape(x1, ()), ops.reshape(x2, ())
        inner3 = ops.reshape(x3, ())
    g1, g2 = t.gradient([inner1, inner2, inner3, x1], [x1, x2])
    close([g1, g2], [4.0, 2.0])


def test_captured_eager_tensors(backend):
    """FunctionGradientsTest.testCapturedEagerTensors"""
    c = pycg.constant(2.0)
    (g,) = gradients(lambda x: ops.multiply(c, ops.multiply(x, c)), [10.0])
    close(g, 4.0)


# ---- StopGradientTest, Hessians ---------------------------------------------
def test_stop_gradient(backend):
    """StopGradientTest.testStopGradient"""
    inp = ops.full((100, 32), 1.0)
    with pycg.GradientTape() as t:
        t.watch(inp)
        out = ops.stop_gradient(inp)
    assert t.gradient(out, inp) is None


def _quadratic_problem(m=4):
    rng = np.random.RandomState([1, 2, 3])
    mat = rng.randn(m, m)
    v = rng.randn(m, 1)
    x = rng.randn(m, 1)
    return mat, v, x


def test_hessian_vector_product(backend):
    """HessianVectorProductTest.testHessianVectorProduct: the Hessian of
    x^T A x is A + A^T"""
    mat, v, x = _quadratic_problem()

    def f(x):
        return ops.sum(ops.matmul(ops.transpose(x), ops.matmul(mat, x)))
    xt = pycg.constant(x)
    with pycg.GradientTape() as outer:
        outer.watch(xt)
        with pycg.GradientTape() as inner:
            inner.watch(xt)
            y = f(xt)
        g = inner.gradient(y, xt)
        gv = ops.sum(g * pycg.constant(v))
    close(outer.gradient(gv, xt), (mat + mat.T) @ v)


def test_hessian_1d(backend):
    """HessianTest.testHessian1D"""
    mat, _, x = _quadratic_problem()
    h = pycg.hessian(lambda x: ops.sum(x * ops.matmul(mat, x)))(x[:, 0])
    close(h, mat + mat.T)


def test_hessian_2d_projection(backend):
    """HessianTest.testHessian2D_projection: f(x) = sum(x^2) on a 3x2
    matrix has Hessian 2 I over the flattened entries"""
    h = pycg.hessian(lambda x: ops.sum(ops.square(x)))(np.ones((3, 2)))
    close(h.numpy().reshape(6, 6), 2 * np.eye(6))


def test_hessian_2d_non_projection(backend):
    """HessianTest.testHessian2D_non_projection"""
    def f(x):
        return ops.sum(ops.matmul(ops.transpose(x), x) *
                       pycg.constant([[1.0, 2.0], [3.0, 4.0]]))
    x = np.arange(6.0).reshape(3, 2)
    h = pycg.hessian(f)(x).numpy().reshape(6, 6)
    # f = sum_ij W_ij sum_k x_ki x_kj: d2f/dx_ki dx_lj = delta_kl (W + W^T)_ij
    w = np.array([[1.0, 2.0], [3.0, 4.0]])
    expected = np.kron(np.eye(3), w + w.T)
    close(h, expected)


# ---- CustomGradientTest -----------------------------------------------------
def test_custom_gradient_trivial(backend):
    """CustomGradientTest.testCustomGradientTrivial"""
    @pycg.custom_gradient
    def my_identity(x):
        return x, lambda dy: [3 * dy]
    (g,) = gradients(lambda x: my_identity(my_identity(x)), [3.0])
    close(g, 9.0)


def test_custom_gradient(backend):
    """CustomGradientTest.testCustomGradient (switched ordering)"""
    @pycg.custom_gradient
    def my_multiply(x1, x2):
        return x1 * x2, lambda dy: [dy * x1, dy * x2]
    close(gradients(my_multiply, [3.0, 5.0]), [3.0, 5.0])


def test_custom_gradient_class(backend):
    """CustomGradientTest.testCustomGradientClass"""
    class Model:
        @pycg.custom_gradient
        def multiply(self, x1, x2):
            return x1 * x2, lambda dy: (dy * x1, dy * x2)
    m = Model()
    close(gradients(lambda a, b: m.multiply(a, b), [3.0, 5.0]), [3.0, 5.0])


def test_custom_gradient_errors(backend):
    """CustomGradientTest.testCustomGradientErrors"""
    @pycg.custom_gradient
    def f(x):
        def grad(_):
            raise RuntimeError("x")
        return x, grad
    with pytest.raises(RuntimeError):
        gradients(f, [1.0])


def test_custom_gradient_with_variables(backend):
    """CustomGradientTest.testCustomGradientWithVariables (dense layer as
    x @ w; the grad_fn gives ones for w)"""
    w = pycg.Variable(np.full((4, 3), 0.5, np.float32))

    @pycg.custom_gradient
    def f(x):
        out = ops.matmul(x, w)

        def grad(out_grad, variables=None):
            assert len(variables) == 1
            return ops.matmul(out_grad, ops.transpose(w)), [ops.ones((4, 3))]
        return out, grad
    x = ops.ones((2, 4))
    with pycg.GradientTape() as t:
        t.watch(x)
        y = f(x)
    gx, gw = t.gradient(y, [x, w])
    assert gx is not None
    close(ops.sum(gw), 12.0)


def test_custom_gradient_with_variables_eager(backend):
    """CustomGradientTest.testCustomGradientWithVariablesEager"""
    w = pycg.Variable(np.full((2, 4), 0.25, np.float32))

    @pycg.custom_gradient
    def f(x):
        out = ops.matmul(x, w)

        def grad(out_grad, variables=None):
            assert len(variables) == 1
            return ops.ones((3, 2)), [ops.ones((2, 4))]
        return out, grad
    x = ops.ones((3, 2)) + 2.0
    with pycg.GradientTape() as t:
        t.watch(x)
        y = f(x)
    dx, dw = t.gradient(y, [x, w])
    close([ops.sum(dx), ops.sum(dw)], [6.0, 8.0])


@pytest.mark.parametrize("anonymous_varargs", [True, False])
def test_custom_gradient_variables_kwonly_args(backend, anonymous_varargs):
    """CustomGradientTest.testCustomGradientVariablesKwonlyArgs"""
    x_captured = pycg.Variable(3.0)

    @pycg.custom_gradient
    def func_mult(x):
        def actual_grad(dy, variables):
            assert len(variables) == 1 and variables[0] is x_captured
            return 4.0 * x_captured * dy, [5.0 * x * dy]
        if anonymous_varargs:
            def grad_mult(dy, *, variables=None):
                return actual_grad(dy, variables)
        else:
            def grad_mult(*dys, variables=None):
                return actual_grad(dys[0], variables)
        return x * x_captured, grad_mult
    x = pycg.Variable(6.0)
    with pycg.GradientTape(persistent=True) as g:
        y = func_mult(x)
    close(g.gradient(y, x), 12.0)
    close(g.gradient(y, x_captured), 30.0)


def test_with_numpy_inputs(backend):
    """CustomGradientTest.testWithNumpyInputs"""
    @pycg.custom_gradient
    def f(x):
        return x, lambda _: (None, None)
    out = f(np.ones((3, 2), dtype=np.float32))
    assert out.shape == (3, 2)


def test_recursive_custom_gradient(backend):
    """CustomGradientTest.testRecursiveCustomGradient"""
    w = pycg.Variable(np.full((4, 3), 0.5, np.float32))

    @pycg.custom_gradient
    def f(x):
        out = ops.matmul(x, w)

        def grad(out_grad, variables=None):
            assert len(variables) == 1
            return ops.matmul(out_grad, ops.transpose(w)), [ops.ones((4, 3))]
        return out, grad

    @pycg.custom_gradient
    def double_f(x):
        out = f(x)

        def grad(out_grad, variables=None):
            assert len(variables) == 1
            return ops.matmul(out_grad, ops.transpose(w)), [ops.ones((4, 3))]
        return out, grad
    x = ops.ones((2, 4))
    with pycg.GradientTape() as t:
        t.watch(x)
        y = double_f(x)
    gx, gw = t.gradient(y, [x, w])
    assert gx is not None
    close(ops.sum(gw), 12.0)


X_STRUCTS = [(None, ()), (((), ()), [None, None], [], (None, ()))]
Y_STRUCTS = [[None, ()], (None, (), [], (None, ((), None)))]


@pytest.mark.parametrize("y_struct", Y_STRUCTS, ids=["y0", "y1"])
@pytest.mark.parametrize("x_struct", X_STRUCTS, ids=["x0", "x1"])
def test_custom_gradient_structural_input_output(backend, x_struct,
                                                 y_struct):
    """CustomGradientTest.testCustomGradientStructuralInputOutput: nested
    inputs and outputs (None marks a scalar leaf)"""
    from pycg.tensor import structure

    def zeros(s):
        return _map(lambda _: ops.zeros(()), s)

    def get_struct(s):
        return _map(lambda _: None, s)

    @pycg.custom_gradient
    def f(*x):
        assert get_struct(x) == x_struct

        def vjp(*dy):
            assert len(structure.flatten(y_struct)) == len(dy)
            return structure.flatten(zeros(x_struct))
        return zeros(y_struct), vjp
    x = zeros(x_struct)
    dy = zeros(y_struct)
    flat = structure.flatten(x)
    with pycg.GradientTape(persistent=True) as tape:
        tape.watch(flat)
        y = f(*x)
    dx = tape.gradient(y, x, output_gradients=dy)
    assert get_struct(y) == y_struct
    assert get_struct(dx) == x_struct


def _map(fn, s):
    if s is None:
        return fn(s)
    if isinstance(s, tuple) and not isinstance(s, pycg.Tensor):
        return tuple(_map(fn, i) for i in s)
    if isinstance(s, list):
        return [_map(fn, i) for i in s]
    return fn(s)
