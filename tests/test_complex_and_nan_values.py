"""Complex and NaN inputs get NumPy's values on both backends: sigmoid of
complex, the variance of complex as the mean of |x - mean|^2 (real),
NaN-ignoring statistics of complex, a NaN in a median or quantile making it
NaN; median of complex has no order and says so."""
import numpy as np
import pytest

from pycg import ops

Z = np.array([1 + 2j, 3 - 1j], "complex64")
ZN = np.array([1 + 2j, np.nan, 3 - 1j], "complex64")
WITH_NAN = np.array([[1.0, np.nan, 2.0, 3.0], [1.0, 2.0, 3.0, 4.0]],
                    "float32")


def _same(got, want):
    want = np.asarray(want)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)


def test_sigmoid_of_complex(backend):
    _same(ops.sigmoid(Z), (1 / (1 + np.exp(-Z.astype("complex128"))))
          .astype("complex64"))


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_var_and_std_of_complex_are_real(backend, dtype):
    z = Z.astype(dtype)
    assert np.var(z) == pytest.approx(3.25)
    _same(ops.var(z), np.var(z))
    _same(ops.std(z), np.std(z))
    _same(ops.moments(z, axes=0)[1], np.var(z))
    _same(ops.moments(z, axes=0)[0], np.mean(z))


def test_nan_ignoring_statistics_of_complex(backend):
    _same(ops.nanmean(ZN), np.nanmean(ZN))
    _same(ops.nanvar(ZN), np.nanvar(ZN))
    _same(ops.nanstd(ZN), np.nanstd(ZN))
    _same(ops.isnan(ZN), np.isnan(ZN))
    _same(ops.isfinite(np.array([1, complex(1, np.inf)], "complex64")),
          [True, False])


def test_the_gradient_of_var_of_complex_is_tensorflows(backend):
    import tensorflow as tf
    import pycg
    tz = tf.constant(Z)
    with tf.GradientTape() as tape:
        tape.watch(tz)
        tv = tf.math.reduce_variance(tz)
    want = tape.gradient(tv, tz).numpy()
    np.testing.assert_allclose(pycg.grad(ops.var)(Z).numpy(), want,
                               rtol=1e-6)


@pytest.mark.parametrize("op, args", [
    ("median", {}), ("median", {"axis": 1}), ("quantile", {"q": 0.3}),
    ("quantile", {"q": [0.2, 0.9], "axis": 1}), ("percentile", {"q": 50}),
])
def test_a_nan_makes_median_and_quantile_nan(backend, op, args):
    # (NumPy's values; the dtype of x, as keras.ops, where NumPy promotes
    # to q's float64)
    _same(getattr(ops, op)(WITH_NAN, **args),
          getattr(np, op)(WITH_NAN, **args).astype("float32"))


def test_nanmedian_still_ignores_nan(backend):
    _same(ops.nanmedian(WITH_NAN, axis=1), np.nanmedian(WITH_NAN, axis=1))


@pytest.mark.parametrize("op", ["median", "quantile", "nanmedian"])
def test_median_of_complex_says_it_has_no_order(backend, op):
    args = {"q": 0.5} if op == "quantile" else {}
    with pytest.raises(TypeError, match=rf"pycg.ops.{op}: complex values "
                       r"have no order \(got dtype complex64\); take "
                       r"ops.real or ops.abs first"):
        getattr(ops, op)(Z, **args)


@pytest.mark.parametrize("op", ["corrcoef", "layer_normalization"])
def test_real_only_statistics_refuse_complex(backend, op):
    with pytest.raises(TypeError, match=rf"pycg.ops.{op}: expected a real "
                       r"tensor, got complex64; apply it to "
                       r"ops.real\(x\) or ops.abs\(x\)"):
        getattr(ops, op)(np.stack([Z, Z]))
