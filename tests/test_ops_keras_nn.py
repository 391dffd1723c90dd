"""pycg.ops' nn names against keras.ops: every call of
tests/support/keras_nn_cases.py runs in the test file of its op's topic
(tests/ops/test_<topic>.py, through tests/support/keras_nn_suite.py)."""
from support.keras_nn_cases import CALLS
from support.op_topics import topic_of, without_a_file


def test_every_keras_nn_call_runs_in_the_file_of_its_topic():
    homeless = without_a_file({c[0] for c in CALLS}, "KerasNn")
    assert not homeless, (
        f"keras.ops nn calls whose topic has no tests/ops/test_<topic>.py: "
        f"{[(n, topic_of(n)) for n in homeless]}")
