"""A NumPy scalar beside a tensor is a typed value, as in Keras (issue 13
item 5); a Python int or float takes the tensor's dtype. The oracle is
keras.ops itself on the TensorFlow backend."""
import numpy as np
import pytest

import pycg
from pycg import ops
from pycg.ops._machinery.dispatch import is_python_number

keras = pytest.importorskip("keras")

TENSORS = [np.array([1, 2], np.int32), np.array([1.0, 2.0], np.float32)]
SCALARS = [np.float64(0.5), np.float32(0.5), np.int64(3), np.int32(3),
           0.5, 3, True]


def _id(v):
    return f"{type(v).__name__}({v})"


@pytest.mark.parametrize("scalar", SCALARS, ids=_id)
@pytest.mark.parametrize("tensor", TENSORS, ids=lambda a: str(a.dtype))
@pytest.mark.parametrize("op", ["add", "multiply", "subtract", "maximum"])
def test_a_scalar_beside_a_tensor_promotes_as_keras(backend, op, tensor,
                                                    scalar):
    got = getattr(ops, op)(pycg.constant(tensor), scalar)
    expected = getattr(keras.ops, op)(keras.ops.convert_to_tensor(tensor),
                                      scalar)
    assert got.dtype == np.asarray(expected).dtype
    np.testing.assert_allclose(got.numpy(), np.asarray(expected))


def test_a_numpy_float_beside_an_int_tensor_does_not_truncate(backend):
    got = pycg.constant([1, 2]) + np.float64(0.5)
    np.testing.assert_allclose(got.numpy(), [1.5, 2.5])


def test_a_numpy_float_on_the_left_promotes_too(backend):
    got = np.float64(0.5) + pycg.constant([1, 2])
    assert got.dtype == np.float64
    np.testing.assert_allclose(got.numpy(), [1.5, 2.5])


def test_is_python_number_is_the_one_predicate():
    assert is_python_number(0.5) and is_python_number(3)
    assert not is_python_number(np.float64(0.5))
    assert not is_python_number(np.int64(3))
    assert not is_python_number(True)
    assert not is_python_number(pycg.constant(1.0))
