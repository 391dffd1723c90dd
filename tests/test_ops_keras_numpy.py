"""The NumPy-namespace, math and linalg ops of pycg.ops against keras.ops
itself (Keras on its TensorFlow backend), on both pycg backends: the same
inputs and keyword arguments, the same values."""
import os

os.environ["KERAS_BACKEND"] = "tensorflow"

import keras  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import pycg  # noqa: E402
from pycg import ops  # noqa: E402

RNG = np.random.default_rng(7)
X = RNG.standard_normal((3, 4)).astype("float32")
V = RNG.standard_normal(5).astype("float32")
W = RNG.standard_normal(5).astype("float32")
X3 = RNG.standard_normal((2, 3, 4)).astype("float32")
SQ = (RNG.standard_normal((3, 3)) + 3 * np.eye(3)).astype("float32")
SYM = (SQ + SQ.T).astype("float32")
SPD = (SQ @ SQ.T).astype("float32")
TALL = RNG.standard_normal((4, 3)).astype("float32")
POS = RNG.uniform(0.5, 2.0, (3, 4)).astype("float32")
UNIT = RNG.uniform(-0.9, 0.9, (3, 4)).astype("float32")
BIG = RNG.uniform(1.1, 3.0, (3, 4)).astype("float32")
NANS = np.array([[1.0, np.nan, 3.0, -2.0], [np.nan, np.nan, 0.5, 4.0],
                 [2.0, 1.0, np.inf, -np.inf]], "float32")
INFS = np.array([1.0, np.inf, -np.inf, np.nan, 0.0, -0.0], "float32")
I = np.array([[3, 0, 2, 5], [1, 1, 4, 0], [6, 2, 0, 3]], "int32")
J = np.array([[1, 2, 3, 4], [4, 3, 2, 1], [2, 2, 2, 2]], "int32")
B = I > 1
IDS = np.array([0, 0, 2, 1, 2], "int32")
TIES = np.array([[1.0, 3.0, 3.0, 0.0], [2.0, 2.0, 2.0, 2.0]], "float32")
SIG = RNG.standard_normal(32).astype("float32")


def c(name, *args, **kwargs):
    return pytest.param(name, args, kwargs, id=f"{name}-{len(args)}-" +
                        ",".join(sorted(kwargs)))


CASES = [
    # logic
    c("any", B), c("any", B, axis=1, keepdims=True), c("any", X, axis=0),
    c("all", B), c("all", B, axis=0), c("all", X > -5, axis=1, keepdims=True),
    c("count_nonzero", I), c("count_nonzero", I, axis=1),
    c("count_nonzero", I, axis=(0, 1)),
    c("isinf", INFS), c("isneginf", INFS), c("isposinf", INFS),
    c("signbit", INFS),
    c("isclose", X, X + 1e-6), c("isclose", X, X + 1e-3, rtol=1e-2),
    c("isclose", NANS[:2], NANS[:2], equal_nan=True),
    c("isclose", X, X + 1e-3, atol=1e-2, rtol=0.0),
    c("allclose", X, X + 1e-6), c("allclose", X, X + 1e-2),
    c("allclose", V, V, equal_nan=True),
    c("isin", I, np.array([0, 2, 6], "int32")),
    c("isin", I, np.array([0, 2, 6], "int32"), invert=True),
    c("logical_xor", B, I > 2), c("logical_xor", X, I),
    c("bitwise_and", I, J), c("bitwise_or", I, J), c("bitwise_xor", I, J),
    c("bitwise_invert", I), c("bitwise_not", I),
    c("left_shift", I, J), c("right_shift", I, J),
    c("bitwise_left_shift", I, J), c("bitwise_right_shift", I, J),
    c("gcd", I, J), c("lcm", I, J), c("nextafter", X, POS),
    c("isreal", X), c("ndim", X3),
    # elementwise maths
    c("absolute", X), c("fabs", X), c("arccosh", BIG), c("arcsinh", X),
    c("arctanh", UNIT), c("cbrt", X), c("exp2", X), c("erfc", X),
    c("erfinv", UNIT), c("i0", X), c("trunc", X * 3), c("trunc", I),
    c("deg2rad", X), c("rad2deg", X), c("sinc", np.append(V, 0.0)),
    c("hypot", X, POS), c("fmax", NANS, X), c("fmin", NANS, X),
    c("fmod", X * 5, POS), c("fmod", I - 3, J), c("heaviside", X, POS),
    c("heaviside", np.array([-1.0, 0.0, 2.0], "float32"),
      np.array(0.5, "float32")),
    c("ldexp", X, J), c("logaddexp2", X, POS), c("divide_no_nan", X, I),
    c("nan_to_num", INFS), c("nan_to_num", INFS, nan=1.0, posinf=9.0,
                             neginf=-9.0),
    c("copy", X), c("real", X), c("imag", X), c("conj", X),
    c("conjugate", X), c("angle", X),
    # sorting and order statistics
    c("sort", X), c("sort", X, axis=0), c("sort", I), c("argsort", X),
    c("argsort", TIES), c("argsort", X, axis=0), c("top_k", X, 2),
    c("top_k", TIES, 3), c("top_k", X, 2, sorted=True),
    c("in_top_k", np.array([0, 3, 1], "int32"), X, 2),
    c("median", X), c("median", X, axis=1), c("median", X3, axis=(0, 2)),
    c("median", X, axis=0, keepdims=True),
    c("quantile", X, 0.3), c("quantile", X, [0.1, 0.5, 0.9], axis=1),
    c("quantile", X, 0.3, method="lower"),
    c("quantile", X, 0.3, method="higher"),
    c("quantile", X, 0.5, method="midpoint"),
    c("quantile", X, 0.4, method="nearest"),
    c("quantile", X, 0.3, axis=0, keepdims=True),
    c("percentile", X, 30.0), c("percentile", X, [10.0, 90.0], axis=0),
    c("nanmedian", NANS[:2]), c("nanmedian", NANS[:2], axis=1),
    c("nanquantile", NANS[:2], 0.25, axis=1),
    c("nanpercentile", NANS[:2], 75.0),
    c("searchsorted", np.sort(V), W),
    c("searchsorted", np.sort(V), W, side="right"),
    c("digitize", X, np.array([-1.0, 0.0, 1.0], "float32")),
    c("bincount", np.array([0, 1, 1, 3], "int32")),
    c("bincount", np.array([0, 1, 1, 3], "int32"), minlength=6),
    c("bincount", np.array([0, 1, 1, 3], "int32"),
      weights=np.array([0.5, 1.0, 2.0, 3.0], "float32")),
    c("histogram", V), c("histogram", V, bins=4, range=(-1.0, 1.0)),
    # reductions and scans
    c("amax", X), c("amax", X, axis=1), c("amin", X, axis=0, keepdims=True),
    c("ptp", X), c("ptp", X, axis=1, keepdims=True),
    c("cumprod", X), c("cumprod", X, axis=1), c("cumprod", I, axis=0),
    c("average", X), c("average", X, axis=1),
    c("average", X, axis=1, weights=np.array([1.0, 2.0, 3.0, 4.0],
                                             "float32")),
    c("average", X, weights=POS),
    c("nansum", NANS[:2]), c("nansum", NANS[:2], axis=1, keepdims=True),
    c("nanprod", NANS[:2], axis=0), c("nanmean", NANS[:2]),
    c("nanmean", NANS[:2], axis=1), c("nanvar", NANS[:2], axis=1),
    c("nanstd", NANS[:2]), c("nanmax", NANS[:2], axis=1),
    c("nanmin", NANS[:2]), c("nanmin", NANS[:2], axis=0, keepdims=True),
    c("nanargmax", NANS[:2], axis=1), c("nanargmin", NANS[:2]),
    c("nancumsum", NANS[:2], axis=1), c("nancumprod", NANS[:2]),
    c("diff", X), c("diff", X, n=2), c("diff", X, axis=0),
    c("trapezoid", X), c("trapezoid", X, dx=0.5, axis=0),
    c("trapezoid", V, x=np.cumsum(np.abs(W))),
    c("corrcoef", X), c("correlate", V, W[:3]),
    c("correlate", V, W[:3], mode="same"),
    c("correlate", V, W[:3], mode="full"),
    # diagonals, triangles, moves, stacking
    c("diag", V), c("diag", V, k=1), c("diag", X), c("diag", X, k=-1),
    c("diagflat", X[:2, :2]), c("diagonal", X), c("diagonal", X, offset=1),
    c("diagonal", X3, offset=0, axis1=1, axis2=2), c("trace", X),
    c("trace", X3, offset=1, axis1=1, axis2=2),
    c("tril", X), c("tril", X, k=1), c("triu", X), c("triu", X3, k=-1),
    c("roll", X, 2), c("roll", X, -1, axis=1), c("roll", X, (1, 2),
                                                  axis=(0, 1)),
    c("rot90", X), c("rot90", X3, k=3, axes=(1, 2)), c("fliplr", X),
    c("flipud", X), c("moveaxis", X3, 0, -1),
    c("moveaxis", X3, (0, 1), (2, 0)),
    c("hstack", [X, X]), c("hstack", [V, W]), c("vstack", [X, X]),
    c("dstack", [X, X]), c("append", X, X),
    c("append", X, X, axis=0), c("array_split", V, 3),
    c("array_split", X, 2, axis=1), c("hsplit", X, 2),
    c("vsplit", TALL, 2), c("dsplit", X3, 2), c("unstack", X),
    c("unstack", X3, axis=1), c("unstack", X, num=3),
    c("get_item", X, (1, slice(0, 2))),
    c("select", [X > 0.5, X < -0.5], [X, -X]),
    c("select", [X > 0.5], [X], default=7.0),
    # constructors
    c("tri", 3), c("tri", 3, 4, k=1), c("identity", 3), c("empty", (2, 3)),
    c("empty_like", X), c("array", X), c("logspace", 0.0, 2.0, num=5),
    c("logspace", 0.0, 3.0, num=4, base=2, endpoint=False),
    c("geomspace", 1.0, 1000.0, num=4), c("meshgrid", V, W[:3]),
    c("meshgrid", V, W[:3], indexing="ij"), c("vander", V),
    c("vander", V, N=3, increasing=True),
    c("unravel_index", np.array([1, 5, 11], "int32"), (3, 4)),
    c("bartlett", 6), c("blackman", 6), c("hamming", 6), c("hanning", 6),
    c("kaiser", 6, 2.5),
    # linear algebra
    c("svd", SQ, compute_uv=False), c("svd", TALL, False, False),
    c("logdet", SPD), c("pinv", TALL), c("pinv", SQ),
    c("lstsq", TALL, X[:, :2].T.copy().T[:3].T.T if False else
      RNG.standard_normal((4, 2)).astype("float32")),
    c("solve_triangular", SQ, X[:, :3].T.copy()),
    c("solve_triangular", SQ, V[:3], lower=True),
    c("matrix_rank", SQ), c("matrix_rank", np.ones((3, 3), "float32")),
    c("cholesky_inverse", np.linalg.cholesky(SPD).astype("float32")),
    c("cholesky_inverse", np.linalg.cholesky(SPD).T.astype("float32"),
      upper=True),
    c("lu_factor", SQ), c("kron", X[:2, :2], SQ), c("inner", X, X),
    c("vdot", X, POS), c("cross", X[:, :3], POS[:, :3]),
    c("cross", X[:, :2], POS[:, :2]), c("cdist", X, POS),
    # Fourier transforms
    c("fft", (X, POS)), c("fft2", (X, POS)),
    c("ifft2", (X, POS)), c("rfft", X), c("rfft", X, fft_length=6),
    c("irfft", (X, POS)), c("irfft", (X, POS), fft_length=5),
    c("stft", SIG, 8, 4, 8), c("stft", SIG, 6, 3, 8, window="hamming",
                               center=False),
    c("stft", SIG, 8, 4, 8, window=None),
    c("extract_sequences", SIG, 8, 4),
    # scatter and segments
    c("scatter", np.array([[0, 1], [2, 3], [0, 1]], "int32"),
      np.array([1.0, 2.0, 3.0], "float32"), (3, 4)),
    c("scatter", np.array([[1], [0]], "int32"), X[:2], (3, 4)),
    c("scatter_update", X, np.array([[0, 1], [2, 3]], "int32"),
      np.array([9.0, 8.0], "float32")),
    c("slice_update", X, (1, 1), np.ones((2, 2), "float32")),
    c("segment_sum", RNG.standard_normal((5, 2)).astype("float32"), IDS),
    c("segment_sum", V, IDS, num_segments=4),
    c("segment_max", V, IDS), c("segment_max", V, IDS, num_segments=4),
    c("segment_min", V, IDS), c("segment_min", X[:, :2].repeat(2, 0)[:5],
                                IDS, num_segments=3, sorted=False),
    c("segment_prod", V, IDS), c("segment_prod", V, IDS, num_segments=4),
    c("saturate_cast", X * 300, "int8"), c("saturate_cast", I * 100,
                                           "uint8"),
]


def _np(v):
    if isinstance(v, (tuple, list)):
        return [_np(e) for e in v]
    return np.asarray(keras.ops.convert_to_numpy(v) if not isinstance(
        v, pycg.Tensor) else v.numpy())


def _compare(name, got, want):
    if isinstance(want, (tuple, list)):
        assert isinstance(got, (tuple, list)) and len(got) == len(want), name
        for g, w in zip(got, want):
            _compare(name, g, w)
        return
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, f"{name}: shape {got.shape} != " \
        f"{want.shape}"
    assert (got.dtype.kind == "b") == (want.dtype.kind == "b"), name
    np.testing.assert_allclose(got.astype(np.float64),
                               want.astype(np.float64), rtol=2e-5,
                               atol=2e-5, equal_nan=True, err_msg=name)


@pytest.mark.parametrize("name, args, kwargs", CASES)
def test_value_matches_keras(backend, name, args, kwargs):
    want = _np(getattr(keras.ops, name)(*args, **kwargs))
    got = _np(getattr(ops, name)(*args, **kwargs))
    _compare(name, got, want)


# ---- where Keras' TensorFlow backend departs from NumPy, NumPy decides -------
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


# ---- decompositions: compared where they are unique ----------------------------
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
    ku, ks, kvh = _np(keras.ops.svd(x, full_matrices=full_matrices))
    assert (u.shape, s.shape, vh.shape) == (ku.shape, ks.shape, kvh.shape)
    np.testing.assert_allclose(s, ks, rtol=1e-5)
    k = s.shape[0]
    np.testing.assert_allclose(_mm(u[:, :k] * s, vh[:k]), x, atol=1e-5)
    np.testing.assert_allclose(u.T @ u, np.eye(u.shape[1]), atol=1e-5)


@pytest.mark.parametrize("mode", ["reduced", "complete"])
def test_qr_reconstructs_with_keras_shapes(backend, mode):
    q, r = (t.numpy() for t in ops.qr(TALL, mode=mode))
    kq, kr = _np(keras.ops.qr(TALL, mode=mode))
    assert (q.shape, r.shape) == (kq.shape, kr.shape)
    np.testing.assert_allclose(q @ r, TALL, atol=1e-5)
    np.testing.assert_allclose(np.abs(r), np.abs(kr), atol=1e-5)
    np.testing.assert_allclose(np.tril(r, -1), 0, atol=1e-6)


def test_eigh_matches_keras_eigenvalues_and_projectors(backend):
    w, v = (t.numpy() for t in ops.eigh(SYM))
    kw, kv = _np(keras.ops.eigh(SYM))
    np.testing.assert_allclose(w, kw, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(v * v, kv * kv, atol=1e-5)
    np.testing.assert_allclose(_mm(v * w, v.T), SYM, atol=1e-4)


def test_eig_matches_keras_eigenvalues(backend):
    w, v = (t.numpy() for t in ops.eig(SQ))
    kw, _ = _np(keras.ops.eig(SQ))
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
    _compare("nonzero", _np(ops.nonzero(I)), _np(keras.ops.nonzero(I)))
    _compare("unique", _np(ops.unique(I)), _np(keras.ops.unique(I)))
    got = ops.unique(I, return_counts=True, return_inverse=True)
    want = np.unique(I, return_counts=True, return_inverse=True)
    _compare("unique", _np(got), list(want))


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


# ---- bad input: errors name the op and the argument -----------------------------
ERRORS = [
    (lambda: ops.sort(X, axis=3), ValueError,
     "pycg.ops.sort: axis 3 is out of range for a tensor of rank 2"),
    (lambda: ops.argsort(X, axis=-3), ValueError,
     "pycg.ops.argsort: axis -3 is out of range for a tensor of rank 2"),
    (lambda: ops.median(X, axis=2), ValueError,
     "pycg.ops.median: axis 2 is out of range for a tensor of rank 2"),
    (lambda: ops.any(X, axis=5), ValueError,
     "pycg.ops.any: axis 5 is out of range"),
    (lambda: ops.top_k(X, 5), ValueError,
     "pycg.ops.top_k: k=5 is out of range for a last axis of length 4"),
    (lambda: ops.quantile(X, 1.5), ValueError,
     "pycg.ops.quantile: q must be a scalar or 1-d, inside [0, 1], got 1.5"),
    (lambda: ops.quantile(X, 0.5, method="cubic"), ValueError,
     "pycg.ops.quantile: method must be one of 'linear', 'lower', 'higher',"
     " 'midpoint', 'nearest', got 'cubic'"),
    (lambda: ops.diagonal(X, axis1=1, axis2=1), ValueError,
     "pycg.ops.diagonal: axis1 and axis2 are both 1"),
    (lambda: ops.diag(X3), ValueError,
     "pycg.ops.diag: expected a tensor of rank 1 or 2, got shape (2, 3, 4)"),
    (lambda: ops.tril(V), ValueError,
     "pycg.ops.tril: expected a tensor of rank >= 2, got shape (5,)"),
    (lambda: ops.bitwise_and(X, I), TypeError,
     "pycg.ops.bitwise_and: expected an integer or bool tensor, got dtype "
     "float32"),
    (lambda: ops.svd(V), ValueError,
     "pycg.ops.svd: expected a matrix (or a batch of them), got shape (5,)"),
    (lambda: ops.eigh(TALL), ValueError,
     "pycg.ops.eigh: expected a square matrix (or a batch of them), got "
     "shape (4, 3)"),
    (lambda: ops.qr(TALL, mode="r"), ValueError,
     "pycg.ops.qr: mode must be 'reduced' or 'complete', got 'r'"),
    (lambda: ops.average(X, axis=1, weights=V), ValueError,
     "pycg.ops.average: weights have length 5, axis 1 of x has length 4"),
    (lambda: ops.fft(X), ValueError,
     "pycg.ops.fft: x must be a (real, imaginary) pair of tensors, got "
     "ndarray"),
    (lambda: ops.fft((X, V)), ValueError,
     "pycg.ops.fft: the real and imaginary parts differ in shape: (3, 4) "
     "and (5,)"),
    (lambda: ops.stft(I, 4, 2, 4), TypeError,
     "pycg.ops.stft: x must be float32 or float64, got int32"),
    (lambda: ops.segment_sum(V, IDS[:3]), ValueError,
     "pycg.ops.segment_sum: segment_ids must be a 1-d integer tensor with "
     "one id per row of data (5), got shape (3,) and dtype int32"),
    (lambda: ops.scatter(np.array([[0.5]]), V[:1], (3,)), TypeError,
     "pycg.ops.scatter: indices must be integers, got dtype float64"),
    (lambda: ops.slice_update(X, (2, 3), np.ones((2, 2), "float32")),
     ValueError, "pycg.ops.slice_update: updates of shape (2, 2) at (2, 3) "
     "do not fit inside shape (3, 4)"),
    (lambda: ops.moveaxis(X3, 0, 4), ValueError,
     "pycg.ops.moveaxis: axis 4 is out of range for a tensor of rank 3"),
    (lambda: ops.ldexp(X, X), TypeError,
     "pycg.ops.ldexp: x2 must be an integer tensor, got dtype float32"),
    (lambda: ops.searchsorted(X, V), ValueError,
     "pycg.ops.searchsorted: sorted_sequence must be 1-d, got shape (3, 4)"),
    (lambda: ops.meshgrid(V, W, indexing="ji"), ValueError,
     "pycg.ops.meshgrid: indexing must be 'xy' or 'ij', got 'ji'"),
]


@pytest.mark.parametrize("fn, kind, message", ERRORS,
                         ids=[e[2].split(":")[0] + f"-{i}"
                              for i, e in enumerate(ERRORS)])
def test_bad_input_names_op_and_argument(backend, fn, kind, message):
    with pytest.raises(kind) as info:
        fn()
    assert message in str(info.value)


# ops whose values this module checks (test_ops_values.py counts them)
CHECKED = {p.values[0] for p in CASES} | {
    "svd", "qr", "eigh", "eig", "argpartition", "nonzero", "unique",
    "is_tensor", "dtype", "size", "view_as_complex", "view_as_real",
    "vstack", "array_split", "isclose", "rot90", "irfft", "rfft"}


SPEC = tuple(np.asarray(keras.ops.convert_to_numpy(p))
             for p in keras.ops.stft(SIG, 8, 4, 8))
CASES_MORE = [
    c("istft", SPEC, 8, 4, 8), c("istft", SPEC, 8, 4, 8, length=20),
    c("istft", SPEC, 8, 4, 8, window="hamming", center=False),
    c("istft", SPEC, 6, 4, 8, window=None),
    c("view", X, "int32"), c("view", X, "uint8"), c("view", I, "int16"),
    c("view", X),
]


@pytest.mark.parametrize("name, args, kwargs", CASES_MORE)
def test_more_values_match_keras(backend, name, args, kwargs):
    want = _np(getattr(keras.ops, name)(*args, **kwargs))
    got = _np(getattr(ops, name)(*args, **kwargs))
    _compare(name, got, want)


def test_istft_inverts_stft_away_from_the_ends(backend):
    # (at the ends fewer frames overlap than the inverse window assumes)
    spec = ops.stft(SIG, 8, 2, 8)
    got = ops.istft(spec, 8, 2, 8, length=32).numpy()
    np.testing.assert_allclose(got[4:-4], SIG[4:-4], atol=1e-5)


def test_jvp_matches_keras(backend):
    def f(a, b):
        return ops.sin(a) * b

    def kf(a, b):
        return keras.ops.sin(a) * b
    out, dout = ops.jvp(f, (X, POS), (POS, X))
    kx, kp = keras.ops.convert_to_tensor(X), keras.ops.convert_to_tensor(POS)
    kout, kdout = keras.ops.jvp(kf, (kx, kp), (kp, kx))
    _compare("jvp", _np([out, dout]), _np([kout, kdout]))


def test_jvp_returns_aux(backend):
    out, dout, aux = ops.jvp(lambda a: (ops.exp(a), "aux"), (V,),
                             (np.ones_like(V),), has_aux=True)
    assert aux == "aux"
    np.testing.assert_allclose(dout.numpy(), np.exp(V), rtol=1e-6)


def test_vectorize_elementwise_matches_numpy(backend):
    # (Keras' TensorFlow backend has no vectorize: NumPy is the reference)
    got = ops.vectorize(lambda a, b: a * b + 1)(X, V[:4])
    want = np.vectorize(lambda a, b: a * b + 1)(X, V[:4])
    _compare("vectorize", _np(got), want)


def test_vectorize_with_a_signature_matches_numpy(backend):
    dot = ops.vectorize(lambda a, b: ops.sum(a * b), signature="(n),(n)->()")
    want = np.vectorize(lambda a, b: np.sum(a * b),
                        signature="(n),(n)->()")(X, POS[:1])
    _compare("vectorize", _np(dot(X, POS[:1])), want)


CHECKED |= {p.values[0] for p in CASES_MORE} | {"jvp", "vectorize"}


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
    previous = pycg.config.backend()
    pycg.config.set_backend("tensorflow")
    try:
        f = TRACED[name]
        x = pycg.constant(X)
        np.testing.assert_allclose(pycg.function(f)(x).numpy(),
                                   f(x).numpy(), rtol=1e-6, atol=1e-6)
    finally:
        pycg.config.set_backend(previous)
