"""pycg.optimize.scipy_objective: pycg values and gradients driving
scipy.optimize.minimize(jac=True), checked against closed-form optima."""
import numpy as np
import pytest

import pycg
from pycg import ops

optimize = pytest.importorskip("scipy.optimize")


def rosenbrock(x):
    return ops.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1.0 - x[:-1]) ** 2)


def test_rosenbrock_minimum_is_all_ones(backend):
    fun = pycg.optimize.scipy_objective(rosenbrock)
    res = optimize.minimize(fun, np.array([-1.2, 1.0, 0.5]), jac=True,
                            method="BFGS", options={"gtol": 1e-10})
    assert res.success
    np.testing.assert_allclose(res.x, np.ones(3), atol=1e-6)


def test_quadratic_minimum_solves_the_linear_system(backend):
    rng = np.random.default_rng(0)
    m = rng.normal(size=(4, 4))
    a, b = m @ m.T + 4 * np.eye(4), rng.normal(size=4)

    def quadratic(x):  # 0.5 x'Ax - b'x, minimised at A^-1 b
        return 0.5 * ops.sum(x * ops.matmul(a, x)) - ops.sum(b * x)
    res = optimize.minimize(pycg.optimize.scipy_objective(quadratic),
                            np.zeros(4), jac=True, method="L-BFGS-B",
                            options={"gtol": 1e-12, "ftol": 1e-15})
    np.testing.assert_allclose(res.x, np.linalg.solve(a, b), atol=1e-6)


def test_value_and_gradient_are_float64_numpy(backend):
    fun = pycg.optimize.scipy_objective(rosenbrock)
    value, grad = fun(np.array([0.0, 0.0]))
    assert type(value) is float and value == 1.0
    assert grad.dtype == np.float64 and grad.tolist() == [-2.0, 0.0]


def test_float32_objective_on_request(backend):
    seen = []

    def f(x):
        seen.append(x.dtype)
        return ops.sum(x * x)
    value, grad = pycg.optimize.scipy_objective(f, dtype="float32")(
        np.array([1.0, 2.0]))
    assert seen == [np.float32] and grad.dtype == np.float64
    assert value == 5.0 and grad.tolist() == [2.0, 4.0]


def test_error_non_scalar_objective(backend):
    def vector(x):
        return x * 2.0
    with pytest.raises(TypeError, match=r"^pycg.optimize.scipy_objective"
                       r"\(vector\): f must return a scalar, got shape "
                       r"\(2,\); reduce it \(ops.sum\) first$"):
        pycg.optimize.scipy_objective(vector)(np.array([1.0, 2.0]))


def test_constant_objective_has_zero_gradient(backend):
    value, grad = pycg.optimize.scipy_objective(lambda x: pycg.constant(2.0))(
        np.array([1.0, 2.0]))
    assert value == 2.0 and grad.tolist() == [0.0, 0.0]


def test_error_x_not_1d(backend):
    fun = pycg.optimize.scipy_objective(rosenbrock)
    with pytest.raises(ValueError, match=r"^pycg.optimize.scipy_objective"
                       r"\(rosenbrock\): x must be 1-D, got shape \(2, 2\)$"):
        fun(np.ones((2, 2)))


def test_a_nan_gradient_of_a_finite_value_stops_the_objective():
    y = np.array([1.0, np.nan, 3.0])

    def masked_nll(mu):
        return ops.nansum((y - mu) ** 2)

    fun = pycg.optimize.scipy_objective(masked_nll)
    with pytest.raises(FloatingPointError, match=r"scipy_objective\(masked_nll"
                       r"\): the gradient of masked_nll holds NaN \(R's NA\) "
                       r"in 1 of its 1 elements where the value is finite"):
        fun(np.array([0.0]))
    # a NaN value is the optimiser's to handle
    value, grad = pycg.optimize.scipy_objective(
        lambda mu: ops.sum((y - mu) ** 2))(np.array([0.0]))
    assert np.isnan(value) and np.isnan(grad).all()
