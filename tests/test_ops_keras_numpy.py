"""The NumPy-namespace, math and linalg ops of pycg.ops against keras.ops
itself (Keras on its TensorFlow backend), on both pycg backends: the same
inputs and keyword arguments, the same values."""
import keras
import numpy as np
import pytest

from support.keras_inputs import (RNG, B, BIG, I, IDS, INFS, J, NANS, POS, SIG, SPD, SQ,
                          TALL, TIES, UNIT, V, W, X, X3, as_numpy, c,
                          compare)
from pycg import ops


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
    c("polar", POS, X), c("polar", X, X[:1]),
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
    c("scatter_update", X, np.array([[0, 1], [2, 3]], "int32"),
      np.array([np.nan, np.inf], "float32")),
    c("slice_update", X, (1, 1), np.ones((2, 2), "float32")),
    c("segment_sum", RNG.standard_normal((5, 2)).astype("float32"), IDS),
    c("segment_sum", V, IDS, num_segments=4),
    c("segment_max", V, IDS), c("segment_max", V, IDS, num_segments=4),
    c("segment_min", V, IDS), c("segment_min", X[:, :2].repeat(2, 0)[:5],
                                IDS, num_segments=3, sorted=False),
    c("segment_prod", V, IDS), c("segment_prod", V, IDS, num_segments=4),
    c("saturate_cast", X * 300, "int8"), c("saturate_cast", I - 3, "int32"),
    c("saturate_cast", (I - 3).astype("int8"), "int64"),
    c("saturate_cast", I * 100, "float16"), c("saturate_cast", I * 100,
                                           "uint8"),
]


@pytest.mark.parametrize("name, args, kwargs", CASES)
def test_value_matches_keras(backend, name, args, kwargs):
    want = as_numpy(getattr(keras.ops, name)(*args, **kwargs))
    got = as_numpy(getattr(ops, name)(*args, **kwargs))
    if name == "histogram":
        # counts are integers, as in NumPy and Keras' numpy backend (Keras'
        # TensorFlow backend gives float32 counts)
        want[0] = want[0].astype(np.int32)
    compare(name, got, want)


SPEC = tuple(np.asarray(keras.ops.convert_to_numpy(p))
             for p in keras.ops.stft(SIG, 8, 4, 8))
CASES_MORE = [
    c("rearrange", X3, "b h w -> b w h"),
    c("rearrange", X3, "b h w -> (b h) w"),
    c("rearrange", X3, "b h w -> h (b w)"),
    c("rearrange", X3, "b h (w1 w) -> (b w1) h w", w1=2),
    c("rearrange", X3, "b h (w w1) -> b h w w1", w1=2),
    c("istft", SPEC, 8, 4, 8), c("istft", SPEC, 8, 4, 8, length=20),
    c("istft", SPEC, 8, 4, 8, window="hamming", center=False),
    c("istft", SPEC, 6, 4, 8, window=None),
    c("view", X, "int32"), c("view", X, "uint8"), c("view", I, "int16"),
    c("view", X),
]


@pytest.mark.parametrize("name, args, kwargs", CASES_MORE)
def test_more_values_match_keras(backend, name, args, kwargs):
    want = as_numpy(getattr(keras.ops, name)(*args, **kwargs))
    got = as_numpy(getattr(ops, name)(*args, **kwargs))
    compare(name, got, want)


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
    compare("jvp", as_numpy([out, dout]), as_numpy([kout, kdout]))


def test_jvp_returns_aux(backend):
    out, dout, aux = ops.jvp(lambda a: (ops.exp(a), "aux"), (V,),
                             (np.ones_like(V),), has_aux=True)
    assert aux == "aux"
    np.testing.assert_allclose(dout.numpy(), np.exp(V), rtol=1e-6)


def test_vectorize_elementwise_matches_numpy(backend):
    # (Keras' TensorFlow backend has no vectorize: NumPy is the reference)
    got = ops.vectorize(lambda a, b: a * b + 1)(X, V[:4])
    want = np.vectorize(lambda a, b: a * b + 1)(X, V[:4])
    compare("vectorize", as_numpy(got), want)


def test_vectorize_with_a_signature_matches_numpy(backend):
    dot = ops.vectorize(lambda a, b: ops.sum(a * b), signature="(n),(n)->()")
    want = np.vectorize(lambda a, b: np.sum(a * b),
                        signature="(n),(n)->()")(X, POS[:1])
    compare("vectorize", as_numpy(dot(X, POS[:1])), want)




CHECKED = {p.values[0] for p in CASES} | {
    "svd", "qr", "eigh", "eig", "argpartition", "nonzero", "unique",
    "is_tensor", "dtype", "size", "view_as_complex", "view_as_real",
    "vstack", "array_split", "isclose", "rot90", "irfft", "rfft", "jvp",
    "vectorize"}


CHECKED |= {p.values[0] for p in CASES_MORE}


def test_histogram_of_equal_values_widens_the_range_like_numpy(backend):
    for data in ([2.0, 2.0], [1.0, 1.5]):
        counts, edges = ops.histogram(np.array(data, "float32"), bins=3)
        want_counts, want_edges = np.histogram(data, bins=3)
        np.testing.assert_array_equal(counts.numpy(), want_counts)
        np.testing.assert_allclose(edges.numpy(), want_edges, rtol=1e-6)


def test_signatures_match_keras():
    # names, order, kinds and defaults of the arguments, for every name of
    # this module's table (so keyword calls work as with keras.ops)
    import inspect
    for name in sorted(CHECKED):
        ours = inspect.signature(getattr(ops, name)).parameters.values()
        theirs = inspect.signature(getattr(keras.ops, name)).parameters
        assert [(p.name, p.default, p.kind) for p in ours] == [
            (p.name, p.default, p.kind) for p in theirs.values()], name
