"""Complex inputs are differentiated with TensorFlow's convention (issue 13
item 7): for a real loss L of z = x + iy the gradient is dL/dx + i dL/dy,
i.e. g * conj(f'(z)) through a holomorphic f. Oracles: closed forms and
TensorFlow's own GradientTape on the same function."""
import numpy as np
import pytest

import pycg
from pycg import ops

tf = pytest.importorskip("tensorflow")
Z = np.array([1 + 2j, 0.5 - 1j, -0.3 + 0.2j], np.complex128)


def _grad(f, z):
    t = pycg.constant(z)
    with pycg.GradientTape() as tape:
        tape.watch(t)
        y = f(ops, t)
    return tape.gradient(y, t)


def _tf_grad(f, z):
    t = tf.constant(z)
    with tf.GradientTape() as tape:
        tape.watch(t)
        y = f(_TF, t)
    return tape.gradient(y, t).numpy()


class _TF:
    """tf under keras.ops names, so one lambda serves both libraries."""
    real, imag, conj = tf.math.real, tf.math.imag, tf.math.conj
    exp, log, sin, cos, sqrt = tf.exp, tf.math.log, tf.sin, tf.cos, tf.sqrt
    square, reciprocal = tf.square, tf.math.reciprocal
    sum, matmul = tf.reduce_sum, tf.matmul


def test_real_of_z_squared_at_1_plus_2j_is_2_minus_4j(backend):
    g = _grad(lambda o, z: o.real(z * z), np.complex128(1 + 2j))
    np.testing.assert_allclose(g.numpy(), 2 - 4j)


def test_abs_squared_has_gradient_2z(backend):
    g = _grad(lambda o, z: o.sum(o.real(z * o.conj(z))), Z)
    np.testing.assert_allclose(g.numpy(), 2 * Z)


def test_imag_has_gradient_1j(backend):
    g = _grad(lambda o, z: o.sum(o.imag(z)), Z)
    np.testing.assert_allclose(g.numpy(), np.full(3, 1j))


FUNCTIONS = {
    "real_mul": lambda o, z: o.sum(o.real(z * z * z)),
    "imag_mul": lambda o, z: o.sum(o.imag(z * z)),
    "exp": lambda o, z: o.sum(o.real(o.exp(z))),
    "log": lambda o, z: o.sum(o.imag(o.log(z))),
    "sin_cos": lambda o, z: o.sum(o.real(o.sin(z) * o.cos(z))),
    "sqrt": lambda o, z: o.sum(o.real(o.sqrt(z))),
    "square": lambda o, z: o.sum(o.imag(o.square(z))),
    "reciprocal": lambda o, z: o.sum(o.real(o.reciprocal(z))),
    "divide": lambda o, z: o.sum(o.real(z / (z + 2.0))),
    "conj": lambda o, z: o.sum(o.imag(o.conj(z) * z * z)),
    "add_sub": lambda o, z: o.sum(o.real((z + z) * (z - 1.0))),
}


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_complex_gradients_match_tensorflow(backend, name):
    f = FUNCTIONS[name]
    np.testing.assert_allclose(_grad(f, Z).numpy(), _tf_grad(f, Z),
                               rtol=1e-10)


def test_complex_matmul_matches_tensorflow(backend):
    a = Z.reshape(1, 3) * np.array([[1.0, 2.0, 3.0]])
    b = (Z[:, None] * np.array([[1.0, -1.0]])).astype(np.complex128)

    tb = pycg.constant(b)
    ta = pycg.constant(a)
    with pycg.GradientTape() as tape:
        tape.watch([ta, tb])
        y = ops.sum(ops.imag(ops.matmul(ta, tb)))
    ga, gb = tape.gradient(y, [ta, tb])
    xa, xb = tf.constant(a), tf.constant(b)
    with tf.GradientTape() as tt:
        tt.watch([xa, xb])
        yt = tf.reduce_sum(tf.math.imag(tf.matmul(xa, xb)))
    ea, eb = tt.gradient(yt, [xa, xb])
    np.testing.assert_allclose(ga.numpy(), ea.numpy())
    np.testing.assert_allclose(gb.numpy(), eb.numpy())


def test_a_complex_variable_is_watched_and_differentiated(backend):
    v = pycg.Variable(np.complex64(1 + 2j))
    with pycg.GradientTape() as tape:
        y = ops.real(v * v)
    g = tape.gradient(y, v)
    assert g.dtype == np.complex64
    np.testing.assert_allclose(g.numpy(), 2 - 4j)


def test_watching_a_complex_tensor_does_not_warn(backend, recwarn):
    z = pycg.constant(1 + 2j)
    with pycg.GradientTape() as tape:
        tape.watch(z)
    assert not [w for w in recwarn if "gradient will be None" in
                str(w.message)]


def test_grad_of_a_complex_argument(backend):
    g = pycg.grad(lambda z: ops.real(z * z))(np.complex128(1 + 2j))
    np.testing.assert_allclose(g.numpy(), 2 - 4j)


def test_a_python_float_beside_a_complex_tensor_stays_complex(backend):
    y = pycg.constant(np.complex64(1 + 2j)) * 0.5
    assert y.dtype == np.complex64
    np.testing.assert_allclose(y.numpy(), 0.5 + 1j)


def test_real_imag_conj_of_real_tensors(backend):
    x = pycg.constant([1.0, -2.0])
    np.testing.assert_allclose(ops.real(x).numpy(), [1.0, -2.0])
    np.testing.assert_allclose(ops.imag(x).numpy(), [0.0, 0.0])
    np.testing.assert_allclose(ops.conj(x).numpy(), [1.0, -2.0])
