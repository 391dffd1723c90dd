"""Every public op's forward value against NumPy (or the oracle its case
names), on each backend: the one table (every
tests/support/values_cases_*.py, keyed by op name) and the suite that runs
a topic's share of it, run in tests/ops/test_<topic>.py."""

import numpy as np
import pytest

import pycg
from pycg import ops
from support.op_topics import TopicSuite, merged

VALUES = merged("values_cases_*.py", "VALUES")


def _assert_same(got, expected, name):
    if isinstance(expected, (tuple, list)) and not isinstance(got, tuple) \
            and not isinstance(got, list):
        assert got == expected, name
        return
    if isinstance(expected, (tuple, list)):
        assert len(got) == len(expected), name
        for g, e in zip(got, expected):
            _assert_same(g, e, name)
        return
    if isinstance(got, pycg.Tensor):
        assert pycg.config.backend() in type(got._value).__module__, \
            f"{name}: the result does not live on the active backend"
        got = got.numpy()
    got, expected = np.asarray(got), np.asarray(expected)
    assert got.shape == expected.shape, name
    assert (got.dtype == bool) == (expected.dtype == bool), name
    np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-12,
                               err_msg=name)



class ValuesSuite(TopicSuite):
    """A topic's share of VALUES, for tests/ops/test_<topic>.py
    (tests/support/op_suites.py)."""

    @classmethod
    def cases(cls, method):
        return cls.named(sorted(VALUES))

    def test_op_value_matches_numpy(self, backend, name):
        if not hasattr(ops, name):
            pytest.fail(f"pycg.ops has no {name}")
        got, expected = VALUES[name]
        _assert_same(got(), expected(), name)
