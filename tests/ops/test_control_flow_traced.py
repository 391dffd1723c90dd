"""Control flow ops eagerly (both backends) and inside pycg.function (real
TensorFlow control flow), with gradients against closed forms."""
import warnings

import numpy as np
import pytest

import pycg
from pycg import ops


def f64(v):
    return pycg.constant(np.asarray(v, np.float64))


def _function(f):
    """pycg.function, quiet on numpy (where it runs eagerly)."""
    g = pycg.function(f)

    def call(*args):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return g(*args)
    call.traced = g
    return call


# ---- the functions under test, and their closed forms ------------------
def piecewise(x):
    # sum(x) > 0: sum(sin(x) * x), else sum(x^3)
    return ops.cond(ops.sum(x) > 0, lambda: ops.sum(ops.sin(x) * x),
                    lambda: ops.sum(x * x * x))


def piecewise_grad(x):
    return np.sin(x) + x * np.cos(x) if x.sum() > 0 else 3 * x ** 2


def doubling(x):
    # doubles x until sum(x) >= 10: the trip count depends on the data
    v, n = ops.while_loop(lambda v, n: ops.sum(v) < 10.0,
                          lambda v, n: (v * 2.0, n + 1), (x, 0))
    return ops.sum(v), n


def with_grad(f):
    def run(*xs):
        with pycg.GradientTape() as tape:
            tape.watch(list(xs))
            y = f(*xs)
        return y, tape.gradient(y, list(xs))
    return run


# ---- eager, both backends -----------------------------------------------
def test_cond_eager_takes_the_branch_and_its_gradient(backend):
    for x in ([0.5, -0.2], [-0.5, 0.2]):
        x = np.asarray(x)
        g = pycg.grad(piecewise)(f64(x)).numpy()
        np.testing.assert_allclose(g, piecewise_grad(x), rtol=1e-12)


def test_while_loop_eager_trip_count_and_gradient(backend):
    y, n = doubling(f64([0.3, 0.4]))
    (g,) = with_grad(lambda x: doubling(x)[0])(f64([0.3, 0.4]))[1]
    assert int(n) == 4
    np.testing.assert_allclose(float(y), 0.7 * 16)
    np.testing.assert_allclose(g.numpy(), [16.0, 16.0])


def test_while_loop_maximum_iterations(backend):
    v, n = ops.while_loop(lambda v, n: True, lambda v, n: (v + 1.0, n + 1),
                          (f64(0.0), 0), maximum_iterations=5)
    assert (float(v), int(n)) == (5.0, 5)


def test_switch_clips_the_index(backend):
    branches = [lambda v: v * 2.0, lambda v: -v]
    x = f64([1.0, 2.0])
    assert ops.switch(-3, branches, x).numpy().tolist() == [2.0, 4.0]
    assert ops.switch(9, branches, x).numpy().tolist() == [-1.0, -2.0]


def test_scan_map_and_associative_scan_eager(backend):
    x = f64([1.0, 2.0, 3.0])
    c, ys = ops.scan(lambda c, xi: (c + xi, c * xi), f64(0.0), x)
    assert float(c) == 6.0 and ys.numpy().tolist() == [0.0, 2.0, 9.0]
    assert ops.map(lambda r: r * r, x).numpy().tolist() == [1.0, 4.0, 9.0]
    assert ops.associative_scan(ops.add, x).numpy().tolist() == [1, 3, 6]
    c, ys = ops.scan(lambda c, _: (c * 2.0, None), f64(1.0), length=3)
    assert float(c) == 8.0 and ys is None


# ---- traced: real TensorFlow control flow -------------------------------
def test_cond_traced_once_serves_both_branches(tf_backend):
    f = _function(with_grad(piecewise))
    for x in ([0.5, -0.2], [-0.5, 0.2], [1.0, 1.0]):
        x = np.asarray(x)
        y, (g,) = f(f64(x))
        want = (np.sin(x) * x).sum() if x.sum() > 0 else (x ** 3).sum()
        np.testing.assert_allclose(float(y), want, rtol=1e-12)
        np.testing.assert_allclose(g.numpy(), piecewise_grad(x), rtol=1e-12)
    assert f.traced.trace_count == 1


def test_while_loop_traced_data_dependent_trip_count(tf_backend):
    f = _function(with_grad(lambda x: doubling(x)[0]))
    for x, n in (([0.3, 0.4], 4), ([3.0, 4.0], 1), ([0.01, 0.01], 9)):
        y, (g,) = f(f64(x))
        np.testing.assert_allclose(float(y), sum(x) * 2 ** n, rtol=1e-12)
        np.testing.assert_allclose(g.numpy(), [2.0 ** n] * 2)
    assert f.traced.trace_count == 1


def test_fori_loop_traced_second_derivative(tf_backend):
    def hessian_diag(x):
        with pycg.GradientTape() as outer:
            outer.watch(x)
            with pycg.GradientTape() as inner:
                inner.watch(x)
                y = ops.sum(ops.fori_loop(0, 3, lambda i, v: v * x,
                                          ops.ones_like(x)))
            g = inner.gradient(y, x)
            s = ops.sum(g)
        return g, outer.gradient(s, x)
    x = np.array([0.3, -1.2])
    g, h = _function(hessian_diag)(f64(x))
    np.testing.assert_allclose(g.numpy(), 3 * x ** 2, rtol=1e-12)
    np.testing.assert_allclose(h.numpy(), 6 * x, rtol=1e-12)


def test_fori_loop_traced_with_tensor_bounds(tf_backend):
    f = _function(lambda n, x: ops.fori_loop(0, n, lambda i, v: v + x,
                                             ops.zeros_like(x)))
    assert float(f(pycg.constant(4), f64(1.5))) == 6.0
    assert float(f(pycg.constant(7), f64(1.5))) == 10.5
    assert f.traced.trace_count == 1


def test_scan_traced_matches_the_closed_form_gradient(tf_backend):
    # c_k = a c_{k-1} + x_k from c_0 = 0; loss = c_n + sum_k c_k^2 ...
    def loss(x, a):
        c, ys = ops.scan(lambda c, xi: (c * a + xi, c), f64(0.0), x)
        return c + ops.sum(ys)
    x, a = np.array([1.0, 2.0, -0.5]), 0.7
    y, (gx, ga) = _function(with_grad(loss))(f64(x), f64(a))
    # c_n = sum_k a^(n-1-k) x_k; ys = (c_0, ..., c_{n-1})
    n = len(x)
    dc = np.array([a ** (n - 1 - k) for k in range(n)])
    dys = np.array([sum(a ** (j - 1 - k) for j in range(k + 1, n))
                    for k in range(n)])
    np.testing.assert_allclose(gx.numpy(), dc + dys, rtol=1e-12)
    ey, (egx, ega) = with_grad(loss)(f64(x), f64(a))
    np.testing.assert_allclose(float(y), float(ey), rtol=1e-12)
    np.testing.assert_allclose(float(ga), float(ega), rtol=1e-12)


def test_map_and_reverse_scan_traced(tf_backend):
    f = _function(lambda x: (ops.map(lambda r: ops.sum(r * r), x),
                             ops.scan(lambda c, r: (c + r, c), x[0], x,
                                      reverse=True)[1]))
    x = np.arange(6.0).reshape(3, 2)
    m, ys = f(f64(x))
    np.testing.assert_allclose(m.numpy(), (x ** 2).sum(1))
    want = [x[0] + x[2] + x[1], x[0] + x[2], x[0]]
    np.testing.assert_allclose(ys.numpy(), want)


def test_switch_traced_with_a_tensor_index(tf_backend):
    g = _function(lambda i, x: with_grad(lambda v: ops.sum(ops.switch(
        i, [lambda a: a * 2.0, lambda a: a * a, lambda a: -a], v)))(x))
    x = np.array([1.5, -2.0])
    for i, want in ((0, [2.0, 2.0]), (1, 2 * x), (2, [-1.0, -1.0]),
                    (5, [-1.0, -1.0]), (-1, [2.0, 2.0])):
        _, (grad,) = g(pycg.constant(i), f64(x))
        np.testing.assert_allclose(grad.numpy(), want)
    assert g.traced.trace_count == 1


def test_variable_read_inside_a_traced_loop_gets_its_gradient(tf_backend):
    v = pycg.Variable(np.array([0.5, 2.0]))

    def f(x):
        with pycg.GradientTape() as tape:
            y = ops.while_loop(lambda s, i: i < 3,
                               lambda s, i: (s + ops.sum(v * v) * x, i + 1),
                               (f64(0.0), 0))[0]
        return y, tape.gradient(y, v)
    y, g = _function(f)(f64(1.5))
    np.testing.assert_allclose(float(y), 3 * 1.5 * 4.25)
    np.testing.assert_allclose(g.numpy(), 3 * 1.5 * 2 * np.array([0.5, 2.0]))


def test_stop_gradient_inside_a_traced_branch(tf_backend):
    f = _function(with_grad(lambda x: ops.cond(
        x > 0, lambda: ops.stop_gradient(x) * x, lambda: x)))
    _, (g,) = f(f64(1.5))
    assert float(g) == 1.5


def test_cond_nested_in_a_traced_while_loop(tf_backend):
    def f(x):
        a = x * 2.0
        return ops.while_loop(lambda s: s < 100.0, lambda s: ops.cond(
            s > 10.0, lambda: s * a, lambda: s + a), (x,))[0]
    y, (g,) = _function(with_grad(f))(f64(1.5))
    ey, (eg,) = with_grad(f)(f64(1.5))
    # x = 1.5: x -> 3x -> 5x -> 7x = 10.5 -> 14x^2 = 31.5 -> 28x^3 = 94.5
    # -> 56x^4 = 283.5; d/dx 56x^4 = 224x^3
    want = [56 * 1.5 ** 4, 224 * 1.5 ** 3]
    np.testing.assert_allclose([float(y), float(g)], want)
    np.testing.assert_allclose([float(ey), float(eg)], want)


def test_python_predicate_under_tracing_picks_in_python(tf_backend):
    # the branches return different structures: only Python can pick
    f = _function(lambda x: ops.cond(True, lambda: (x, x * 2.0), lambda: x))
    a, b = f(f64(1.0))
    assert (float(a), float(b)) == (1.0, 2.0)


def test_associative_scan_traced(tf_backend):
    f = _function(with_grad(lambda x: ops.sum(
        ops.associative_scan(lambda a, b: a * b, x))))
    x = np.array([1.5, -0.5, 2.0])
    y, (g,) = f(f64(x))
    np.testing.assert_allclose(float(y), np.cumprod(x).sum())
    want = [1 + x[1] + x[1] * x[2], x[0] + x[0] * x[2], x[0] * x[1]]
    np.testing.assert_allclose(g.numpy(), want)


# ---- errors -------------------------------------------------------------
def test_cond_names_a_branch_that_is_not_callable(backend):
    with pytest.raises(TypeError, match=r"pycg\.ops\.cond: false_fn must be "
                       r"callable, got float"):
        ops.cond(True, lambda: 1.0, 2.0)


def test_switch_with_no_branches(backend):
    with pytest.raises(ValueError, match=r"pycg\.ops\.switch: branches is "
                       r"empty"):
        ops.switch(0, [])


def test_scan_with_disagreeing_lengths(backend):
    with pytest.raises(ValueError, match=r"pycg\.ops\.scan: xs and length "
                       r"disagree on the number of steps: \[3, 4\]"):
        ops.scan(lambda c, x: (c, x), 0.0, f64([1.0, 2.0, 3.0]), length=4)


def test_traced_while_loop_body_must_keep_the_dtype(tf_backend):
    f = _function(lambda x: ops.while_loop(
        lambda v: ops.sum(v) < 10.0, lambda v: ops.cast(v, "float32") * 2.0,
        (x,)))
    with pytest.raises(TypeError, match=r"pycg\.ops\.while_loop: output 0 of "
                       r"the function has dtype float32, but its input had "
                       r"dtype float64"):
        f(f64([1.0]))


def test_traced_scan_carry_must_keep_the_dtype(tf_backend):
    f = _function(lambda x: ops.scan(lambda c, xi: (c * xi, c),
                                     ops.zeros((), "float32"), x))
    with pytest.raises(TypeError, match=r"pycg\.ops\.scan: carry 0 returned "
                       r"by f has dtype float64, but init had dtype float32"):
        f(f64([1.0, 2.0]))
