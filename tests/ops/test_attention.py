"""The tests of pycg/ops/attention.py (the shared tables' suites:
tests/support/op_suites.py)."""
from support.op_suites import KerasNn, NnSecondOrder, Values, Vjp, for_topic

TestValues, TestKerasNn, TestVjp, TestNnSecondOrder = for_topic(
    "attention", Values, KerasNn, Vjp, NnSecondOrder)
