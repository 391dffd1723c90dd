"""One answer on every backend where the backends' own kernels differ:
a float cast to an integer type outside its range or NaN (JAX clamps;
TensorFlow, NumPy and PyTorch on x86 give INT_MIN: TensorFlow's answer is
pycg's, pycg/ops/_machinery/int_casts.py), and an integer divided by 0 in
floor_divide and mod (0 in NumPy, JAX and PyTorch; TensorFlow raises
InvalidArgumentError and has no answer: NumPy's is pycg's). Eager, from a
host array, and inside pycg.function."""
import numpy as np
import pytest

import pycg
from pycg import ops

INT32_MIN, INT64_MIN = -2**31, -2**63
NAN, INF = float("nan"), float("inf")
LARGEST_BELOW_2_31 = 2.0**31 - 2.0**7   # (float32's largest under 2**31)

# (float inputs, target dtype, the expected integers, worked out by hand)
CASTS = [
    ([3e9, -3e9, NAN], "int32", [INT32_MIN] * 3),
    ([INF, -INF, 2.0**31, -2.0**31, LARGEST_BELOW_2_31, 1.9, -1.9],
     "int32", [INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN,
               2**31 - 2**7, 1, -1]),
    ([1e19, -1e19, NAN, 3e9, -3e9], "int64",
     [INT64_MIN, INT64_MIN, INT64_MIN, 3_000_000_000, -3_000_000_000]),
    ([300.0, -1.0, 3e9, NAN, 127.9], "int8", [300 - 256, -1, 0, 0, 127]),
    ([70000.0, -40000.0, 3e9], "int16", [70000 - 65536, -40000 + 65536, 0]),
    ([300.0, -1.0, NAN], "uint8", [300 - 256, 255, 0]),
    ([70000.0, -1.0], "uint16", [70000 - 65536, 65535]),
]


def _float32(values):
    return np.array(values, "float32")


@pytest.mark.parametrize("values, dtype, expected", CASTS,
                         ids=[f"{c[1]}-{i}" for i, c in enumerate(CASTS)])
@pytest.mark.filterwarnings("ignore:.*has no graphs")
@pytest.mark.parametrize("given", ["tensor", "host_array", "compiled"])
def test_a_float_cast_to_an_integer_has_one_answer(backend, values, dtype,
                                                   expected, given):
    if given == "host_array":
        out = ops.cast(_float32(values), dtype)
    elif given == "tensor":
        out = ops.cast(pycg.constant(_float32(values)), dtype)
    else:
        out = pycg.function(lambda x: ops.cast(x, dtype))(
            pycg.constant(_float32(values)))
    assert out.dtype == dtype
    assert out.numpy().tolist() == expected


def test_the_issues_cast_of_a_list(backend):
    assert ops.cast([3e9, -3e9, NAN], "int32").numpy().tolist() == \
        [INT32_MIN] * 3


def test_a_float64_cast_uses_int32s_bounds_too(backend):
    x = pycg.constant(np.array([2.0**31 - 1, 2.0**31, NAN]))
    assert ops.cast(x, "int32").numpy().tolist() == [2**31 - 1, INT32_MIN,
                                                     INT32_MIN]


INT_DTYPES = ["int8", "int16", "int32", "int64", "uint8"]


@pytest.mark.parametrize("dtype", INT_DTYPES)
@pytest.mark.filterwarnings("ignore:.*has no graphs")
@pytest.mark.parametrize("compiled", [False, True])
def test_an_integer_divided_by_zero_is_zero(backend, dtype, compiled):
    x = pycg.constant(np.array([7, 0, 9, 7], dtype))
    y = pycg.constant(np.array([0, 0, 2, 3], dtype))

    def both(x, y):
        return ops.floor_divide(x, y), ops.mod(x, y)

    run = pycg.function(both) if compiled else both
    q, r = run(x, y)
    assert q.dtype == r.dtype == dtype
    assert q.numpy().tolist() == [0, 0, 4, 2]   # 9 // 2, 7 // 3
    assert r.numpy().tolist() == [0, 0, 1, 1]   # 9 % 2, 7 % 3


def test_the_issues_division_by_a_python_zero(backend):
    seven = pycg.constant(7)   # (int32)
    assert int(ops.floor_divide(seven, 0)) == 0
    assert int(ops.mod(seven, 0)) == 0
    assert int(seven // 0) == 0 and int(seven % 0) == 0


def test_negative_integers_still_floor(backend):
    x = pycg.constant(np.array([-7, 7, -7], "int32"))
    y = pycg.constant(np.array([2, -2, 0], "int32"))
    assert ops.floor_divide(x, y).numpy().tolist() == [-4, -4, 0]
    assert ops.mod(x, y).numpy().tolist() == [1, -1, 0]
