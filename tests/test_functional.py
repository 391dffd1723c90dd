"""The functional API (grad, value_and_grad, vjp, jacobian, hessian, jvp,
jacfwd) with Python numbers and NumPy arrays as arguments; oracles are
closed forms or finite differences."""
import numpy as np
import pytest

import pycg
from pycg import ops

X = np.array([0.3, -1.2, 2.0])


def close(t, expected, rtol=1e-10):
    a = np.asarray(t)
    np.testing.assert_allclose(a, expected,
                               rtol=rtol if a.dtype == np.float64 else 1e-5)


def numeric_grad(f, x, eps=1e-6):
    """Central differences of a NumPy function f at float64 array x."""
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        hi, lo = x.copy(), x.copy()
        hi[i] += eps
        lo[i] -= eps
        g[i] = (f(hi) - f(lo)) / (2 * eps)
    return g


# ---- grad -------------------------------------------------------------------
def test_grad_of_a_python_number(backend):
    g = pycg.grad(lambda x: x ** 3)(2.0)
    assert isinstance(g, pycg.Tensor) and g.dtype == np.float32
    close(g, 12.0)


def test_grad_of_a_numpy_array_keeps_its_dtype(backend):
    g = pycg.grad(lambda x: ops.sum(ops.sin(x) * x))(X)
    assert g.dtype == np.float64
    close(g, np.cos(X) * X + np.sin(X))


def test_grad_matches_finite_differences(backend):
    def f(x):
        return ops.logsumexp(ops.tanh(x) * x) + ops.sum(x * x) / 3

    def f_np(x):
        return np.log(np.sum(np.exp(np.tanh(x) * x))) + np.sum(x * x) / 3

    x = np.random.default_rng(0).standard_normal(4)
    close(pycg.grad(f)(x), numeric_grad(f_np, x), rtol=1e-7)


def test_grad_argnums_int_and_tuple(backend):
    def f(x, y):
        return x * x * y

    close(pycg.grad(f, argnums=1)(3.0, 2.0), 9.0)
    close(pycg.grad(f, argnums=-1)(3.0, 2.0), 9.0)
    gx, gy = pycg.grad(f, argnums=(0, 1))(3.0, 2.0)
    close(gx, 12.0)
    close(gy, 9.0)


def test_grad_tuple_argnums_gives_a_tuple_even_for_one(backend):
    g = pycg.grad(lambda x, y: x * y, argnums=(0,))(3.0, 2.0)
    assert isinstance(g, tuple) and len(g) == 1
    close(g[0], 2.0)


def test_grad_has_aux(backend):
    def f(x):
        y = x * x
        return y, {"y": y, "note": "aux"}

    g, aux = pycg.grad(f, has_aux=True)(3.0)
    close(g, 6.0)
    close(aux["y"], 9.0)
    assert aux["note"] == "aux"


def test_grad_of_an_unused_argument_is_zero(backend):
    g = pycg.grad(lambda x, y: ops.sum(x * x), argnums=1)(X, 1.0)
    close(g, 0.0)


def test_grad_passes_keyword_arguments_through(backend):
    g = pycg.grad(lambda x, scale: x * x * scale)(3.0, scale=10.0)
    close(g, 60.0)


def test_grad_of_a_nested_argument_has_its_structure(backend):
    params = {"w": np.array([1.0, 2.0]), "b": 0.5}

    def loss(p, x):
        return ops.sum((p["w"] * x + p["b"]) ** 2)

    x = np.array([3.0, -1.0])
    g = pycg.grad(loss)(params, x)
    r = params["w"] * x + params["b"]
    assert set(g) == {"w", "b"}
    close(g["w"], 2 * r * x)
    close(g["b"], np.sum(2 * r))


def test_grad_of_grad(backend):
    d2 = pycg.grad(pycg.grad(lambda x: x ** 4))(2.0)
    close(d2, 12 * 2.0 ** 2)


# ---- value_and_grad ---------------------------------------------------------
def test_value_and_grad(backend):
    value, g = pycg.value_and_grad(lambda x: ops.sum(ops.exp(x)))(X)
    close(value, np.sum(np.exp(X)))
    close(g, np.exp(X))


def test_value_and_grad_has_aux(backend):
    (value, aux), g = pycg.value_and_grad(lambda x: (x * x, x + 1),
                                          has_aux=True)(3.0)
    close(value, 9.0)
    close(aux, 4.0)
    close(g, 6.0)


def test_value_and_grad_argnums_tuple(backend):
    value, (gx, gy) = pycg.value_and_grad(lambda x, y: x / y,
                                          argnums=(0, 1))(3.0, 2.0)
    close(value, 1.5)
    close(gx, 0.5)
    close(gy, -3.0 / 4.0)


# ---- vjp --------------------------------------------------------------------
def test_vjp_of_two_arguments(backend):
    y = np.array([0.5, 1.5, -0.7])
    out, vjp_fn = pycg.vjp(lambda a, b: a * ops.sin(b), X, y)
    close(out, X * np.sin(y))
    ct = np.array([1.0, -2.0, 0.5])
    ga, gb = vjp_fn(ct)
    close(ga, ct * np.sin(y))
    close(gb, ct * X * np.cos(y))


def test_vjp_fn_can_be_called_again(backend):
    out, vjp_fn = pycg.vjp(lambda a: a * a, 3.0)
    close(vjp_fn(1.0)[0], 6.0)
    close(vjp_fn(2.0)[0], 12.0)


def test_vjp_of_an_unused_primal_is_zero(backend):
    _, vjp_fn = pycg.vjp(lambda a, b: a * 2.0, 1.0, 5.0)
    ga, gb = vjp_fn(1.0)
    close(ga, 2.0)
    close(gb, 0.0)


# ---- jacobian, hessian ------------------------------------------------------
def test_jacobian_of_an_elementwise_function(backend):
    j = pycg.jacobian(lambda x: ops.exp(x) * 2)(X)
    assert j.shape == (3, 3)
    close(j, np.diag(2 * np.exp(X)))


def test_jacobian_of_a_linear_map(backend):
    a = np.array([[1.0, 2.0, 3.0], [0.0, -1.0, 0.5]])
    close(pycg.jacobian(lambda x: ops.matmul(a, x))(X), a)


def test_jacobian_argnums_tuple(backend):
    def f(x, y):
        return x * y

    y = np.array([2.0, 3.0, 4.0])
    jx, jy = pycg.jacobian(f, argnums=(0, 1))(X, y)
    close(jx, np.diag(y))
    close(jy, np.diag(X))


def test_jacrev_is_jacobian(backend):
    assert pycg.jacrev is pycg.jacobian


def test_hessian_of_a_cubic(backend):
    h = pycg.hessian(lambda x: ops.sum(x ** 3))(X)
    close(h, np.diag(6 * X))


def test_hessian_with_cross_terms(backend):
    def f(x):
        return x[0] * x[0] * x[1] + ops.sin(x[1])

    x = np.array([1.5, 0.5])
    h = pycg.hessian(f)(x)
    close(h, [[2 * x[1], 2 * x[0]], [2 * x[0], -np.sin(x[1])]])


def test_hessian_of_a_python_number(backend):
    close(pycg.hessian(lambda x: x ** 4)(2.0), 48.0)


# ---- forward mode -----------------------------------------------------------
def test_jvp_is_the_jacobian_times_the_tangent(backend):
    a = np.array([[1.0, 2.0, 3.0], [0.0, -1.0, 0.5]])

    def f(x):
        return ops.matmul(a, ops.sin(x))

    t = np.array([1.0, 0.5, -2.0])
    out, tangent = pycg.jvp(f, (X,), (t,))
    close(out, a @ np.sin(X))
    close(tangent, a @ (np.cos(X) * t))


def test_jvp_of_two_arguments_and_python_numbers(backend):
    out, tangent = pycg.jvp(lambda x, y: x * y * y, (3.0, 2.0), (1.0, 0.5))
    close(out, 12.0)
    close(tangent, 1.0 * 4.0 + 0.5 * 2 * 3.0 * 2.0)


def test_jvp_of_a_constant_function_is_zero(backend):
    out, tangent = pycg.jvp(lambda x: ops.ones((2,)) * 3.0, (1.0,), (1.0,))
    close(tangent, [0.0, 0.0])


def test_jacfwd_agrees_with_the_closed_form(backend):
    def f(x):
        return ops.stack([x[0] * x[1], ops.exp(x[2]), x[1]])

    j = pycg.jacfwd(f)(X)
    close(j, [[X[1], X[0], 0], [0, 0, np.exp(X[2])], [0, 1, 0]])


def test_jacfwd_of_a_matrix_argument(backend):
    m = np.arange(1.0, 5.0).reshape(2, 2)
    j = pycg.jacfwd(lambda x: x * x)(m)
    assert j.shape == (2, 2, 2, 2)
    close(j, np.diag(2 * m.ravel()).reshape(2, 2, 2, 2))


def test_jacfwd_argnums(backend):
    j = pycg.jacfwd(lambda x, y: x * y, argnums=1)(X, np.ones(3))
    close(j, np.diag(X))


# ---- contracts --------------------------------------------------------------
def test_grad_requires_a_scalar_output(backend):
    with pytest.raises(TypeError, match=r"pycg.value_and_grad\(<lambda>\): "
                       r"the function must return a scalar, got \(3,\)"):
        pycg.grad(lambda x: x * 2)(X)


def test_grad_argnums_out_of_range(backend):
    with pytest.raises(ValueError, match="argnums 2 is out of range for 1 "
                       "positional argument"):
        pycg.grad(lambda x: x, argnums=2)(1.0)


def test_has_aux_needs_a_pair(backend):
    with pytest.raises(TypeError, match="has_aux=True needs f to return a "
                       "pair"):
        pycg.grad(lambda x: x * x, has_aux=True)(1.0)


def test_jvp_tangent_shape_must_match(backend):
    with pytest.raises(ValueError, match=r"pycg.jvp\(<lambda>\): a tangent "
                       r"has shape \(2,\) but its primal has shape \(3,\)"):
        pycg.jvp(lambda x: x, (X,), (np.ones(2),))
