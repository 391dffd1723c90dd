"""The tests of pycg/ops/arrays.py (the shared tables' suites:
tests/support/op_suites.py)."""
from support.op_suites import KerasNumpy, Values, Vjp, for_topic

TestValues, TestKerasNumpy, TestVjp = for_topic(
    "arrays", Values, KerasNumpy, Vjp)
