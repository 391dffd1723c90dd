"""Ops that disagreed with keras.ops, now checked against it (Keras on its
TensorFlow backend, gradients from TensorFlow's tape through keras.ops), on
both pycg backends."""
from support import keras_inputs  # noqa: F401  (sets KERAS_BACKEND before keras loads)
import keras
import numpy as np
import pytest
import tensorflow as tf

import pycg
from pycg import ops

RNG = np.random.default_rng(3)
X = RNG.standard_normal(7).astype("float32")
SIG = RNG.standard_normal((2, 32)).astype("float32")
L = np.array([[2.0, 0.7, -0.4], [0.3, 1.5, 0.9], [-0.2, 0.4, 1.2]],
             "float32")   # (both triangles filled: only one is read)


def _tape_grad(fn, *args):
    ts = [tf.constant(a) for a in args]
    with tf.GradientTape() as tape:
        tape.watch(ts)
        y = tf.reduce_sum(fn(*ts))
    return [g.numpy() for g in tape.gradient(y, ts)]


def _close(got, want, rtol=1e-5):
    got = got.numpy() if isinstance(got, pycg.Tensor) else got
    np.testing.assert_allclose(got, np.asarray(want), rtol=rtol, atol=1e-6)


@pytest.mark.parametrize("op, q", [
    ("quantile", [0.3, 0.75]), ("nanquantile", [0.1, 0.5, 0.95]),
    ("percentile", [30.0, 75.0]), ("quantile", 0.4)])
def test_quantile_has_a_gradient_with_respect_to_q(backend, op, q):
    q = np.asarray(q, "float32")
    (want,) = _tape_grad(lambda t: getattr(keras.ops, op)(X, t), q)
    got = pycg.grad(lambda t: ops.sum(getattr(ops, op)(X, t)))(q)
    _close(got, want)
    assert np.any(want != 0)


@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_inverse_reads_one_triangle(backend, upper):
    _close(ops.cholesky_inverse(L, upper=upper),
           keras.ops.cholesky_inverse(L, upper=upper), rtol=1e-4)
    (want,) = _tape_grad(lambda t: keras.ops.cholesky_inverse(t, upper), L)
    got = pycg.grad(lambda t: ops.sum(ops.cholesky_inverse(t, upper)))(L)
    _close(got, want, rtol=1e-4)
    other = np.tril(np.ones((3, 3)), -1) if upper else \
        np.triu(np.ones((3, 3)), 1)
    assert np.all(got.numpy()[other == 1] == 0)


def test_sparse_categorical_crossentropy_rescales_output(backend):
    out = np.array([[0.2, 0.3, 0.1], [0.0, 2.0, 1.0], [0.5, 0.25, 0.25]],
                   "float32")
    target = np.array([1, 2, 0])
    _close(ops.sparse_categorical_crossentropy(target, out),
           keras.ops.sparse_categorical_crossentropy(target, out))
    (want,) = _tape_grad(
        lambda t: keras.ops.sparse_categorical_crossentropy(target, t), out)
    got = pycg.grad(lambda t: ops.sum(
        ops.sparse_categorical_crossentropy(target, t)))(out)
    _close(got, want, rtol=1e-4)


@pytest.mark.parametrize("seq, fft", [(5, 8), (6, 8), (7, 8), (1, 4),
                                      (7, 7)])
@pytest.mark.parametrize("window", [None, "hann", "hamming"])
@pytest.mark.parametrize("center", [True, False])
def test_stft_frames_and_windows_as_keras(backend, seq, fft, window,
                                         center):
    got = ops.stft(SIG, seq, 3, fft, window=window, center=center)
    want = keras.ops.stft(SIG, seq, 3, fft, window=window, center=center)
    for g, w in zip(got, want):
        _close(g, w, rtol=1e-4)


@pytest.mark.parametrize("dtype, complex_dtype", [
    ("float32", "complex64"), ("float64", "complex128")])
def test_eig_is_complex_even_when_every_eigenvalue_is_real(
        backend, dtype, complex_dtype):
    a = np.array([[2.0, 1.0], [0.0, 3.0]], dtype)
    w, v = ops.eig(a)
    kw, kv = keras.ops.eig(a)
    assert w.dtype == v.dtype == np.dtype(complex_dtype) == \
        np.dtype(kw.dtype.as_numpy_dtype)
    _close(np.sort_complex(w.numpy()), np.sort_complex(np.asarray(kw)))


def test_cholesky_upper(backend):
    spd = L @ L.T
    got = ops.cholesky(spd, upper=True)
    _close(got, keras.ops.cholesky(spd, upper=True), rtol=1e-5)
    assert np.all(np.tril(got.numpy(), -1) == 0)


@pytest.mark.parametrize("p", [3, 0.5, -1.0, 0, -np.inf, np.inf, 1, 2, 4.5])
def test_vector_norm_of_any_order(backend, p):
    v = np.array([1.0, -2.0, 0.5, 3.0], "float32")
    _close(ops.norm(v, ord=p), keras.ops.norm(v, ord=p))
    if p not in (0, np.inf, -np.inf):
        (want,) = _tape_grad(lambda t: keras.ops.norm(t, ord=p), v)
        _close(pycg.grad(lambda t: ops.norm(t, ord=p))(v), want, rtol=1e-4)


def test_size_is_an_int32_tensor(backend):
    got = ops.size(np.ones((2, 3)))
    want = keras.ops.size(np.ones((2, 3)))
    assert isinstance(got, pycg.Tensor) and got.dtype == np.int32
    assert want.dtype == tf.int32 and int(got) == int(want) == 6


def test_where_of_a_condition_alone_is_nonzero(backend):
    cond = np.array([[True, False], [False, True]])
    got, want = ops.where(cond), keras.ops.where(cond)
    assert len(got) == len(want) == 2
    for g, w in zip(got, want):
        assert g.dtype == np.int32
        np.testing.assert_array_equal(g.numpy(), np.asarray(w))
    with pytest.raises(ValueError, match=r"pycg.ops.where: pass both x1 and "
                       r"x2, or neither"):
        ops.where(cond, 1.0)
