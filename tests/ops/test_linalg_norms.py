"""ops.norm's matrix norms made of singular values (ord=2, -2, 'nuc') and
the min forms of 1 and inf (ord=-1, -inf), on every backend: values and
gradients equal to keras.ops.norm's on TensorFlow (TensorFlow's tape is
the gradient's oracle), on the edges where the singular values repeat or
vanish (the identity, a zero matrix), batches over other axes with
keepdims, integers and complex matrices."""
import numpy as np
import pytest

import pycg
from pycg import ops

tf = pytest.importorskip("tensorflow")
keras = pytest.importorskip("keras")

RNG = np.random.default_rng(0)
MATRICES = {
    "general": np.array([[3.0, 1.0], [1.0, 2.0]]),
    "tall": RNG.standard_normal((4, 3)),
    "wide": RNG.standard_normal((2, 3)),
    "identity": np.eye(3),
    "repeated": np.diag([2.0, 2.0, 0.5]),
    "zero": np.zeros((2, 3)),
    "rank one": np.outer([1.0, 2.0], [3.0, -1.0, 0.5]),
}
CASES = [(name, ord) for name in MATRICES for ord in (2, -2, "nuc")] + [
    (name, ord) for name in ("general", "wide") for ord in (-1, -np.inf)]


def _keras(x, **kw):
    """keras.ops.norm's value and TensorFlow's gradient of its sum."""
    t = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(t)
        y = keras.ops.norm(t, **kw)
        total = tf.reduce_sum(tf.math.real(y) if y.dtype.is_complex else y)
    return y.numpy(), tape.gradient(total, t).numpy()


def _pycg(x, **kw):
    t = pycg.constant(x)
    with pycg.GradientTape() as tape:
        tape.watch(t)
        y = ops.norm(t, **kw)
        total = ops.sum(y)
    return y.numpy(), tape.gradient(total, t).numpy()


def _close(got, want):
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name,ord", CASES)
def test_matrix_norms_are_keras_values_and_gradients(backend, name, ord):
    x = MATRICES[name]
    got, want = _pycg(x, ord=ord), _keras(x, ord=ord)
    if name == "rank one" and ord in (-2, "nuc") and backend != "tensorflow":
        # a vanishing singular value: no gradient, and the singular vectors
        # of its null space are LAPACK's choice (TensorFlow's differ from
        # NumPy's and JAX's); the nuclear norm's is still a subgradient,
        # u1 v1^T + W with W orthogonal to u1, v1 and ||W||_2 <= 1
        _close(got[:1], want[:1])
        u, s, vh = np.linalg.svd(x)
        w = got[1] - np.outer(u[:, 0], vh[0]) if ord == "nuc" else None
        if w is not None:
            assert np.linalg.norm(w, 2) <= 1 + 1e-6
            np.testing.assert_allclose(u[:, 0] @ w, 0, atol=1e-6)
            np.testing.assert_allclose(w @ vh[0], 0, atol=1e-6)
        return
    _close(got, want)


@pytest.mark.parametrize("ord", [2, -2, "nuc"], ids=str)
def test_batches_over_other_axes_with_keepdims(backend, ord):
    # (values and shapes against NumPy: keras.ops.norm fails for keepdims
    # with the axes in descending order; the gradient against Keras')
    x = RNG.standard_normal((3, 2, 4))
    for axis in [(0, 2), (2, 0), (-1, 1)]:
        for keepdims in (False, True):
            kw = dict(ord=ord, axis=axis, keepdims=keepdims)
            value, grad = _pycg(x, **kw)
            want = np.linalg.norm(x, **kw)
            assert value.shape == want.shape
            _close((value, grad), (want, _keras(x, ord=ord, axis=axis)[1]))


@pytest.mark.parametrize("ord", [2, -2, "nuc"], ids=str)
def test_a_complex_matrix_is_keras_value_and_tensorflow_gradient(backend,
                                                                 ord):
    x = (RNG.standard_normal((3, 2)) + 1j * RNG.standard_normal((3, 2)))
    value, grad = _pycg(x.astype(np.complex128), ord=ord)
    want_value, want_grad = _keras(x.astype(np.complex128), ord=ord)
    assert value.dtype == np.float64
    _close((value, grad), (want_value, want_grad))


@pytest.mark.parametrize("ord", [2, -2, "nuc"], ids=str)
def test_integers_are_norms_of_floats(backend, ord):
    x = np.array([[3, 1], [1, 2]], np.int32)
    y = ops.norm(pycg.constant(x), ord=ord)
    assert y.dtype == np.dtype(pycg.config.floatx())
    np.testing.assert_allclose(
        y.numpy(), keras.ops.norm(x.astype("float32"), ord=ord).numpy(),
        rtol=1e-6)


def test_the_spectral_norm_gradient_is_central_differences(backend):
    x = RNG.standard_normal((3, 4))
    _, grad = _pycg(x, ord=2)
    eps, numeric = 1e-6, np.zeros_like(x)
    for i in np.ndindex(x.shape):
        step = np.zeros_like(x)
        step[i] = eps
        numeric[i] = (np.linalg.norm(x + step, 2) -
                      np.linalg.norm(x - step, 2)) / (2 * eps)
    np.testing.assert_allclose(grad, numeric, rtol=1e-6, atol=1e-8)


def test_an_unknown_ord_names_the_supported_ones(backend):
    with pytest.raises(ValueError, match=r"pycg.ops.norm: ord=3 over 2 axes "
                       r"is not supported .*matrices: None, 'fro', 'nuc', 1, "
                       r"-1, 2, -2, inf, -inf"):
        ops.norm(pycg.constant(np.eye(2)), ord=3)
