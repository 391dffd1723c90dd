"""Bool and complex inputs where TensorFlow has no kernel: both backends
give NumPy's answer (complex numbers in NumPy's order: by real part, then
imaginary part, NaN last; bools as NumPy reads them), or the same pycg
error naming the op. Oracles: NumPy itself, and scipy.special where NumPy
has no such function."""
import math

import numpy as np
import pytest
import scipy.special

import pycg
from pycg import ops

NAN = complex(math.nan, 0)
Z = np.array([[1 + 2j, 1 - 1j, -3 + 0j, 1 + 2j],
              [2 + 0j, 2 + 5j, 2 - 5j, -1 - 1j],
              [0j, 4 + 1j, 4 + 1j, 4 + 0j]], np.complex64)
W = np.array([[1 + 1j, 1 - 1j, -3 + 1j, 2 + 2j],
              [2 + 0j, 2 + 6j, 1 - 5j, -1 - 1j],
              [0j, 4 + 1j, 5 + 1j, 3 + 0j]], np.complex64)
ZNAN = np.array([[1 + 2j, NAN, 3 + 0j], [complex(1, math.nan), 1 + 0j,
                                         -1 + 0j]], np.complex64)
B = np.array([[True, False], [True, True]])


def same(got, want):
    got = np.asarray(got.numpy() if hasattr(got, "numpy") else got)
    assert got.shape == np.shape(want)
    np.testing.assert_allclose(got.astype(complex),
                               np.asarray(want).astype(complex), rtol=1e-5,
                               atol=1e-6, equal_nan=True)


@pytest.mark.parametrize("name", ["greater", "greater_equal", "less",
                                  "less_equal", "maximum", "minimum"])
@pytest.mark.parametrize("pair", ["plain", "nan"])
def test_complex_comparisons_follow_numpy_order(backend, name, pair):
    a, b = (Z, W) if pair == "plain" else (ZNAN, ZNAN[:, ::-1].copy())
    same(getattr(ops, name)(a, b), getattr(np, name)(a, b))


@pytest.mark.parametrize("name", ["fmax", "fmin"])
def test_complex_fmax_and_fmin_skip_nan_as_numpy(backend, name):
    same(getattr(ops, name)(ZNAN, ZNAN[:, ::-1].copy()),
         getattr(np, name)(ZNAN, ZNAN[:, ::-1]))


def test_complex_clip_is_numpy_clip(backend):
    same(ops.clip(Z, 1 + 0j, 2 + 1j), np.clip(Z, 1 + 0j, 2 + 1j))


@pytest.mark.parametrize("axis, keepdims", [
    (None, False), (0, False), (1, True), (-1, False), ((0, 1), True)])
@pytest.mark.parametrize("name", ["max", "min", "ptp"])
def test_complex_max_min_and_ptp_are_numpys(backend, name, axis, keepdims):
    for x in (Z, ZNAN):
        same(getattr(ops, name)(x, axis=axis, keepdims=keepdims),
             getattr(np, name)(x, axis=axis, keepdims=keepdims))


@pytest.mark.parametrize("axis", [None, 0, 1])
@pytest.mark.parametrize("name", ["argmax", "argmin"])
def test_complex_arg_extrema_are_numpys(backend, name, axis):
    for x in (Z, ZNAN):
        same(getattr(ops, name)(x, axis=axis), getattr(np, name)(x, axis))


def test_complex_nan_extrema_skip_nan_as_numpy(backend):
    same(ops.nanmax(ZNAN, axis=1), np.nanmax(ZNAN, axis=1))
    same(ops.nanargmin(ZNAN, axis=1), np.nanargmin(ZNAN, axis=1))


@pytest.mark.parametrize("axis", [0, 1, None])
def test_complex_sort_and_argsort_are_numpys(backend, axis):
    for x in (Z, ZNAN):
        same(ops.sort(x, axis=axis), np.sort(x, axis=axis))
        same(ops.argsort(x, axis=axis), np.argsort(x, axis=axis,
                                                   kind="stable"))


def test_complex_isinf_and_round_work_by_parts(backend):
    x = np.array([complex(1.26, math.inf), complex(-math.inf, 0), 2.55 - 1.44j],
                 np.complex64)
    same(ops.isinf(x), np.isinf(x))
    same(ops.round(Z * 1.37), np.round(Z * 1.37))
    same(ops.round(Z * 1.37, 1), np.round(Z * 1.37, 1))


def test_complex_softmax_and_logsumexp_are_scipys(backend):
    same(ops.softmax(Z), scipy.special.softmax(Z, axis=-1))
    same(ops.logsumexp(Z, axis=1), scipy.special.logsumexp(Z, axis=1))
    # (log_softmax: up to the branch of log, which SciPy does not fix)
    same(ops.exp(ops.log_softmax(Z)), scipy.special.softmax(Z, axis=-1))
    same(ops.log_softmax(Z), Z - scipy.special.logsumexp(Z, axis=-1,
                                                        keepdims=True))


def test_complex_slogdet_has_numpys_real_log_determinant(backend):
    sign, logdet = ops.slogdet(Z[:, :3])
    want_sign, want_logdet = np.linalg.slogdet(Z[:, :3])
    same(sign, want_sign)
    same(logdet, want_logdet)
    assert logdet.dtype == want_logdet.dtype


@pytest.mark.parametrize("name", ["bitwise_invert", "bitwise_not", "conj",
                                  "real", "imag", "round"])
def test_bools_as_numpy_reads_them(backend, name):
    got = getattr(ops, name)(B)
    want = getattr(np, {"bitwise_not": "invert", "bitwise_invert":
                        "invert"}.get(name, name))(B)
    same(got, want)
    assert got.dtype == want.dtype


@pytest.mark.parametrize("name", ["det", "inv"])
def test_matrix_functions_of_bools_compute_in_float64(backend, name):
    got = getattr(ops, name)(B)
    want = getattr(np.linalg, name)(B)
    same(got, want)
    assert got.dtype == want.dtype == np.float64


def test_view_as_real_of_bools_is_the_bools_and_false(backend):
    same(ops.view_as_real(B), np.stack([B.real, B.imag], -1))


@pytest.mark.parametrize("start, stop, step", [
    (-1, None, 1), (5, 2, 1), (2, 5, -1), (True, None, 1), (0, True, 1)])
def test_arange_with_no_values_or_bools_is_numpys(backend, start, stop,
                                                  step):
    want = np.arange(start, step=step) if stop is None else \
        np.arange(start, stop, step)
    got = ops.arange(start, stop, step)
    same(got, want)


def test_full_fills_as_numpy(backend):
    same(ops.full((2, 2), 10**30, "float32"), np.full((2, 2), 1e30,
                                                      np.float32))
    same(ops.full((2, 3), 2.5, "int32"), np.full((2, 3), 2.5, np.int32))
    same(ops.full_like(np.zeros((2, 2), np.float32), [1.0, 2.0]),
         np.full_like(np.zeros((2, 2), np.float32), [1.0, 2.0]))
    same(ops.full_like(B, np.eye(2, dtype=np.float32)),
         np.full_like(B, np.eye(2)))


@pytest.mark.parametrize("a", [
    [[4, 1 - 2j], [1 + 2j, 6]], [[4 + 3j, 0], [1 + 2j, 6 - 1j]]])
def test_complex_cholesky_is_numpys(backend, a):
    a = np.array(a, np.complex64)   # (the lower triangle, a real diagonal)
    same(ops.cholesky(a), np.linalg.cholesky(a))


def test_rfft_of_no_points_answers_as_keras(backend):
    import keras
    re, im = ops.rfft(np.zeros((0,), np.float32))
    k_re, k_im = keras.ops.rfft(np.zeros((0,), np.float32))
    same(re, np.asarray(k_re))
    same(im, np.asarray(k_im))


@pytest.mark.parametrize("call, message", [
    (lambda: ops.full((2,), None), "pycg.ops.full: fill_value is None"),
    (lambda: ops.arange(None), "pycg.ops.arange: start, stop and step must "
     "be numbers, got None"),
    (lambda: ops.one_hot([0, 1], -1), "pycg.ops.one_hot: num_classes must be "
     "0 or more, got -1"),
    (lambda: ops.cast(np.ones(2), []), "pycg.ops.cast: dtype [] is not a "
     "dtype"),
    (lambda: ops.view_as_complex(B), "pycg.ops.view_as_complex: expected a "
     "float tensor whose last axis holds (real, imaginary), got bool"),
    (lambda: ops.view_as_complex(Z[:, :2]), "pycg.ops.view_as_complex: "
     "expected a float tensor whose last axis holds (real, imaginary), got "
     "complex64"),
    (lambda: ops.cholesky(np.array([[1 + 2j, 2], [3, 4 - 1j]], np.complex64)),
     "pycg.ops.cholesky: "),   # (not positive definite)
    (lambda: ops.cholesky(np.array([[1.0, 2.0], [3.0, -4.0]], np.float32)),
     "pycg.ops.cholesky: "),   # (TensorFlow's CPU kernel: NaN)
])
def test_what_has_no_answer_is_the_same_pycg_error_on_both(backend, call,
                                                           message):
    with pytest.raises(Exception) as caught:
        call()
    assert str(caught.value).startswith(message)


def test_complex_comparisons_keep_the_tape_right(backend):
    x = pycg.constant([1.0, 2.0])
    with pycg.GradientTape() as tape:
        tape.watch(x)
        ops.maximum(pycg.constant(Z), pycg.constant(W))
        y = ops.sum(x * x)
    same(tape.gradient(y, x), [2.0, 4.0])
