"""pycg.jvp carries tangents beside the primals (pycg/core/tangents.py):
nesting in every order against closed forms, a rule's tangent against
the peers' answers at the edges, the state after an error, threads, and
the table's names. (Every op's tangent against central differences and
the dot-product test with its VJP: tests/support/vjp_suite.py.)"""
import math
import threading

import numpy as np
import pytest

import pycg
from pycg import ops
from pycg.core.recorder import RULES, state
from pycg.core.tangents import TANGENTS


def _f(x):
    return float(x.numpy() if hasattr(x, "numpy") else x)


def test_nested_jvps_never_confuse_their_tangents(backend):
    # JAX's perturbation-confusion case: d/dx [d/dy (x * y)] = 1, not 2
    def inner(x):
        return pycg.jvp(lambda y: x * y, (1.0,), (1.0,))[1]
    assert _f(pycg.jvp(inner, (2.0,), (1.0,))[1]) == 1.0
    # d/dx [d/dy x y sin(y)] at y = 1: sin 1 + cos 1
    def mixed(x):
        return pycg.jvp(lambda y: x * y * ops.sin(y), (1.0,), (1.0,))[1]
    got = _f(pycg.jvp(mixed, (2.0,), (1.0,))[1])
    assert got == pytest.approx(math.sin(1) + math.cos(1), rel=1e-6)


def test_every_order_of_forward_and_reverse_gives_the_second_derivative(
        backend):
    # f = x^3 sin(x): f'' = 6x sin x + 6x^2 cos x - x^3 sin x
    def f(x):
        return x * x * x * ops.sin(x)
    x = 0.7
    want = 6 * x * math.sin(x) + 6 * x * x * math.cos(x) - \
        x ** 3 * math.sin(x)
    dfwd = lambda y: pycg.jvp(f, (y,), (1.0,))[1]   # noqa: E731
    ways = {
        "forward over forward": pycg.jvp(dfwd, (x,), (1.0,))[1],
        "reverse over forward": pycg.grad(dfwd)(x),
        "forward over reverse": pycg.jvp(pycg.grad(f), (x,), (1.0,))[1],
    }
    for way, got in ways.items():
        assert _f(got) == pytest.approx(want, rel=1e-5), way


def test_a_tape_around_jvp_differentiates_the_tangent(backend):
    x = pycg.constant(0.3)
    with pycg.GradientTape() as tape:
        tape.watch(x)
        _, t = pycg.jvp(lambda y: ops.exp(2.0 * y), (x,), (1.0,))
    # t = 2 exp(2x); dt/dx = 4 exp(2x)
    assert _f(tape.gradient(t, x)) == pytest.approx(4 * math.exp(0.6),
                                                    rel=1e-6)


def test_a_custom_gradient_rule_is_its_linearisation_at_zero_gradient(
        backend):
    @pycg.custom_gradient
    def clipped_square(x):
        return x * x, lambda g: ops.clip(2.0 * x * g, -1.0, 1.0)
    # at g = 0 clip is the identity: J = 2x, J t = 6 t at x = 3
    assert _f(pycg.jvp(clipped_square, (3.0,), (2.0,))[1]) == 12.0
    # (reverse mode runs the rule itself, and clips)
    assert _f(pycg.grad(clipped_square)(3.0)) == 1.0


def test_a_rule_on_several_tensors_and_a_rule_reading_a_variable(backend):
    @pycg.custom_gradient
    def prod(x, y):
        return x * y, lambda g: (g * y, g * x)
    got = pycg.jvp(lambda a, b: prod(a, b) + 0.0, (2.0, 5.0), (1.0, 3.0))[1]
    assert _f(got) == 5.0 + 2.0 * 3.0
    w = pycg.Variable(4.0)

    @pycg.custom_gradient
    def scaled(x):
        def grad(g, variables=None):
            return g * w, [g * x]
        return x * w, grad
    # the variable is a constant to pycg.jvp: J t = w t
    assert _f(pycg.jvp(scaled, (2.0,), (1.5,))[1]) == 6.0


def test_edges_give_jax_s_tangents(backend):
    # sqrt at 0: t * inf, NaN where t is 0 (0 * inf), as jax.jvp gives
    x = np.array([0.0, 0.0, 4.0])
    t = np.array([0.0, 1.0, 1.0])
    got = pycg.jvp(ops.sqrt, (x,), (t,))[1].numpy()
    assert np.isnan(got[0]) and got[1] == np.inf and got[2] == 0.25
    # log at 0: t / 0
    got = pycg.jvp(ops.log, (np.array([0.0, 1.0]),),
                   (np.array([1.0, 2.0]),))[1].numpy()
    assert got[0] == np.inf and got[1] == 2.0


def test_broadcasting_and_dtypes(backend):
    # x (3,) against y (2, 1): the tangent has the output's shape and dtype
    x = np.array([1.0, 2.0, 3.0], np.float32)
    y = np.array([[2.0], [4.0]], np.float32)
    out, t = pycg.jvp(lambda a, b: a * b, (x, y),
                      (np.ones(3, np.float32), np.zeros((2, 1), np.float32)))
    assert t.shape == (2, 3) and t.dtype == np.float32
    np.testing.assert_array_equal(t.numpy(), np.broadcast_to(y, (2, 3)))
    # a cast: the tangent in the output's dtype
    _, t = pycg.jvp(lambda a: ops.cast(a, "float64") * 2.0, (x,),
                    (np.ones(3, np.float32),))
    assert t.dtype == np.float64
    np.testing.assert_array_equal(t.numpy(), [2.0, 2.0, 2.0])


def test_an_error_in_f_leaves_nothing_recording(backend):
    def bad(x):
        ops.exp(x)
        raise RuntimeError("from f")
    with pytest.raises(RuntimeError, match="from f"):
        pycg.jvp(bad, (1.0,), (1.0,))
    assert not state().active
    assert _f(pycg.jvp(ops.exp, (0.0,), (2.0,))[1]) == 2.0


def test_strong_zeros_take_the_vjp_s_way(backend):
    from pycg.core.backward import strong_zeros
    f = lambda x: ops.sum(ops.tanh(x) * 2.0)   # noqa: E731
    x = np.array([0.5, -1.0])
    t = np.array([1.0, 3.0])
    want = float(np.sum(2 * (1 - np.tanh(x) ** 2) * t))
    with strong_zeros():
        assert _f(pycg.jvp(f, (x,), (t,))[1]) == pytest.approx(want,
                                                               rel=1e-12)
    assert _f(pycg.jvp(f, (x,), (t,))[1]) == pytest.approx(want, rel=1e-12)


def test_threads_each_carry_their_own_tangents(backend):
    # the table is shared, each call's trace its own
    errors, results = [], {}

    def work(k):
        try:
            for _ in range(20):
                t = pycg.jvp(lambda x: ops.sin(x) * float(k), (0.5,),
                             (1.0,))[1]
                results.setdefault(k, []).append(_f(t))
        except Exception as e:   # pragma: no cover (reported below)
            errors.append(e)
    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors
    for k, values in results.items():
        assert values == pytest.approx([k * math.cos(0.5)] * 20, rel=1e-6)


def test_the_tangent_table_names_ops_that_have_rules():
    assert TANGENTS and set(TANGENTS) <= set(RULES)
