"""pycg.to_jax in JAX's forward mode (issue 46): a pycg.custom_gradient
rule through pycg.to_jax under jax.jvp, jax.linearize, jax.jacfwd and
jax.hessian, with first and second derivatives the rule's own (closed
forms; central differences in float64 of the closed-form gradient), and
reverse mode (jax.grad, under jit, vmap and scan) still the rule's; outputs
under vmap batched as jax.custom_jvp's with the same rule (the live
oracle)."""
import numpy as np
import pytest

import pycg
from pycg import ops

jax = pytest.importorskip("jax")
jnp = jax.numpy


@pytest.fixture(autouse=True, params=["numpy", "jax"])
def jax_backend(request):
    # (pycg's own backend around the call: to_jax runs f on the jax
    # backend either way)
    previous = pycg.config.backend()
    pycg.config.set_backend(request.param)
    try:
        yield
    finally:
        pycg.config.set_backend(previous)


@pycg.custom_gradient
def log1pexp(x):
    e = ops.exp(x)

    def grad(upstream):
        return upstream * (1 - 1 / (1 + e))
    return ops.log(1 + e), grad


@pycg.custom_gradient
def clipped_square(x):
    """x**2 whose rule clips the gradient to [-1, 1] (the README's rule:
    not linear in the upstream gradient)."""
    return x * x, lambda g: ops.clip(2.0 * x * g, -1.0, 1.0)


@pycg.custom_gradient
def cube_rule(x):
    """x**3 whose rule says the derivative is sin(x) (so the rule's second
    derivative is cos(x), not 6x)."""
    return x * x * x, lambda g: g * ops.sin(x)


@pycg.custom_gradient
def square_rule_x(x):
    """x**2 whose rule says the derivative is x (not 2x)."""
    return x * x, lambda g: g * x


def sigmoid(x):
    return 1 / (1 + np.exp(-np.asarray(x, np.float64)))


POINTS = np.array([-2.0, -0.3, 0.0, 0.7, 3.0], np.float32)


def test_jvp_is_the_rule_s_derivative_not_the_forward_s():
    y, t = jax.jvp(pycg.to_jax(square_rule_x), (3.0,), (1.0,))
    assert float(y) == 9.0 and float(t) == 3.0


def test_jvp_of_log1pexp_at_100_in_float32_is_one_not_nan():
    y, t = jax.jvp(pycg.to_jax(log1pexp), (jnp.float32(100.0),),
                   (jnp.float32(1.0),))
    assert float(t) == 1.0


def test_jvp_matches_the_closed_form_along_a_tangent():
    t = np.array([1.0, -2.0, 0.5, 3.0, 1.0], np.float32)
    _, got = jax.jvp(pycg.to_jax(log1pexp), (POINTS,), (t,))
    np.testing.assert_allclose(got, sigmoid(POINTS) * t, rtol=1e-6)


def test_linearize_gives_the_rule_s_tangent_map():
    _, lin = jax.linearize(pycg.to_jax(square_rule_x), 3.0)
    assert float(lin(2.0)) == 6.0


def test_jacfwd_equals_jacrev_and_the_closed_form():
    f = pycg.to_jax(log1pexp)
    fwd, rev = jax.jacfwd(f)(POINTS), jax.jacrev(f)(POINTS)
    np.testing.assert_allclose(fwd, np.diag(sigmoid(POINTS)), rtol=1e-6)
    np.testing.assert_allclose(fwd, rev, rtol=1e-6)


def test_hessian_is_the_rule_s_second_derivative():
    # (the rule's derivative is x, so its second derivative is 1: f's own
    # ops would say 2)
    assert float(jax.hessian(pycg.to_jax(square_rule_x))(3.0)) == 1.0


def test_hessian_of_log1pexp_matches_central_differences_in_float64():
    h = jax.hessian(lambda v: pycg.to_jax(log1pexp)(v).sum())(POINTS)
    eps, x = 1e-5, POINTS.astype(np.float64)
    fd = (sigmoid(x + eps) - sigmoid(x - eps)) / (2 * eps)
    np.testing.assert_allclose(np.diag(h), fd, rtol=1e-5, atol=1e-7)
    np.testing.assert_array_equal(h - np.diag(np.diag(h)), 0)


def test_forward_over_reverse_equals_reverse_over_reverse():
    f = pycg.to_jax(log1pexp)
    x = jnp.float32(0.7)
    fwd_rev = jax.jacfwd(jax.grad(f))(x)
    rev_rev = jax.grad(jax.grad(f))(x)
    np.testing.assert_allclose(fwd_rev, rev_rev, rtol=1e-6)
    s = sigmoid(0.7)
    np.testing.assert_allclose(fwd_rev, s * (1 - s), rtol=1e-5)


def test_grad_still_runs_the_rule_eagerly_jitted_vmapped_and_scanned():
    f = pycg.to_jax(log1pexp)
    big = jnp.float32(100.0)
    assert float(jax.grad(f)(big)) == 1.0
    assert float(jax.jit(jax.grad(f))(big)) == 1.0
    np.testing.assert_array_equal(
        jax.vmap(jax.grad(f))(jnp.full(3, 100.0, jnp.float32)), 1.0)

    def body(carry, x):
        return carry + f(x), None
    g = jax.grad(lambda xs: jax.lax.scan(body, 0.0, xs)[0])(
        jnp.array([100.0, 0.0], jnp.float32))
    np.testing.assert_allclose(g, [1.0, 0.5], rtol=1e-6)


def test_jit_of_jvp_and_of_hessian():
    f = pycg.to_jax(square_rule_x)
    _, t = jax.jit(lambda x, t: jax.jvp(f, (x,), (t,)))(3.0, 2.0)
    assert float(t) == 6.0
    assert float(jax.jit(jax.hessian(f))(3.0)) == 1.0


def test_two_inputs_and_an_integer_one_under_jvp():
    @pycg.custom_gradient
    def scaled(x, y, n):
        return x * y * ops.cast(n, x.dtype), \
            lambda g: (g * y * 2.0, g * x * 2.0, None)
    f = pycg.to_jax(scaled)
    _, t = jax.jvp(lambda x, y: f(x, y, 3), (2.0, 5.0), (1.0, 10.0))
    # the rule: d/dx = 2y, d/dy = 2x (not the forward's 3y, 3x)
    assert float(t) == 2.0 * 5.0 * 1.0 + 2.0 * 2.0 * 10.0


def test_nested_outputs_carry_their_tangents():
    @pycg.custom_gradient
    def pair(x):
        return (x * 2.0, {"b": x * x}), \
            lambda g1, g2: 2.0 * g1 + 2.0 * x * g2
    f = pycg.to_jax(pair)
    _, (t1, t2) = jax.jvp(f, (3.0,), (1.0,))
    assert float(t1) == 2.0 and float(t2["b"]) == 6.0


# (forwards returning a constant, the input, and a mixture, each with the
# rule 3 g: under vmap of grad and grad of vmap as jax.custom_jvp with the
# same rule, and 3 per element)
FORWARDS = {
    "constant": (lambda x: np.zeros(x.shape, x.dtype),
                 lambda x: jnp.zeros(x.shape, x.dtype)),
    "input": (lambda x: x * 1.0, lambda x: x * 1.0),
    "mixture": (lambda x: x * 2.0 + np.ones(x.shape, x.dtype),
                lambda x: x * 2.0 + jnp.ones(x.shape, x.dtype)),
}


@pytest.mark.parametrize("kind", sorted(FORWARDS))
def test_outputs_under_vmap_are_batched_as_jax_custom_jvp(kind):
    pycg_forward, jax_forward = FORWARDS[kind]

    @pycg.custom_gradient
    def rule(x):
        return pycg_forward(x), lambda g: 3 * g
    ours = pycg.to_jax(rule)
    oracle = jax.custom_jvp(jax_forward)
    oracle.defjvp(lambda p, t: (jax_forward(*p), 3 * t[0]))
    reverse = jax.custom_vjp(jax_forward)
    reverse.defvjp(lambda x: (jax_forward(x), None), lambda _, g: (3 * g,))
    xs = jnp.arange(3.0)
    for transform in (
            lambda f: jax.grad(lambda v: jax.vmap(f)(v).sum()),
            lambda f: jax.vmap(jax.grad(f))):
        got = transform(ours)(xs)
        np.testing.assert_array_equal(got, transform(oracle)(xs))
        if kind != "constant":
            # (jax.custom_vjp itself, JAX 0.10.2, leaves a constant output
            # unbatched under vmap and hands its rule the cotangent summed
            # over the batch: 9 per element under grad of vmap; the
            # custom_jvp oracle and the per-element rule give 3)
            np.testing.assert_array_equal(got, transform(reverse)(xs))
        np.testing.assert_array_equal(got, [3.0, 3.0, 3.0])
    # forward mode under vmap: the rule's 3 t per element
    np.testing.assert_array_equal(
        jax.vmap(lambda x: jax.jvp(ours, (x,), (1.0,))[1])(xs), [3.0] * 3)


def test_grad_runs_a_clipping_rule_exactly():
    f = pycg.to_jax(clipped_square)
    # 2x g = 6 at x = 3, g = 1: clipped to 1; at x = 0.1: 0.2, inside
    assert float(jax.grad(f)(3.0)) == 1.0
    assert float(jax.jit(jax.grad(f))(3.0)) == 1.0
    np.testing.assert_allclose(
        jax.vmap(jax.grad(f))(jnp.array([0.1, 3.0, -3.0])),
        [0.2, 1.0, -1.0], rtol=1e-6)
    # (the cotangent 0.1 is the rule's g: 2 * 3 * 0.1 = 0.6, not clipped)
    np.testing.assert_allclose(jax.vjp(f, 3.0)[1](0.1)[0], 0.6, rtol=1e-6)


def test_jvp_of_a_clipping_rule_is_its_linearisation_at_zero_gradient():
    # A rule not linear in g defines no single Jacobian; forward mode
    # (pycg.jvp, transposing the rule's VJP) takes its derivative in g at
    # g = 0, where clip is the identity: J = 2x, so J t = 6 t at x = 3
    # (reverse mode, above, runs the rule itself and clips).
    f = pycg.to_jax(clipped_square)
    for t in (1.0, 0.1, -2.0):
        assert float(jax.jvp(f, (3.0,), (t,))[1]) == pytest.approx(6.0 * t)


@pytest.mark.parametrize("x", [-1.3, 0.4, 2.0])
def test_hessian_is_the_rule_s_own_second_derivative(x):
    # jacfwd(jacrev): jacrev runs the rule g sin(x), jacfwd differentiates
    # the rule's ops: cos(x); also against central differences in float64
    # of the rule's first derivative sin
    f = pycg.to_jax(cube_rule)
    x32 = jnp.float32(x)
    eps = 1e-6
    fd = (np.sin(x + eps) - np.sin(x - eps)) / (2 * eps)
    for h in (jax.hessian(f)(x32), jax.jacfwd(jax.grad(f))(x32),
              jax.grad(jax.grad(f))(x32), jax.jacrev(jax.jacrev(f))(x32),
              jax.jit(jax.hessian(f))(x32)):
        np.testing.assert_allclose(h, np.cos(x), rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(h, fd, rtol=1e-5, atol=1e-6)


def test_hessian_of_two_inputs_matches_central_differences_in_float64():
    @pycg.custom_gradient
    def product(x, y):
        # rule: d/dx = y**2, d/dy = x y (not the forward's y, x)
        return x * y, lambda g: (g * y * y, g * x * y)
    f = pycg.to_jax(product)
    p = (jnp.float32(1.5), jnp.float32(-0.5))
    got = np.asarray(jax.hessian(f, argnums=(0, 1))(*p))

    def rule_grad(x, y):
        return np.array([y * y, x * y])
    eps, x0 = 1e-6, np.array([1.5, -0.5])
    fd = np.stack([(rule_grad(*(x0 + eps * e)) - rule_grad(*(x0 - eps * e)))
                   / (2 * eps) for e in np.eye(2)], axis=1)
    np.testing.assert_allclose(got, fd, rtol=1e-5, atol=1e-6)


def test_jvp_under_vmap_jit_and_scan():
    f = pycg.to_jax(square_rule_x)
    xs = jnp.array([1.0, -2.0, 3.0])
    # the rule's derivative is x
    np.testing.assert_allclose(
        jax.vmap(lambda x: jax.jvp(f, (x,), (2.0,))[1])(xs), 2.0 * xs)
    np.testing.assert_allclose(
        jax.jit(jax.vmap(lambda x: jax.jvp(f, (x,), (2.0,))[1]))(xs),
        2.0 * xs)

    def body(carry, x):
        return carry + f(x), None
    _, t = jax.jvp(lambda v: jax.lax.scan(body, 0.0, v)[0], (xs,),
                   (jnp.ones(3),))
    np.testing.assert_allclose(t, float(xs.sum()), rtol=1e-6)
    np.testing.assert_allclose(jax.jacfwd(jax.vmap(f))(xs), np.diag(xs))
