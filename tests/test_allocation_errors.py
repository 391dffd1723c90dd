"""An allocation that cannot fit is a pycg MemoryError naming the op, the
bytes asked for, the shape and the dtype, on both backends (NumPy's text and
TensorFlow's ResourceExhaustedError differ); a tensor that fits is made."""
import math

import numpy as np
import pytest

from pycg import ops
from support import backend_switch

HUGE = (10**6, 10**6)


@pytest.mark.parametrize("op, make, shape, dtype", [
    ("zeros", lambda: ops.zeros(HUGE), HUGE, "float32"),
    ("ones", lambda: ops.ones(HUGE, "int8"), HUGE, "int8"),
    ("full", lambda: ops.full(HUGE, 2.0, "float64"), HUGE, "float64"),
    ("eye", lambda: ops.eye(10**6), HUGE, "float32"),
    ("arange", lambda: ops.arange(10**13), (10**13,), "int32"),
    ("zeros", lambda: ops.zeros((10**6,) * 3), (10**6,) * 3, "float32"),
])
def test_an_allocation_that_cannot_fit_names_op_and_bytes(numpy_backend, op,
                                                          make, shape, dtype):
    expect_memory_error(op, make, shape, dtype)


def test_tensorflows_out_of_memory_is_the_same_error(tf_backend):
    # (refused before TensorFlow's allocator, which retries for about 10 s)
    expect_memory_error("zeros", lambda: ops.zeros(HUGE), HUGE, "float32")


def expect_memory_error(op, make, shape, dtype):
    nbytes = math.prod(shape) * np.dtype(dtype).itemsize
    shown = ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "")
    with pytest.raises(MemoryError, match=(
            rf"^pycg.ops.{op}: cannot allocate {nbytes} bytes \(.*iB\) for a "
            rf"tensor of shape \({shown}\) and dtype {dtype}: not enough "
            rf"memory \(.*iB available\)$")):
        make()


numpy_backend = backend_switch.fixture("numpy")


def test_the_size_is_in_binary_units(numpy_backend):
    with pytest.raises(MemoryError, match=r"\(3.64 TiB\)"):
        ops.zeros(HUGE)   # 4e12 bytes / 1024**4


def test_a_tensor_that_fits_is_made(backend):
    np.testing.assert_array_equal(ops.eye(3, 2, dtype="float64").numpy(),
                                  np.eye(3, 2))
    np.testing.assert_array_equal(ops.arange(1, 7, 2).numpy(),
                                  np.arange(1, 7, 2))
    np.testing.assert_array_equal(ops.full((2,), 5.0).numpy(), [5.0, 5.0])
