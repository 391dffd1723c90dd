"""The shared op tables as test classes for tests/ops/test_<topic>.py: each
suite runs its table's cases whose op is of the file's topic
(tests/support/op_topics.py), under the name Test<suite>, e.g.

    TestValues, TestVjp = for_topic("reduction", Values, Vjp)

tests/ops/conftest.py parametrizes them (TopicSuite.parametrize).
"""
from support.keras_nn_suite import KerasNnSuite as KerasNn
from support.keras_numpy_suite import KerasNumpySuite as KerasNumpy
from support.nn_second_order import NnSecondOrderSuite as NnSecondOrder
from support.values_suite import ValuesSuite as Values
from support.vjp_suite import VjpSuite as Vjp

SUITES = (Values, KerasNumpy, KerasNn, Vjp, NnSecondOrder)


def class_name(suite):
    return "Test" + suite.__name__.removesuffix("Suite")


def for_topic(topic, *suites):
    """One test class per suite (the class, for one suite), for the ops of
    `topic`; a test none of whose cases is of the topic is left out."""
    made = []
    for suite in suites:
        cls = type(class_name(suite), (suite,), {"TOPIC": topic})
        for method in dir(cls):
            if method.startswith("test_") and not cls.cases(method)[0][1]:
                setattr(cls, method, None)   # (pytest collects no None)
        made.append(cls)
    return made[0] if len(made) == 1 else tuple(made)
