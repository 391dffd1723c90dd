"""Empty tensors (a last batch of none, a reduction over an empty axis)
through the ops that reduce, shift or sort along an axis: what keras.ops
gives on its TensorFlow backend, and a gradient of the input's shape."""
import numpy as np
import pytest

import pycg
from pycg import ops

keras = pytest.importorskip("keras")

SHAPES = [(0,), (2, 0), (0, 3)]
OPS = ["softmax", "log_softmax", "logsumexp", "sort", "argsort", "sum",
       "mean", "cumsum", "any", "all"]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("op", OPS)
def test_empty_input_as_keras(backend, op, shape):
    a = np.zeros(shape, np.float32)
    got = getattr(ops, op)(pycg.constant(a))
    want = keras.ops.convert_to_numpy(
        getattr(keras.ops, op)(keras.ops.convert_to_tensor(a)))
    assert got.shape == want.shape
    assert got.dtype.name == keras.backend.standardize_dtype(want.dtype)
    np.testing.assert_array_equal(got.numpy(), want)


def test_logsumexp_over_an_empty_axis_is_minus_inf(backend):
    got = ops.logsumexp(pycg.constant(np.zeros((2, 0), np.float32)), axis=-1)
    np.testing.assert_array_equal(got.numpy(), [-np.inf, -np.inf])  # log(0)


@pytest.mark.parametrize("f", [
    lambda t: ops.sum(ops.logsumexp(t, axis=-1)),
    lambda t: ops.sum(ops.softmax(t) * t),
    lambda t: ops.sum(ops.sort(t)),
    lambda t: ops.sum(ops.log_softmax(t))], ids=["logsumexp", "softmax",
                                                 "sort", "log_softmax"])
def test_an_empty_batch_has_an_empty_gradient(backend, f):
    x = pycg.constant(np.zeros((0, 3), np.float32))
    g = pycg.grad(f)(x)
    assert g.shape == (0, 3) and g.dtype == np.float32
