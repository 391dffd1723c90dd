"""Higher order through custom gradients, forward mode, NaN attribution and
tape.explain. Oracles: closed forms and finite differences."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pycg
from pycg import ops
from support.log1pexp_case import log1pexp
from support import backend_switch


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


@pycg.custom_gradient
def mul(x, y):
    return x * y, lambda g: (g * y, g * x)


def test_nested_tapes_give_the_true_second_derivative(backend):
    x = pycg.constant(0.7)
    with pycg.GradientTape() as outer:
        outer.watch(x)
        with pycg.GradientTape() as inner:
            inner.watch(x)
            y = log1pexp(x)
        g = inner.gradient(y, x)
    h = outer.gradient(g, x)
    assert float(g) == pytest.approx(sigmoid(0.7))
    assert float(h) == pytest.approx(sigmoid(0.7) * (1 - sigmoid(0.7)))


def test_hessian_through_a_custom_gradient(backend):
    f = lambda v: ops.sum(mul(v, v) * log1pexp(v))  # noqa: E731
    v = np.array([0.3, -1.2])
    hess = pycg.hessian(f)(v).numpy()
    # f = sum v^2 * s(v), s = log1pexp: f'' = 2 s + 4 v s' + v^2 s''
    s, s1 = np.log1p(np.exp(v)), sigmoid(v)
    s2 = s1 * (1 - s1)
    assert np.allclose(hess, np.diag(2 * s + 4 * v * s1 + v * v * s2),
                       rtol=1e-5)


def test_check_gradients_order_two_through_custom_rules(backend):
    pycg.check_gradients(lambda a, b: mul(log1pexp(a), b), 0.4, -0.8,
                         order=2)


def test_check_gradients_catches_a_wrong_rule(backend):
    @pycg.custom_gradient
    def wrong(x):
        return ops.sin(x), lambda g: g * ops.sin(x)

    with pytest.raises(AssertionError, match=r"check_gradients\(wrong\): "
                       r"the gradient for argument 0 \(`x`\) differs"):
        pycg.check_gradients(wrong, 0.3)


def test_jvp_through_a_custom_gradient(backend):
    out, tangent = pycg.jvp(mul, (2.0, 3.0), (1.0, 10.0))
    assert float(out) == 6.0 and float(tangent) == 3.0 + 10.0 * 2.0


def test_jacfwd_matches_jacobian_through_custom_rules(backend):
    f = lambda v: log1pexp(v) * ops.sum(v)  # noqa: E731
    v = np.array([0.1, 0.5, -0.3])
    fwd = pycg.jacfwd(f)(v).numpy()
    s, s1 = np.log1p(np.exp(v)), sigmoid(v)
    expected = np.diag(s1 * v.sum()) + s[:, None]
    assert np.allclose(fwd, expected, rtol=1e-5)
    assert np.allclose(pycg.jacobian(f)(v).numpy(), expected, rtol=1e-5)


def test_check_numerics_names_the_custom_function_and_parameter(backend):
    @pycg.custom_gradient
    def bad_log(x):
        return ops.log(x), lambda g: g / (x - x)

    x = pycg.constant(2.0)
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = bad_log(x) * 3
    with np.errstate(all="ignore"), pycg.debug.check_numerics():
        with pytest.raises(FloatingPointError, match=r"Inf appeared in the "
                           r"gradient for x of the custom-gradient function "
                           r"'bad_log'; its forward inputs range over "
                           r"\[2, 2\]"):
            tape.gradient(y, x)


def test_check_numerics_names_a_builtin_op(backend):
    x = pycg.constant(100.0)
    with np.errstate(all="ignore"):
        with pycg.GradientTape() as tape:
            tape.watch(x)
            y = ops.log(1 + ops.exp(x))
        with pycg.debug.check_numerics():
            with pytest.raises(FloatingPointError,
                               match=r"NaN appeared .* of the op 'exp'"):
                tape.gradient(y, x)


@pytest.mark.parametrize("case,expected", [
    ("unwatched", "the source is not watched"),
    ("integer", "integer dtype int32"),
    ("stopped", "the target was not recorded on this tape"),
    ("disconnected", "the target is disconnected from the source"),
    ("used", "the tape was already used"),
    ("connected", "the gradient is connected"),
])
def test_explain_says_why(backend, case, expected):
    x = pycg.constant(1.0)
    other = pycg.constant(2.0)
    src = pycg.constant(3) if case == "integer" else x
    with pycg.GradientTape(persistent=case != "used") as tape:
        if case != "unwatched":
            tape.watch([x, other])
        if case == "stopped":
            with tape.stop_recording():
                y = x * 2
        elif case == "disconnected":
            y = other * 2
        else:
            y = x * 2
    if case == "used":
        tape.gradient(y, x)
    assert expected in tape.explain(y, src)


# ---- property: a custom rule equal to the true one changes nothing ---------------
@pycg.custom_gradient
def smooth(x, y):
    """sin(x) * y + x^2 with its exact gradient as a custom rule."""
    out = ops.sin(x) * y + x * x

    def grad(g):
        return g * (ops.cos(x) * y + 2 * x), g * ops.sin(x)
    return out, grad


def smooth_plain(x, y):
    return ops.sin(x) * y + x * x


@settings(max_examples=60, deadline=None)
@given(st.floats(-3, 3), st.floats(-3, 3),
       st.sampled_from(["numpy", "tensorflow"]))
def test_true_custom_rule_equals_plain_autodiff(x, y, backend_name):
    with backend_switch.on(backend_name):
        a = pycg.grad(smooth, argnums=(0, 1))(np.float64(x), np.float64(y))
        b = pycg.grad(smooth_plain, argnums=(0, 1))(np.float64(x),
                                                    np.float64(y))
        for u, v in zip(a, b):
            assert np.allclose(u.numpy(), v.numpy(), rtol=1e-12, atol=1e-12)
        ha = pycg.hessian(lambda v: smooth(v[0], v[1]))(np.array([x, y]))
        hb = pycg.hessian(lambda v: smooth_plain(v[0], v[1]))(
            np.array([x, y]))
        assert np.allclose(ha.numpy(), hb.numpy(), rtol=1e-10, atol=1e-10)
