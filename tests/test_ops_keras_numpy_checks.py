"""pycg.ops against keras.ops where a plain value table does not fit:
decompositions (unique only up to signs), cases where Keras' TensorFlow
backend departs from NumPy, round trips, transforms, traced runs."""
import keras
import numpy as np
import pytest

import pycg
from support.keras_inputs import (I, IDS, INFS, POS, SQ,
                          SYM, TALL, V, W, X, X3, as_numpy, compare)
from pycg import ops
from support import backend_switch


# ---- where Keras' TensorFlow backend departs from NumPy, NumPy decides ------
# (Keras' numpy and jax backends agree with NumPy in each of these cases)
def test_isclose_treats_equal_infinities_as_close_like_numpy(backend):
    got = ops.isclose(INFS, INFS).numpy()
    np.testing.assert_array_equal(got, np.isclose(INFS, INFS))


def test_vstack_stacks_1d_tensors_as_rows_like_numpy(backend):
    np.testing.assert_array_equal(ops.vstack([V, W]).numpy(),
                                  np.vstack([V, W]))


def test_rot90_twice_in_the_last_plane_matches_numpy(backend):
    np.testing.assert_array_equal(ops.rot90(X3, k=2, axes=(1, 2)).numpy(),
                                  np.rot90(X3, 2, (1, 2)))


def test_array_split_at_indices_matches_numpy(backend):
    for got, want in zip(ops.array_split(X, [1, 3], axis=1),
                         np.array_split(X, [1, 3], axis=1)):
        np.testing.assert_array_equal(got.numpy(), want)


# ---- decompositions: compared where they are unique -------------------------
def _mm(*xs):
    out = xs[0]
    for x in xs[1:]:
        out = out @ x
    return out


@pytest.mark.parametrize("x", [SQ, TALL, TALL.T.copy()])
@pytest.mark.parametrize("full_matrices", [True, False])
def test_svd_reconstructs_and_matches_keras_singular_values(
        backend, x, full_matrices):
    u, s, vh = (t.numpy() for t in ops.svd(x, full_matrices=full_matrices))
    ku, ks, kvh = as_numpy(keras.ops.svd(x, full_matrices=full_matrices))
    assert (u.shape, s.shape, vh.shape) == (ku.shape, ks.shape, kvh.shape)
    np.testing.assert_allclose(s, ks, rtol=1e-5)
    k = s.shape[0]
    np.testing.assert_allclose(_mm(u[:, :k] * s, vh[:k]), x, atol=1e-5)
    np.testing.assert_allclose(u.T @ u, np.eye(u.shape[1]), atol=1e-5)


@pytest.mark.parametrize("mode", ["reduced", "complete"])
def test_qr_reconstructs_with_keras_shapes(backend, mode):
    q, r = (t.numpy() for t in ops.qr(TALL, mode=mode))
    kq, kr = as_numpy(keras.ops.qr(TALL, mode=mode))
    assert (q.shape, r.shape) == (kq.shape, kr.shape)
    np.testing.assert_allclose(q @ r, TALL, atol=1e-5)
    np.testing.assert_allclose(np.abs(r), np.abs(kr), atol=1e-5)
    np.testing.assert_allclose(np.tril(r, -1), 0, atol=1e-6)


def test_eigh_matches_keras_eigenvalues_and_projectors(backend):
    w, v = (t.numpy() for t in ops.eigh(SYM))
    kw, kv = as_numpy(keras.ops.eigh(SYM))
    np.testing.assert_allclose(w, kw, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(v * v, kv * kv, atol=1e-5)
    np.testing.assert_allclose(_mm(v * w, v.T), SYM, atol=1e-4)


def test_eig_matches_keras_eigenvalues(backend):
    w, v = (t.numpy() for t in ops.eig(SQ))
    kw, _ = as_numpy(keras.ops.eig(SQ))
    np.testing.assert_allclose(np.sort_complex(w), np.sort_complex(kw),
                               rtol=1e-5)
    np.testing.assert_allclose(SQ @ v, v * w, atol=1e-4)


def test_argpartition_partitions_around_kth(backend):
    idx = ops.argpartition(X, 2, axis=1).numpy()
    part = np.take_along_axis(X, idx, 1)
    kth = np.sort(X, 1)[:, 2:3]
    assert np.all(part[:, :2] <= kth) and np.all(part[:, 3:] >= kth)
    np.testing.assert_array_equal(part[:, 2:3], kth)


def test_nonzero_and_unique_match_keras(backend):
    compare("nonzero", as_numpy(ops.nonzero(I)),
            as_numpy(keras.ops.nonzero(I)))
    compare("unique", as_numpy(ops.unique(I)), as_numpy(keras.ops.unique(I)))
    flags = dict(return_index=True, return_inverse=True, return_counts=True)
    compare("unique", as_numpy(ops.unique(I, **flags)),
            as_numpy(keras.ops.unique(I, **flags)))


def test_tensor_facts_match_keras(backend):
    x = pycg.constant(X)
    assert ops.is_tensor(x) and not ops.is_tensor(X)
    assert ops.dtype(x) == keras.ops.dtype(X) == "float32"
    assert ops.ndim(x) == 2 and int(ops.size(x)) == 12


def test_view_as_complex_and_back(backend):
    z = ops.view_as_complex(np.stack([X, POS], -1))
    np.testing.assert_allclose(z.numpy(), X + 1j * POS)
    np.testing.assert_allclose(ops.view_as_real(z).numpy(),
                               np.stack([X, POS], -1))


def test_irfft_inverts_rfft(backend):
    re, im = ops.rfft(X)
    np.testing.assert_allclose(ops.irfft((re, im), fft_length=4).numpy(), X,
                               atol=1e-5)


# ---- traced: ops whose output shape does not depend on values run inside
# pycg.function (no NumPy round trip of a symbolic value) --------------------
TRACED = {
    "sort": lambda v: ops.sort(v, axis=0),
    "top_k": lambda v: ops.top_k(v, 2)[0],
    "nanquantile": lambda v: ops.nanquantile(v, [0.2, 0.7], axis=1),
    "svd": lambda v: ops.svd(v)[1],
    "eigh": lambda v: ops.eigh(ops.matmul(v, ops.transpose(v)))[0],
    "lu_factor": lambda v: ops.lu_factor(v[:, :3])[1],
    "rfft": lambda v: ops.rfft(v)[1],
    "istft": lambda v: ops.istft(ops.stft(ops.reshape(v, (-1,)), 4, 2, 4),
                                 4, 2, 4),
    "segment_max": lambda v: ops.segment_max(v, IDS[:3], 3),
    "scatter": lambda v: ops.scatter(np.array([[0], [2]]), v[:2], (3, 4)),
    "histogram": lambda v: ops.histogram(ops.reshape(v, (-1,)))[0],
    "sort-gradient": lambda v: pycg.grad(
        lambda a: ops.sum(ops.sort(a) * ops.arange(4.0)))(v),
}


@pytest.mark.parametrize("name", sorted(TRACED))
def test_runs_traced_inside_pycg_function(name):
    with backend_switch.on("tensorflow"):
        f = TRACED[name]
        x = pycg.constant(X)
        np.testing.assert_allclose(pycg.function(f)(x).numpy(),
                                   f(x).numpy(), rtol=1e-6, atol=1e-6)


def test_i0_second_derivative_at_zero_is_one_half(backend):
    # I0'' = I1' and I1(x) ~ x / 2 near 0 (TensorFlow's own rule gives 1)
    d2 = pycg.grad(pycg.grad(ops.i0))(pycg.constant(0.0))
    assert float(d2) == 0.5


@pytest.mark.parametrize("name", ["real", "imag", "conj", "angle", "isreal"])
def test_complex_parts_match_keras(backend, name):
    z = np.array([1 + 2j, -3 - 0.5j, 2 + 0j], "complex64")
    got = as_numpy(getattr(ops, name)(z))
    want = as_numpy(getattr(keras.ops, name)(z))
    np.testing.assert_allclose(got, want, rtol=1e-6)


@pytest.mark.parametrize("mode", ["reflect", "symmetric"])
def test_pad_modes_match_keras_and_differentiate(backend, mode):
    # keras.ops.pad on the TF backend has reflect and symmetric (tf.pad)
    x = np.arange(12.0).reshape(3, 4)
    widths = ((1, 2), (2, 1))
    got = ops.pad(pycg.constant(x), widths, mode=mode).numpy()
    np.testing.assert_array_equal(got, keras.ops.convert_to_numpy(
        keras.ops.pad(x, widths, mode=mode)))
    pycg.check_gradients(lambda t: ops.pad(t, widths, mode=mode), x)


@pytest.mark.parametrize("mode", ["edge", "wrap"])
def test_pad_modes_match_numpy(backend, mode):
    x = np.arange(6.0).reshape(2, 3)
    got = ops.pad(pycg.constant(x), ((1, 1), (2, 0)), mode=mode).numpy()
    np.testing.assert_array_equal(got, np.pad(x, ((1, 1), (2, 0)), mode=mode))
