"""The tests of pycg/ops/searching.py (the shared tables' suites:
tests/support/op_suites.py)."""
import numpy as np

from pycg import ops
from support.op_suites import KerasNumpy, for_topic

TestKerasNumpy = for_topic("searching", KerasNumpy)


def test_histogram_of_equal_values_widens_the_range_like_numpy(backend):
    for data in ([2.0, 2.0], [1.0, 1.5]):
        counts, edges = ops.histogram(np.array(data, "float32"), bins=3)
        want_counts, want_edges = np.histogram(data, bins=3)
        np.testing.assert_array_equal(counts.numpy(), want_counts)
        np.testing.assert_allclose(edges.numpy(), want_edges, rtol=1e-6)
