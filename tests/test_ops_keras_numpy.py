"""The NumPy-namespace, math and linalg ops against keras.ops: every op
the keras.ops comparisons check (tests/support/keras_numpy_cases.py, run
in tests/ops/test_<topic>.py) has keras.ops' signature, and a file for its
topic."""
import inspect

import keras

from pycg import ops
from support.keras_numpy_cases import CASES, CASES_MORE, CHECKED
from support.op_topics import topic_of, without_a_file


def test_every_keras_case_runs_in_the_file_of_its_topic():
    names = {p.values[0] for p in CASES + CASES_MORE}
    homeless = without_a_file(names, "KerasNumpy")
    assert not homeless, (
        f"keras.ops cases whose topic has no tests/ops/test_<topic>.py: "
        f"{[(n, topic_of(n)) for n in homeless]}")


def test_signatures_match_keras():
    # names, order, kinds and defaults of the arguments, for every name of
    # this module's table (so keyword calls work as with keras.ops)
    for name in sorted(CHECKED):
        ours = inspect.signature(getattr(ops, name)).parameters.values()
        theirs = inspect.signature(getattr(keras.ops, name)).parameters
        assert [(p.name, p.default, p.kind) for p in ours] == [
            (p.name, p.default, p.kind) for p in theirs.values()], name
