"""Edge inputs where the two backends gave different answers, or where
TensorFlow's kernels give an order that is no order (found by the keras.ops
sweep, tests/support/keras_sweep.py): each now answers as its oracle on both."""
import numpy as np
import pytest
import tensorflow as tf

from pycg import ops

EDGES = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0], "float32")
B1 = np.array([True, False, True])
B2 = np.array([True, True, False])
C1 = np.array([1 + 2j, -0.5 + 0.1j, 3 - 1j], np.complex64)
C2 = np.array([0.5 - 1j, 2 + 0j, -1 + 1j], np.complex64)


def test_sort_and_argsort_put_nan_last_as_numpy(backend):
    m = np.array([[np.nan, 2.0, -np.inf, 1.0], [3.0, np.nan, np.nan, -1.0]],
                 "float32")
    for x, axis in ((EDGES, -1), (m, 1), (m, 0)):
        np.testing.assert_array_equal(
            ops.argsort(x, axis=axis).numpy(),
            np.argsort(x, axis=axis, kind="stable"))
        np.testing.assert_array_equal(ops.sort(x, axis=axis).numpy(),
                                      np.sort(x, axis=axis))


def test_argmax_and_argmin_give_the_first_nan_as_numpy(backend):
    m = np.array([[1, np.nan, 3], [4, 5, np.nan], [7, 8, 9]], "float32")
    assert int(ops.argmax(EDGES)) == np.argmax(EDGES) == 4
    assert int(ops.argmin(EDGES)) == np.argmin(EDGES) == 4
    for axis in (0, 1):
        np.testing.assert_array_equal(ops.argmax(m, axis=axis).numpy(),
                                      np.argmax(m, axis=axis))
        np.testing.assert_array_equal(ops.argmin(m, axis=axis).numpy(),
                                      np.argmin(m, axis=axis))


def test_floor_divide_of_floats_is_tensorflows_floordiv(backend):
    x = np.array([0.3, -1.2, 2.5, np.inf, -np.inf, 1.0, 0.0], "float32")
    y = np.array([1.1, 0.4, -0.6, 1.0, 2.0, 0.0, 0.0], "float32")
    want = tf.math.floordiv(x, y).numpy()
    np.testing.assert_array_equal(ops.floor_divide(x, y).numpy(), want)
    np.testing.assert_array_equal((ops.convert_to_tensor(x) // y).numpy(),
                                  want)
    i, j = np.array([7, -7, 3], "int32"), np.array([2, 2, -2], "int32")
    np.testing.assert_array_equal(ops.floor_divide(i, j).numpy(),
                                  np.floor_divide(i, j))


@pytest.mark.parametrize("name,x,y", [
    ("floor_divide", np.array([3, -1, 0, 7], "int32"),
     np.array([0, 0, 0, 2], "int32")),
    ("floor_divide", np.array([True, False, True, False]),
     np.array([True, True, False, False])),
    ("mod", np.array([True, False, True, False]),
     np.array([True, True, False, False]))])
def test_integer_division_by_zero_and_of_bools_is_numpys(backend, name, x, y):
    # (TensorFlow has no bool kernels; an integer by 0 is NumPy's 0 there
    # too: tests/test_integer_edges_agree.py)
    if backend == "tensorflow" and x.dtype == bool:
        with pytest.raises(Exception, match=rf"pycg\.ops\.{name}: .*"
                           r"of bool is not"):
            getattr(ops, name)(x, y)
        return
    with np.errstate(divide="ignore"):
        want = getattr(np, name)(x, y)
    got = getattr(ops, name)(x, y).numpy()
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("name", ["arctan2", "logaddexp"])
def test_complex_numbers_are_refused_where_numpy_has_no_kernel(backend, name):
    with pytest.raises(Exception, match=rf"pycg\.ops\.{name}: .*("
                       rf"complex64|ufunc '{name}' not supported)"):
        getattr(ops, name)(C1, C2)


@pytest.mark.parametrize("name", ["trunc", "isneginf", "isposinf", "erfinv"])
def test_real_only_ops_refuse_complex_by_name(backend, name):
    with pytest.raises(TypeError, match=rf"pycg\.ops\.{name}: expected a "
                       r"real tensor, got complex64"):
        getattr(ops, name)(np.array([1 + 2j], np.complex64))


@pytest.mark.parametrize("name", ["isneginf", "isposinf"])
def test_integers_and_bools_are_never_infinite(backend, name):
    for x in (np.array([3, -1, 0], "int32"), B1):
        got = getattr(ops, name)(x).numpy()
        np.testing.assert_array_equal(got, getattr(np, name)(x))


def test_bool_matrices_and_products_answer_as_numpy(backend):
    np.testing.assert_array_equal(ops.diag(B1).numpy(), np.diag(B1))
    np.testing.assert_array_equal(ops.diagflat(B1).numpy(), np.diagflat(B1))
    np.testing.assert_array_equal(ops.outer(B1, B2).numpy(),
                                  np.outer(B1, B2))
    got = ops.vdot(B1, B2)
    assert got.dtype == np.bool_ and bool(got) == np.vdot(B1, B2)
    np.testing.assert_allclose(float(ops.norm(B1)), np.linalg.norm(B1))
    for name in ("multiply", "add", "maximum", "minimum"):
        np.testing.assert_array_equal(getattr(ops, name)(B1, B2).numpy(),
                                      getattr(np, name)(B1, B2))


def test_products_over_an_empty_axis_are_zero_as_numpy(backend):
    e = np.zeros((0,), "float32")
    assert float(ops.inner(e, e)) == np.inner(e, e) == 0.0
    a, b = np.zeros((2, 0), "float32"), np.zeros((0, 3), "float32")
    np.testing.assert_array_equal(ops.tensordot(a, b, 1).numpy(),
                                  np.tensordot(a, b, 1))



def test_complex_inputs_keep_their_imaginary_part(backend):
    # (each was computed on the real part alone, in silence)
    for name in ("deg2rad", "rad2deg"):
        np.testing.assert_allclose(getattr(ops, name)(C1).numpy(),
                                   getattr(np, name)(C1.real) +
                                   1j * getattr(np, name)(C1.imag), rtol=1e-6)
    np.testing.assert_allclose(ops.sinc(C1).numpy(), np.sinc(C1), rtol=1e-5)
    np.testing.assert_allclose(ops.divide_no_nan(C1, C2).numpy(), C1 / C2,
                               rtol=1e-6)
    np.testing.assert_allclose(ops.hypot(C1, C2).numpy(),
                               np.hypot(np.abs(C1), np.abs(C2)), rtol=1e-6)
    got = ops.norm(C1)
    assert got.dtype == np.float32
    np.testing.assert_allclose(float(got), np.linalg.norm(C1), rtol=1e-6)


@pytest.mark.parametrize("name,args", [
    ("fabs", (C1,)), ("heaviside", (C1, C2)), ("logaddexp2", (C1, C2)),
    ("ldexp", (C1, np.array([1, 2, 3], "int32")))])
def test_ops_without_a_complex_meaning_refuse_it_by_name(backend, name, args):
    with pytest.raises(TypeError, match=rf"pycg\.ops\.{name}: expected a "
                       r"real tensor, got complex64"):
        getattr(ops, name)(*args)


@pytest.mark.parametrize("name", ["quantile", "nanquantile", "percentile",
                                  "nanpercentile"])
@pytest.mark.parametrize("q", [float("nan"), None])
def test_a_quantile_of_nan_or_none_is_refused_by_name(backend, name, q):
    # (was a gather error at index -2**31 on numpy and tensorflow, and NaN
    # on jax; NumPy refuses q outside [0, 1] and NaN)
    with pytest.raises(ValueError, match=rf"pycg\.ops\.{name}: q must be "
                       r"a scalar or 1-d, inside \[0, 1(00)?\], got"):
        getattr(ops, name)(np.array([[1.0, 2.0], [3.0, 4.0]], "float32"), q)


def test_cholesky_reads_the_lower_triangle_as_numpy(backend):
    a = np.array([[4.0, 100.0], [2.0, 3.0]], "float32")
    np.testing.assert_allclose(ops.cholesky(a).numpy(), np.linalg.cholesky(a),
                               rtol=1e-6)
    with pytest.raises(Exception, match="pycg.ops.cholesky"):
        ops.cholesky(np.array([[True, False], [True, True]]))
