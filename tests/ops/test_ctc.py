"""The tests of pycg/ops/ctc.py (the shared tables' suites:
tests/support/op_suites.py)."""
from support.op_suites import KerasNn, NnSecondOrder, Values, Vjp, for_topic

TestValues, TestKerasNn, TestVjp, TestNnSecondOrder = for_topic(
    "ctc", Values, KerasNn, Vjp, NnSecondOrder)
