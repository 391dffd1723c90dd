"""Documented parameters are honoured as keras.ops honours them, or refused
with a clear error; never ignored (issue 13 item 6). Oracle: keras.ops on the
TensorFlow backend, and NumPy."""
import numpy as np
import pytest

import pycg
from pycg import ops

keras = pytest.importorskip("keras")
X = np.array([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]], np.float32)


@pytest.mark.parametrize("name", ["max", "min"])
@pytest.mark.parametrize("axis", [None, 0, 1])
@pytest.mark.parametrize("initial", [-10.0, 0.0, 2.0, 10.0])
def test_max_and_min_honour_initial(backend, name, axis, initial):
    got = getattr(ops, name)(pycg.constant(X), axis=axis, initial=initial)
    expected = getattr(keras.ops, name)(X, axis=axis, initial=initial)
    np.testing.assert_allclose(got.numpy(), np.asarray(expected))


def test_the_gradient_of_max_with_initial_goes_to_initial_when_it_wins(
        backend):
    g = pycg.grad(lambda x: ops.max(x, initial=10.0))(pycg.constant(X))
    np.testing.assert_allclose(g.numpy(), np.zeros_like(X))
    g = pycg.grad(lambda x: ops.max(x, initial=0.0))(pycg.constant(X))
    expected = np.zeros_like(X)
    expected[1, 1] = 1.0
    np.testing.assert_allclose(g.numpy(), expected)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32"])
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_cumsum_honours_dtype(backend, dtype, axis):
    a = np.array([[1, 2, 3], [4, 5, 6]], np.int32)
    got = ops.cumsum(pycg.constant(a), axis=axis, dtype=dtype)
    expected = keras.ops.cumsum(a, axis=axis, dtype=dtype)
    assert got.dtype == np.asarray(expected).dtype
    np.testing.assert_allclose(got.numpy(), np.asarray(expected))


def test_cumsum_of_halves_in_float_does_not_truncate(backend):
    got = ops.cumsum(pycg.constant([0.5, 0.5]), dtype="float64")
    np.testing.assert_allclose(got.numpy(), [0.5, 1.0])


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_linspace_honours_axis_for_array_endpoints(backend, axis):
    start, stop = np.array([0.0, 1.0]), np.array([1.0, 3.0])
    got = ops.linspace(start, stop, num=3, axis=axis)
    expected = keras.ops.linspace(start, stop, num=3, axis=axis)
    np.testing.assert_allclose(got.numpy(), np.asarray(expected))
    assert got.dtype == np.asarray(expected).dtype


def test_linspace_of_scalars_accepts_axis_zero_and_minus_one(backend):
    for axis in (0, -1):
        np.testing.assert_allclose(
            ops.linspace(0.0, 1.0, 5, axis=axis).numpy(),
            np.linspace(0.0, 1.0, 5))


def test_linspace_of_scalars_refuses_another_axis(backend):
    with pytest.raises(ValueError, match="axis 1 is out of range"):
        ops.linspace(0.0, 1.0, 5, axis=1)


def test_linspace_retstep_of_arrays(backend):
    out, step = ops.linspace(np.array([0.0, 1.0]), np.array([1.0, 3.0]), 3,
                             retstep=True)
    np.testing.assert_allclose(step, [0.5, 1.0])
    assert out.shape == (3, 2)


@pytest.mark.parametrize("flag", ["sparse", "ragged"])
def test_convert_to_tensor_refuses_sparse_and_ragged(backend, flag):
    with pytest.raises(ValueError, match=f"{flag}=True .* dense tensors "
                                         f"only"):
        ops.convert_to_tensor([1.0, 2.0], **{flag: True})


@pytest.mark.parametrize("flag", ["sparse", "ragged"])
@pytest.mark.parametrize("value", [False, None])
def test_convert_to_tensor_accepts_dense_requests(backend, flag, value):
    t = ops.convert_to_tensor([1.0, 2.0], **{flag: value})
    np.testing.assert_allclose(t.numpy(), [1.0, 2.0])
