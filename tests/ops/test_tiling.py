"""The tests of pycg/ops/tiling.py (the shared tables' suites:
tests/support/op_suites.py)."""
from support.op_suites import Values, Vjp, for_topic

TestValues, TestVjp = for_topic("tiling", Values, Vjp)
