"""The NumPy-namespace, math and linalg ops of pycg.ops against keras.ops
itself (Keras on its TensorFlow backend), on each pycg backend: a topic's
share of tests/support/keras_numpy_cases.py, run in
tests/ops/test_<topic>.py."""
import keras
import numpy as np

from pycg import ops
from support.keras_inputs import as_numpy, compare
from support.keras_numpy_cases import CASES, CASES_MORE
from support.op_topics import TopicSuite, of_topic

TABLES = {"test_value_matches_keras": CASES,
          "test_more_values_match_keras": CASES_MORE}


def _keras_and_ours(name, args, kwargs):
    want = as_numpy(getattr(keras.ops, name)(*args, **kwargs))
    return as_numpy(getattr(ops, name)(*args, **kwargs)), want


class KerasNumpySuite(TopicSuite):
    """A topic's share of CASES and CASES_MORE, for
    tests/ops/test_<topic>.py (tests/support/op_suites.py)."""

    @classmethod
    def cases(cls, method):
        return [("name, args, kwargs", of_topic(TABLES[method], cls.TOPIC),
                 None)]

    def test_value_matches_keras(self, backend, name, args, kwargs):
        got, want = _keras_and_ours(name, args, kwargs)
        if name == "histogram":
            # counts are integers, as in NumPy and Keras' numpy backend
            # (Keras' TensorFlow backend gives float32 counts)
            want[0] = want[0].astype(np.int32)
        compare(name, got, want)

    def test_more_values_match_keras(self, backend, name, args, kwargs):
        got, want = _keras_and_ours(name, args, kwargs)
        compare(name, got, want)
