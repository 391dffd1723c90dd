"""Strong zeros (pycg.core.backward): inside `strong_zeros()`, the rule the
R package's calls run under, a position whose value is NaN and whose
cotangent is exactly 0 is not reached and contributes exactly 0, whatever
its partial derivative; a
likelihood that leaves out its missing observations then has the gradient
of its observed part. Outside it pycg answers as TensorFlow does (0 * NaN is
NaN). Oracles: central finite differences in float64 of the same objective
written in NumPy, and TensorFlow's tape for the default."""
import math
import threading

import numpy as np
import pytest

import pycg
from pycg import ops
from pycg.core.backward import strong_zeros, strong_zeros_on

NAN = math.nan
Y = np.array([1.5, NAN, 3.0, 4.0, NAN, 2.0])
X = np.array([[1.0, 2.0], [1.0, 1.0], [1.0, 5.0], [1.0, NAN], [1.0, 3.0],
              [1.0, -1.0]])
P = np.array([0.5, 0.25])


def fd(f, p, h=1e-6):
    """Central finite differences of f: NumPy vector -> float."""
    out = np.zeros_like(p)
    for i in range(p.size):
        e = np.zeros_like(p)
        e[i] = h
        out[i] = (f(p + e) - f(p - e)) / (2 * h)
    return out


def masked_sum(ll):
    """R's sum(ll, na.rm = TRUE) as pycg.r computes it: where, then sum."""
    return ops.sum(ops.where(ops.isnan(ll), 0.0, ll))


def observed(ll):
    """R's ll[!is.na(ll)]: the observed positions, gathered."""
    keep = np.flatnonzero(~np.isnan(ops.convert_to_numpy(ll)))
    return ops.sum(ops.take(ll, keep))


# each objective: (pycg's, NumPy's over the observed rows alone)
OBJECTIVES = {
    "elementwise chain, na.rm": (
        lambda p: masked_sum(ops.log(ops.exp(-(Y - p[0]) ** 2)) * ops.sin(p[1])),
        lambda p: np.nansum(-(Y - p[0]) ** 2 * np.sin(p[1]))),
    "broadcast to a matrix, index": (
        lambda p: observed(ops.sqrt((Y[:, None] - p[None, :]) ** 2 + 1.0)),
        lambda p: np.nansum(np.sqrt((Y[:, None] - p[None, :]) ** 2 + 1.0))),
    "matmul with a row of NaN data, na.rm": (
        lambda p: masked_sum(0.5 * (Y - ops.matmul(X, p[:, None])[:, 0]) ** 2),
        lambda p: np.nansum(0.5 * (Y - X @ p) ** 2)),
    "the data on the right of matmul": (
        lambda p: masked_sum(ops.matmul(ops.reshape(p, (1, 2)), X.T)[0] * Y),
        lambda p: np.nansum(p @ X.T * Y)),
    "row maxima, na.rm": (
        lambda p: masked_sum(ops.max(X * p, axis=1) * Y),
        lambda p: np.nansum(np.max(X * p, axis=1) * Y)),
    "row products, index": (
        lambda p: observed(ops.prod(X * p, axis=1) + Y),
        lambda p: np.nansum(np.prod(X * p, axis=1) + Y)),
}


@pytest.mark.parametrize("name", OBJECTIVES)
def test_strong_zeros_give_the_gradient_of_the_observed_part(backend, name):
    f, oracle = OBJECTIVES[name]
    p = ops.convert_to_tensor(P)
    with strong_zeros():
        value, grad = pycg.value_and_grad(f)(p)
    np.testing.assert_allclose(float(value), oracle(P), rtol=1e-12)
    np.testing.assert_allclose(ops.convert_to_numpy(grad), fd(oracle, P),
                               rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("name", OBJECTIVES)
def test_by_default_the_gradient_is_tensorflows_nan(backend, name):
    f, oracle = OBJECTIVES[name]
    grad = pycg.grad(f)(ops.convert_to_tensor(P))
    assert np.isnan(ops.convert_to_numpy(grad)).any()


def test_tensorflow_gives_nan_for_a_masked_sum_too():
    tf = pytest.importorskip("tensorflow")
    p = tf.constant(P)
    with tf.GradientTape() as tape:
        tape.watch(p)
        ll = (Y - p[0]) ** 2
        value = tf.reduce_sum(tf.where(tf.math.is_nan(ll), 0.0, ll))
    assert np.isnan(tape.gradient(value, p).numpy()[0])
    assert np.isfinite(value.numpy())


def test_a_nan_that_reaches_the_value_keeps_its_nan_gradient(backend):
    p = ops.convert_to_tensor(P)
    with strong_zeros():
        value, grad = pycg.value_and_grad(
            lambda p: ops.sum((Y - p[0]) ** 2))(p)   # no na.rm
        assert math.isnan(float(value))
        assert np.isnan(ops.convert_to_numpy(grad)[0])
        x = ops.convert_to_tensor(np.array([-1.0, 2.0]))
        g = ops.convert_to_numpy(   # (2 log(x) / x: NaN at -1)
            pycg.grad(lambda x: ops.sum(ops.log(x) ** 2))(x))
        assert math.isnan(g[0]) and g[1] == math.log(2.0)
        norm = pycg.value_and_grad(lambda p: ops.sqrt(ops.sum(p * p)))
        value, grad = norm(ops.convert_to_tensor(np.zeros(2)))
        assert float(value) == 0.0   # (finite, and inf * 0 is no 0 upstream)
        assert np.isnan(ops.convert_to_numpy(grad)).all()


def test_a_zero_upstream_at_an_overflow_keeps_tensorflows_nan(backend):
    # log(1 + exp(1000)): 1 / inf is a 0 upstream at exp's inf, not a NaN
    # left out of the value: 0 * inf stays NaN, as without strong zeros
    x = ops.convert_to_tensor(np.array([1000.0, 0.0]))
    f = pycg.grad(lambda x: ops.sum(ops.log(1 + ops.exp(x))))
    with strong_zeros():
        g = ops.convert_to_numpy(f(x))
    assert math.isnan(g[0]) and g[1] == 0.5


def test_strong_zeros_change_nothing_where_every_position_is_reached(backend):
    x = ops.convert_to_tensor(np.array([0.5, 2.0, 3.0]))
    f = pycg.grad(lambda x: ops.sum(ops.tanh(x) * ops.log(x) + x ** 3))
    plain = ops.convert_to_numpy(f(x))
    with strong_zeros():
        np.testing.assert_array_equal(ops.convert_to_numpy(f(x)), plain)


def test_second_derivatives_of_the_observed_part(backend):
    f, oracle = OBJECTIVES["matmul with a row of NaN data, na.rm"]
    with strong_zeros():
        hess = ops.convert_to_numpy(pycg.hessian(f)(ops.convert_to_tensor(P)))
    Xo = X[~np.isnan(Y) & ~np.isnan(X).any(axis=1)]
    np.testing.assert_allclose(hess, Xo.T @ Xo, rtol=1e-10)


def test_strong_zeros_are_scoped_to_the_context():
    assert strong_zeros_on() is False
    with strong_zeros():
        assert strong_zeros_on() is True
        with strong_zeros(False):
            assert strong_zeros_on() is False
        assert strong_zeros_on() is True
    assert strong_zeros_on() is False


def test_strong_zeros_in_one_thread_leave_another_as_tensorflow(backend):
    f = pycg.grad(OBJECTIVES["elementwise chain, na.rm"][0])
    p = ops.convert_to_tensor(P)
    inside, checked = threading.Event(), threading.Event()
    seen = []

    def strong():
        with strong_zeros():
            inside.set()
            checked.wait()
            seen.append(np.isfinite(ops.convert_to_numpy(f(p))).all())

    t = threading.Thread(target=strong)
    t.start()
    inside.wait()
    try:
        assert np.isnan(ops.convert_to_numpy(f(p))).any()
    finally:
        checked.set()
        t.join()
    assert seen == [True]
