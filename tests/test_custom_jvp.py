"""pycg.custom_jvp beyond JAX's own tests (tests/test_custom_jvp_jax_port.py):
the rule in both modes on every backend, against closed forms and central
finite differences in float64; several outputs, nested structures, integer
inputs, higher order, control flow inside pycg.function; the linearity
contract and the other errors, each pinned."""
import numpy as np
import pytest

import pycg
from pycg import ops
from pycg.core.recorder import state

pytestmark = pytest.mark.filterwarnings(
    "ignore:pycg.function.*has no graphs:UserWarning")


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


@pycg.custom_jvp
def log1pexp(x):
    return ops.log(1 + ops.exp(x))


@log1pexp.defjvp
def log1pexp_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return log1pexp(x), t * ops.sigmoid(x)


@pycg.custom_jvp
def polar(d, n):
    """{"r": |a| * n, "p": (a * b, b ** 2)} of d = {"a": a, "b": b}; n an
    integer."""
    a, b = d["a"], d["b"]
    return {"r": ops.abs(a) * ops.cast(n, a.dtype), "p": (a * b, b * b)}


@polar.defjvp
def polar_jvp(primals, tangents):
    (d, n), (td, tn) = primals, tangents
    assert tn is None   # (an integer: no tangent)
    a, b = d["a"], d["b"]
    ta, tb = td["a"], td["b"]
    return polar(d, n), {"r": ops.sign(a) * ta * ops.cast(n, a.dtype),
                         "p": (ta * b + a * tb, 2 * b * tb)}


def fd(f, x, t, h=1e-6):
    """The central finite difference of f at x in direction t (float64)."""
    return (f(x + h * t) - f(x - h * t)) / (2 * h)


# ---- both modes, closed forms ---------------------------------------------------
def test_log1pexp_rule_in_both_modes_at_100(backend):
    # (the forward overflows in float32, as log(1 + exp(100)) does: the
    # rule's derivative does not)
    assert float(pycg.jvp(log1pexp, (100.0,), (1.0,))[1]) == 1.0
    assert float(pycg.grad(log1pexp)(100.0)) == 1.0
    x = np.array([-3.0, 0.5, 100.0], np.float64)
    np.testing.assert_allclose(pycg.jacfwd(log1pexp)(x).numpy(),
                               np.diag(sigmoid(x)), rtol=1e-12)
    np.testing.assert_allclose(pycg.jacobian(log1pexp)(x).numpy(),
                               np.diag(sigmoid(x)), rtol=1e-12)


def test_the_rule_inside_a_larger_function(backend):
    f = lambda x: ops.sum(log1pexp(x * x))  # noqa: E731
    x, t = np.array([0.3, -1.2]), np.array([1.0, 2.0])
    want = np.sum(sigmoid(x * x) * 2 * x * t)
    assert float(pycg.jvp(f, (x,), (t,))[1]) == pytest.approx(want, 1e-12)
    np.testing.assert_allclose(pycg.grad(f)(x).numpy(),
                               sigmoid(x * x) * 2 * x, rtol=1e-12)


def test_nested_structures_several_outputs_and_an_integer(backend):
    d = {"a": np.array([-1.5, 2.0]), "b": np.array(0.5)}
    td = {"a": np.array([1.0, 3.0]), "b": np.array(-2.0)}
    n = pycg.constant(3)
    out, tout = pycg.jvp(lambda d: polar(d, n), (d,), (td,))
    np.testing.assert_allclose(tout["r"].numpy(), [-3.0, 9.0])
    np.testing.assert_allclose(tout["p"][0].numpy(), [0.5 + 3.0, 1.5 - 4.0])
    assert float(tout["p"][1]) == pytest.approx(-2.0)
    loss = lambda d: (ops.sum(polar(d, n)["r"]) +  # noqa: E731
                      ops.sum(polar(d, n)["p"][0]) + polar(d, n)["p"][1])
    g = pycg.grad(loss)(d)
    np.testing.assert_allclose(g["a"].numpy(), 3 * np.sign(d["a"]) + 0.5)
    assert float(g["b"]) == pytest.approx(np.sum(d["a"]) + 1.0)


def test_vjp_and_tape_use_the_rule_transposed(backend):
    @pycg.custom_jvp
    def f(x, y):
        return ops.sin(x) * y

    f.defjvps(lambda t, out, x, y: 2 * ops.cos(x) * y * t,   # (2x: the rule)
              lambda t, out, x, y: ops.sin(x) * t)
    x, y = 0.7, np.float64(-1.3)
    _, vjp_fn = pycg.vjp(f, x, y)
    gx, gy = vjp_fn(pycg.constant(2.0))
    assert float(gx) == pytest.approx(2 * 2 * np.cos(x) * y, 1e-6)
    assert float(gy) == pytest.approx(2 * np.sin(x), 1e-6)
    xt = pycg.constant(x)
    with pycg.GradientTape() as tape:
        tape.watch(xt)
        z = f(xt, y)
    assert float(tape.gradient(z, xt)) == pytest.approx(
        2 * np.cos(x) * y, 1e-6)


# ---- higher order ------------------------------------------------------------------
def test_second_derivatives_agree_with_finite_differences(backend):
    f = lambda v: ops.sum(log1pexp(v) * v)  # noqa: E731
    v = np.array([0.3, -1.2, 2.0])
    # d2/dv2 (s(v) v) = 2 sigmoid + v sigmoid (1 - sigmoid), diagonal
    s = sigmoid(v)
    want = np.diag(2 * s + v * s * (1 - s))
    np.testing.assert_allclose(pycg.hessian(f)(v).numpy(), want, rtol=1e-9)
    np.testing.assert_allclose(pycg.jacfwd(pycg.grad(f))(v).numpy(), want,
                               rtol=1e-9)
    t = np.array([1.0, -1.0, 0.5])
    grad_np = lambda u: 2 * 0 + np.log1p(np.exp(u)) + u * sigmoid(u)  # noqa
    np.testing.assert_allclose(
        pycg.jvp(pycg.grad(f), (v,), (t,))[1].numpy(), fd(grad_np, v, t),
        rtol=1e-7)


def test_a_rule_written_with_custom_jvp_functions_has_its_own_derivative(
        backend):
    @pycg.custom_jvp
    def expit(x):
        return 1 / (1 + ops.exp(-x))

    @expit.defjvp
    def expit_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        ans = expit(x)
        return ans, t * ans * (1 - ans)
    x = 0.4
    s = sigmoid(x)
    d3 = s * (1 - s) * (1 - 6 * s + 6 * s * s)   # sigmoid''
    assert float(pycg.grad(pycg.grad(expit))(x)) == pytest.approx(
        s * (1 - s) * (1 - 2 * s), rel=1e-5)
    assert float(pycg.grad(pycg.grad(pycg.grad(expit)))(x)) == \
        pytest.approx(d3, rel=1e-4)


# ---- control flow and pycg.function --------------------------------------------------
def test_inside_cond_while_and_scan_under_function(backend):
    def cond_f(x):
        return ops.cond(x > 0, lambda: log1pexp(x), lambda: log1pexp(-x))

    def while_f(x):
        return ops.while_loop(lambda i, c: i < 3,
                              lambda i, c: (i + 1, log1pexp(c)), (0, x))[1]

    def scan_f(x):
        return ops.scan(lambda c, _: (log1pexp(c), c), x, None, length=3)[0]

    x = pycg.constant(0.6, "float64")
    three = lambda u: np.log1p(np.exp(np.log1p(np.exp(  # noqa: E731
        np.log1p(np.exp(u))))))
    want = fd(three, 0.6, 1.0)
    for f in (while_f, scan_f):
        assert float(pycg.function(pycg.grad(f))(x)) == pytest.approx(
            want, rel=1e-7)
        assert float(pycg.function(lambda x, f=f: pycg.jvp(
            f, (x,), (ops.ones_like(x),))[1])(x)) == pytest.approx(
                want, rel=1e-7)
    assert float(pycg.function(pycg.grad(cond_f))(x)) == pytest.approx(
        sigmoid(0.6))
    assert float(pycg.function(pycg.grad(cond_f))(-x)) == pytest.approx(
        -sigmoid(0.6))


# ---- the linearity contract ----------------------------------------------------------
def _squared():
    @pycg.custom_jvp
    def sq(x):
        return x * x

    @sq.defjvp
    def sq_jvp(primals, tangents):
        return sq(primals[0]), tangents[0] * tangents[0]
    return sq


def _offset():
    @pycg.custom_jvp
    def off(x):
        return x * x

    @off.defjvp
    def off_jvp(primals, tangents):
        return off(primals[0]), 2 * primals[0] * tangents[0] + 1.0
    return off


@pytest.mark.parametrize("make, rule", [(_squared, "sq_jvp"),
                                        (_offset, "off_jvp")])
def test_a_rule_not_linear_in_its_tangents_is_refused_in_reverse_mode(
        backend, make, rule):
    f = make()
    name = rule[:-4]
    pattern = (rf"Custom JVP rule {rule} for function {name} is not linear "
               rf"in its tangents: at tangents of ones")
    for call in (lambda: pycg.grad(f)(3.0),
                 lambda: pycg.vjp(f, 3.0)[1](pycg.constant(1.0)),
                 lambda: pycg.grad(lambda x: f(x) + 0.0)(3.0)):
        with pytest.raises(ValueError, match=pattern):
            call()
        assert not state().active   # (nothing left recording)
    assert float(pycg.grad(log1pexp)(0.0)) == 0.5   # (tapes work after)


def test_forward_mode_of_the_function_itself_calls_the_rule_as_jax(backend):
    # JAX's jvp of a custom_jvp function never transposes: a rule need not
    # be linear there (here t**2 at t = 3 gives 9)
    assert float(pycg.jvp(_squared(), (2.0,), (3.0,))[1]) == 9.0


def test_forward_mode_of_a_larger_function_carries_the_rule_as_jax(backend):
    # pycg.jvp carries tangents: a custom_jvp call inside f gets its rule
    # as it is, linear or not, as in jax.jvp (t**2 + 0 at t = 3: 9;
    # 2 x t + 1 at x = 2, t = 3: 13; then cos, a built-in op's tangent)
    jax = pytest.importorskip("jax")
    for make, x, t in ((_squared, 2.0, 3.0), (_offset, 2.0, 3.0)):
        f, twin = make(), _jax_twin(make)
        want = jax.jvp(lambda y, twin=twin: jax.numpy.cos(twin(y)),
                       (x,), (t,))[1]
        got = pycg.jvp(lambda y, f=f: ops.cos(f(y) + 0.0), (x,), (t,))[1]
        assert float(got) == pytest.approx(float(want), rel=1e-6)


def _jax_twin(make):
    """The rule of `make` written as jax.custom_jvp (the live oracle)."""
    import jax

    @jax.custom_jvp
    def f(x):
        return x * x

    @f.defjvp
    def f_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return f(x), t * t if make is _squared else 2 * x * t + 1.0
    return f


# ---- errors ---------------------------------------------------------------
def test_errors_name_the_function():
    with pytest.raises(TypeError, match="pycg.custom_jvp: expected a "
                       "function, got int"):
        pycg.custom_jvp(3)
    f = pycg.custom_jvp(lambda x: x)
    with pytest.raises(TypeError, match=r"pycg.custom_jvp\(<lambda>\)."
                       r"defjvp: expected a function, got str"):
        f.defjvp("rule")
    g = pycg.custom_jvp(lambda h, x: h(x), nondiff_argnums=(0,))
    with pytest.raises(TypeError, match="Can't use ``defjvps`` with "
                       "``nondiff_argnums``"):
        g.defjvps(None)
    with pytest.raises(ValueError, match=r"nondiff_argnames \['z'\] are not "
                       r"among its parameters \['h', 'x'\]"):
        pycg.custom_jvp(lambda h, x: h(x), nondiff_argnames=("z",))


def test_the_rules_tangent_dtype_is_checked(backend):
    @pycg.custom_jvp
    def f(x):
        return x * 2

    @f.defjvp
    def f_jvp(primals, tangents):
        return f(primals[0]), ops.cast(tangents[0], "float64")
    with pytest.raises(TypeError, match=r"Expected float32\[\] \(tangent "
                       r"type of float32\[\]\) but got float64\[\]"):
        pycg.grad(f)(pycg.constant(1.0))


# ---- the bridges' reverse mode ------------------------------------------
def test_to_jax_and_to_torch_carry_the_rule_in_reverse_mode():
    jax = pytest.importorskip("jax")
    previous = pycg.config.backend()
    try:
        pycg.config.set_backend("jax")
        assert float(jax.grad(pycg.to_jax(log1pexp))(100.0)) == 1.0
    finally:
        pycg.config.set_backend(previous)
    torch = pytest.importorskip("torch")
    try:
        pycg.config.set_backend("torch")
        x = torch.tensor(100.0, requires_grad=True)
        pycg.to_torch(log1pexp)(x).backward()
        assert float(x.grad) == 1.0
    finally:
        pycg.config.set_backend(previous)


def test_the_rules_own_call_reuses_the_forward_in_a_first_order_vjp(backend):
    calls = []

    @pycg.custom_jvp
    def expm1(x):
        calls.append(1)
        return ops.expm1(x)

    @expm1.defjvp
    def expm1_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        y = expm1(x)   # (JAX's idiom: the function on its own primals)
        return y, t * (y + 1)
    assert float(pycg.grad(expm1)(0.5)) == pytest.approx(np.exp(0.5))
    assert len(calls) == 1   # (the forward's output, not computed again)
    calls.clear()
    assert float(pycg.grad(pycg.grad(expm1))(0.5)) == pytest.approx(
        np.exp(0.5))   # (recording: the rule's own call, by its rule)
    assert len(calls) > 1


def test_threads_transposing_rules_at_once_get_their_own_gradients(backend):
    # (each thread's tapes of the rule it transposes are its own:
    # pycg.api._jvp_rule's thread-local stack)
    import threading
    xs = [np.linspace(-2.0, 2.0, 5) + k for k in range(6)]
    got, go = {}, threading.Barrier(len(xs))

    def work(k):
        go.wait()
        for _ in range(5):
            got[k] = pycg.grad(lambda x: ops.sum(log1pexp(x)))(
                pycg.constant(xs[k], "float64")).numpy()

    threads = [threading.Thread(target=work, args=(k,)) for k in range(len(xs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for k, x in enumerate(xs):
        np.testing.assert_allclose(got[k], sigmoid(x), rtol=1e-12)
