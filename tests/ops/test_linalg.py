"""The tests of pycg/ops/linalg.py (the shared tables' suites:
tests/support/op_suites.py)."""
import numpy as np
import pytest

import pycg
from support.op_suites import Values, Vjp, for_topic

TestValues, TestVjp = for_topic("linalg", Values, Vjp)


@pytest.mark.parametrize("transpose_a", [False, True])
@pytest.mark.parametrize("transpose_b", [False, True])
def test_matmul_with_transposed_operands_first_and_second_order(
        backend, transpose_a, transpose_b):
    # the gradients of matmul are matmuls with transposed operands (no
    # Transpose op); their own gradients must be right too
    from pycg.ops.linalg import _matmul
    rng = np.random.default_rng(3)
    a = rng.standard_normal((2, 4, 3) if transpose_a else (2, 3, 4))
    b = rng.standard_normal((2, 5, 4) if transpose_b else (2, 4, 5))

    def f(x, y):
        return _matmul(x, y, transpose_a=transpose_a, transpose_b=transpose_b)
    pycg.check_gradients(f, a, b)
    pycg.check_gradients(f, a, b, order=2)
