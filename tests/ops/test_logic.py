"""The tests of pycg/ops/logic.py (the shared tables' suites:
tests/support/op_suites.py)."""
from support.op_suites import KerasNumpy, for_topic

TestKerasNumpy = for_topic("logic", KerasNumpy)
