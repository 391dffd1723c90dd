"""The tests of pycg/ops/activations.py (the shared tables' suites:
tests/support/op_suites.py)."""
import keras
import numpy as np

from pycg import ops
from support.keras_nn_cases import f32
from support.op_suites import KerasNn, NnSecondOrder, Values, Vjp, for_topic

TestValues, TestKerasNn, TestVjp, TestNnSecondOrder = for_topic(
    "activations", Values, KerasNn, Vjp, NnSecondOrder)


def _sparsemax_by_sorting(z):
    # the textbook algorithm (Martins & Astudillo 2016, Algorithm 1)
    s = -np.sort(-z, axis=-1)
    cs = np.cumsum(s, axis=-1)
    r = np.arange(1, z.shape[-1] + 1)
    k = np.sum(1 + r * s > cs, axis=-1, keepdims=True)
    tau = (np.take_along_axis(cs, k - 1, axis=-1) - 1) / k
    return np.maximum(z - tau, 0)


def test_sparsemax_is_the_projection_onto_the_simplex(backend):
    z = f32(4, 5)
    got = ops.sparsemax(z).numpy()
    np.testing.assert_allclose(got, _sparsemax_by_sorting(z), rtol=1e-5,
                               atol=1e-6)
    np.testing.assert_allclose(got.sum(-1), 1, rtol=1e-5)
    got0 = ops.sparsemax(z, axis=0).numpy()
    np.testing.assert_allclose(got0, _sparsemax_by_sorting(z.T).T, rtol=1e-5,
                               atol=1e-6)


def test_sparsemax_matches_keras_where_keras_is_right(backend):
    # Keras 3.15's sparsemax sums the cumulative sums over the support where
    # the algorithm takes the last one; the two agree when one entry is left
    z = np.float32([[3.0, 0.0, -1.0], [0.2, 2.5, 0.1]])
    np.testing.assert_allclose(ops.sparsemax(z).numpy(),
                               np.asarray(keras.ops.sparsemax(z)), atol=1e-6)
