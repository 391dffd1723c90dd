"""Complex inputs and outputs through the bridges get each framework's own
answer, against that framework's autodiff of the same function written
in its own ops: TensorFlow's and PyTorch's gradients are pycg's
(TensorFlow's conjugate convention), JAX's are conjugated at its border
(`jax.grad` of Re(z * z) is 2z there, 2 conj(z) in TensorFlow); forward
mode (jax.jvp, torch.func.jvp) is the directional derivative in all.
TensorFlow's ForwardAccumulator too. (They were None or zeros: the
bridges watched floating inputs only.)"""
import numpy as np
import pytest

import pycg
from pycg import ops

jax = pytest.importorskip("jax")
torch = pytest.importorskip("torch")
tf = pytest.importorskip("tensorflow")
jnp = jax.numpy

Z = np.array([1 + 2j, -0.5 + 0.3j], np.complex128)
W = np.array([0.7 - 1.1j, 2 + 0.5j], np.complex128)
X = np.array([0.3, -1.2])


def _rule(f):
    """f as a custom_gradient rule whose gradient is pycg's own of f."""
    @pycg.custom_gradient
    def ruled(z):
        def grad(g):
            with pycg.GradientTape() as tape:
                tape.watch(z)
                y = f(z)
            return tape.gradient(y, z, output_gradients=g)
        return f(z), grad
    return ruled


# name: (pycg's f, TensorFlow's, PyTorch's, JAX's), each complex -> complex
CASES = {
    "holomorphic z*z": (lambda z: z * z, lambda z: z * z, lambda z: z * z,
                        lambda z: z * z),
    "exp": (ops.exp, tf.exp, torch.exp, jnp.exp),
    "conj(z) * z": (lambda z: ops.conj(z) * z, lambda z: tf.math.conj(z) * z,
                    lambda z: torch.conj(z) * z, lambda z: jnp.conj(z) * z),
    "real(z) * imag(z) (real output)": (
        lambda z: ops.real(z) * ops.imag(z),
        lambda z: tf.math.real(z) * tf.math.imag(z),
        lambda z: torch.real(z) * torch.imag(z),
        lambda z: jnp.real(z) * jnp.imag(z)),
}
WAYS = ["plain", "rule"]


def _as(f, way):
    return f if way == "plain" else _rule(f)


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("name", list(CASES))
def test_tensorflow_tape(name, way):
    pf, tff, _, _ = CASES[name]
    F = pycg.to_tensorflow(_as(pf, way))
    z = tf.constant(Z)

    def loss(y):
        return tf.math.real(tf.reduce_sum(tf.cast(y, tf.complex128) * W))
    with tf.GradientTape() as tape:
        tape.watch(z)
        got = loss(F(z))
    with tf.GradientTape() as own:
        own.watch(z)
        want = loss(tff(z))
    g = tape.gradient(got, z)
    assert g is not None, f"{name}: no gradient of a complex input"
    np.testing.assert_allclose(g.numpy(), own.gradient(want, z).numpy(),
                               rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("name", list(CASES))
def test_torch_backward_and_jvp(name, way):
    pf, _, tof, _ = CASES[name]
    T = pycg.to_torch(_as(pf, way))
    w = torch.tensor(W)

    def grad_of(fn):
        z = torch.tensor(Z, requires_grad=True)
        torch.real(torch.sum(fn(z).to(torch.complex128) * w)).backward()
        return z.grad
    got, want = grad_of(T), grad_of(tof)
    assert got is not None, f"{name}: no gradient of a complex input"
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-12,
                               atol=1e-12)
    t_got = torch.func.jvp(T, (torch.tensor(Z),), (w,))[1]
    t_want = torch.func.jvp(tof, (torch.tensor(Z),), (w,))[1]
    np.testing.assert_allclose(t_got.numpy(), t_want.numpy(), rtol=1e-12,
                               atol=1e-12)


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("name", list(CASES))
def test_jax_grad_and_jvp(name, way):
    pf, _, _, jf = CASES[name]
    J = pycg.to_jax(_as(pf, way))   # (x64: tests/conftest.py)
    z, w = jnp.asarray(Z), jnp.asarray(W)

    def loss(fn):
        return lambda v: jnp.real(jnp.sum(fn(v).astype(jnp.complex128) * w))
    np.testing.assert_allclose(jax.grad(loss(J))(z), jax.grad(loss(jf))(z),
                               rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(jax.jvp(J, (z,), (w,))[1],
                               jax.jvp(jf, (z,), (w,))[1], rtol=1e-12,
                               atol=1e-12)


def test_a_real_input_with_a_complex_output_in_every_framework():
    def pf(x):
        return ops.exp(ops.cast(x, "complex128") * 1j) * (1 + 2j)
    F, T = pycg.to_tensorflow(pf), pycg.to_torch(pf)
    x = tf.constant(X)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.math.real(tf.reduce_sum(F(x) * W))
    with tf.GradientTape() as own:
        own.watch(x)
        y2 = tf.math.real(tf.reduce_sum(
            tf.exp(tf.cast(x, tf.complex128) * 1j) * (1 + 2j) * W))
    want = own.gradient(y2, x).numpy()
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), want, rtol=1e-12)
    xt = torch.tensor(X, requires_grad=True)
    torch.real(torch.sum(T(xt) * torch.tensor(W))).backward()
    np.testing.assert_allclose(xt.grad.numpy(), want, rtol=1e-12)
    J = pycg.to_jax(pf)
    g = jax.grad(lambda v: jnp.real(jnp.sum(J(v) * jnp.asarray(W))))(
        jnp.asarray(X))
    np.testing.assert_allclose(g, want, rtol=1e-12)


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("name", list(CASES))
def test_tensorflow_forward_accumulator(name, way):
    # (TensorFlow warns that a watched primal should be floating, and
    # carries its tangent all the same)
    pf, tff, _, _ = CASES[name]
    F = pycg.to_tensorflow(_as(pf, way))
    z = tf.constant(Z)
    with tf.autodiff.ForwardAccumulator(z, tf.constant(W)) as acc:
        mine, own = F(z), tff(z)
    got, want = acc.jvp(mine), acc.jvp(own)
    assert got is not None and want is not None
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-12,
                               atol=1e-12)
