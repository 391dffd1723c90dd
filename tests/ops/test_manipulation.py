"""The tests of pycg/ops/manipulation.py (the shared tables' suites:
tests/support/op_suites.py)."""
from support.op_suites import Values, Vjp, for_topic

TestValues, TestVjp = for_topic("manipulation", Values, Vjp)
