"""The tests of pycg/ops/spatial.py (the shared tables' suites:
tests/support/op_suites.py)."""
from support.op_suites import KerasNn, Values, Vjp, for_topic

TestValues, TestKerasNn, TestVjp = for_topic("spatial", Values, KerasNn, Vjp)
