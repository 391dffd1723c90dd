"""One answer on every backend where the backends' own kernels differ:
a float cast to an integer type outside its range or NaN (JAX clamps;
TensorFlow, NumPy and PyTorch on x86 give INT_MIN: TensorFlow's answer is
pycg's, pycg/ops/_machinery/int_casts.py), negative, or to uint32 and
uint64 (where NumPy and PyTorch give 0 for some and TensorFlow INT_MIN's
bits: TensorFlow's vectorised answer), and an integer of any width, signed
or not, divided by 0 in floor_divide and mod (0 in NumPy, JAX and PyTorch;
TensorFlow raises InvalidArgumentError and has no answer: NumPy's is
pycg's). Eager, from a host array, and inside pycg.function."""
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
    # int64: NaN, +-inf and what is outside it are INT64_MIN
    ([INF, -INF, 2.0**63, -2.0**63, 2.0**62, -1.9], "int64",
     [INT64_MIN, INT64_MIN, INT64_MIN, INT64_MIN, 2**62, -1]),
    # uint32: int32's answer as its bits (-1 is 2**32 - 1; NaN, +-inf and
    # what is outside [-2**31, 2**32) are INT32_MIN's bits, 2**31), and a
    # value in [2**31, 2**32) itself
    ([-1.0, -1.5, -0.5, 3e9, 2.0**31, -2.0**31, NAN, INF, -INF, 2.0**32,
      -3e9, 1e30], "uint32",
     [2**32 - 1, 2**32 - 1, 0, 3_000_000_000, 2**31, 2**31, 2**31, 2**31,
      2**31, 2**31, 2**31, 2**31]),
    # uint64 likewise, with int64 and 2**63
    ([-1.0, -3e9, 3e9, 2.0**63, 1.5 * 2.0**63, -2.0**63, NAN, INF, -INF,
      2.0**64, -1e19], "uint64",
     [2**64 - 1, 2**64 - 3_000_000_000, 3_000_000_000, 2**63, 3 * 2**62,
      2**63, 2**63, 2**63, 2**63, 2**63, 2**63]),
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


# (inputs of other float types, whose own bounds differ from float32's)
WIDE_CASTS = [
    ("float64", [2.0**32 - 1, 2.0**32, 2.0**31 - 1, -2.0**31 - 1, -1.0],
     "uint32", [2**32 - 1, 2**31, 2**31 - 1, 2**31, 2**32 - 1]),
    ("float64", [2.0**64 - 2048, 2.0**64, -1.0, 2.0**63 - 1024],
     "uint64", [2**64 - 2048, 2**63, 2**64 - 1, 2**63 - 1024]),
    ("float64", [2.0**63 - 1024, 2.0**63, -2.0**63, NAN], "int64",
     [2**63 - 1024, INT64_MIN, INT64_MIN, INT64_MIN]),
    # (float16 reaches neither half's bounds: only NaN and +-inf are out)
    ("float16", [INF, -INF, NAN, -1.0, 65504.0], "uint32",
     [2**31, 2**31, 2**31, 2**32 - 1, 65504]),
    ("float16", [INF, NAN, -1.0, 65504.0], "uint64",
     [2**63, 2**63, 2**64 - 1, 65504]),
]


@pytest.mark.parametrize("source, values, dtype, expected", WIDE_CASTS,
                         ids=[f"{c[0]}-{c[2]}-{i}"
                              for i, c in enumerate(WIDE_CASTS)])
@pytest.mark.filterwarnings("ignore:.*has no graphs")
@pytest.mark.parametrize("given", ["tensor", "host_array", "compiled"])
def test_a_cast_from_float64_or_float16_has_one_answer(
        backend, source, values, dtype, expected, given):
    host = np.array(values, source)
    if given == "host_array":
        out = ops.cast(host, dtype)
    elif given == "tensor":
        out = ops.cast(pycg.constant(host), dtype)
    else:
        out = pycg.function(lambda x: ops.cast(x, dtype))(pycg.constant(host))
    assert out.dtype == dtype
    assert out.numpy().tolist() == expected


INT_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
              "uint64"]


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


@pytest.mark.parametrize("dtype, large", [
    ("uint8", 250), ("uint16", 65_000), ("uint32", 4_000_000_000),
    ("uint64", 2**62 + 5)])
def test_a_large_unsigned_integer_divided_by_zero_is_zero(backend, dtype,
                                                          large):
    x = pycg.constant(np.array([large, large], dtype))
    y = pycg.constant(np.array([0, 3], dtype))
    assert ops.floor_divide(x, y).numpy().tolist() == [0, large // 3]
    assert ops.mod(x, y).numpy().tolist() == [0, large % 3]


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
