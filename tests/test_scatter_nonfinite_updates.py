"""scatter_update places every update value, NaN and infinities included,
as TensorFlow's tensor_scatter_nd_update does (it dropped them: its mask of
positions hit was computed as `updates * 0 + 1`)."""
import numpy as np
import pytest
import tensorflow as tf

from pycg import ops

X = np.array([1.0, 2.0, 3.0, 4.0])
AT = np.array([[1], [3]])


@pytest.mark.parametrize("value", [np.nan, np.inf, -np.inf, 7.0])
def test_scatter_update_places_non_finite_values(backend, value):
    updates = np.array([value, -1.0])
    want = tf.tensor_scatter_nd_update(X, AT, updates).numpy()
    got = ops.scatter_update(X, AT, updates).numpy()
    np.testing.assert_array_equal(got, want)
