"""The tests of pycg/ops/constructors.py (the shared tables' suites:
tests/support/op_suites.py)."""
from support.op_suites import KerasNumpy, Vjp, for_topic

TestKerasNumpy, TestVjp = for_topic("constructors", KerasNumpy, Vjp)
