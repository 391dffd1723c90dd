"""The tests of pycg/ops/reduction.py (the shared tables' suites:
tests/support/op_suites.py)."""
import numpy as np
import pytest

import pycg
from pycg import ops
from support.op_suites import Values, Vjp, for_topic
from support.vjp_case import with_zeros

TestValues, TestVjp = for_topic("reduction", Values, Vjp)


@pytest.mark.parametrize("axis, zeros", [
    (None, 1), (None, 2), (1, 1), (1, 2), ((0, 2), 2)])
def test_prod_second_order_with_zeros(backend, axis, zeros):
    # the product of the others is a polynomial in x, so its own derivative
    # (the mixed terms at an exact zero included) matches central differences
    shape = (3, 4) if axis == 1 else (2, 3, 2) if axis == (0, 2) else (5,)
    x = with_zeros(zeros)(*shape)(np.random.default_rng(7))
    if axis == 1:
        x[1, 2] = 0.0  # a zero in a second row too

    def f(x):
        return ops.sum(ops.prod(x, axis=axis))
    pycg.check_gradients(f, x, order=2)
