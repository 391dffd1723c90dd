"""Forward values: every public op has a case (tests/support/values_suite.py's
VALUES, or keras.ops' comparisons of tests/support/keras_numpy_cases.py),
each in the test file of its topic (tests/ops/test_<topic>.py); dtype
rules; ops whose gradient is zero or absent."""
import math
import warnings

import numpy as np
import pytest

import pycg
from pycg import ops
from support.op_topics import topic_of, without_a_file
from support.values_suite import VALUES


def _public_ops():
    return {n for n in ops.__all__ if callable(getattr(ops, n))}


def test_every_public_op_has_a_value_case():
    from support.keras_numpy_cases import CHECKED
    missing = sorted(_public_ops() - set(VALUES) - CHECKED)
    assert not missing, f"ops without a forward-value test: {missing}"


def test_every_value_case_runs_in_the_file_of_its_topic():
    homeless = without_a_file(VALUES, "Values")
    assert not homeless, (
        f"value cases whose topic has no tests/ops/test_<topic>.py: "
        f"{[(n, topic_of(n)) for n in homeless]}")


def test_ops_all_lists_only_ops():
    modules = sorted(n for n in ops.__all__ if not callable(getattr(ops, n)))
    assert not modules, f"pycg.ops.__all__ lists non-ops: {modules}"


def test_keras_ops_named_in_the_issue_are_public():
    names = """abs add subtract multiply divide negative power square sqrt
    rsqrt exp expm1 log log1p log2 log10 sin cos tan arcsin arccos arctan
    arctan2 sinh cosh tanh sigmoid softplus relu gelu silu elu softmax
    log_softmax logsumexp logaddexp erf clip maximum minimum where sign floor
    ceil round equal not_equal less less_equal greater greater_equal sum mean
    prod max min var std cumsum matmul dot tensordot einsum outer transpose
    reshape expand_dims squeeze broadcast_to concatenate stack split tile
    repeat take take_along_axis slice flip pad zeros ones zeros_like ones_like
    full full_like eye arange linspace cast convert_to_tensor
    convert_to_numpy shape norm cholesky inv solve det slogdet""".split()
    missing = sorted(set(names) - _public_ops())
    assert not missing, f"pycg.ops lacks: {missing}"


# ---- stable at the extremes -------------------------------------------------
@pytest.mark.parametrize("name, x, expected", [
    ("sigmoid", [-1000.0, 0.0, 1000.0], [0.0, 0.5, 1.0]),
    ("softplus", [-1000.0, 0.0, 1000.0], [0.0, math.log(2), 1000.0]),
    ("logsumexp", [1000.0, 1000.0], 1000.0 + math.log(2)),
    ("softmax", [1000.0, 1000.0], [0.5, 0.5]),
    ("log_softmax", [1000.0, 1000.0], [-math.log(2)] * 2),
    ("elu", [-1000.0, 2.0], [-1.0, 2.0]),
])
def test_stable_ops_do_not_overflow(backend, name, x, expected):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = getattr(ops, name)(pycg.constant(np.array(x))).numpy()
    np.testing.assert_allclose(out, expected, rtol=1e-12)


# ---- dtype rules ------------------------------------------------------------
def test_python_floats_become_floatx(backend):
    assert pycg.constant(1.5).dtype == np.float32
    assert pycg.constant([1.0, 2.5]).dtype == np.float32
    assert ops.ones((2,)).dtype == np.float32


def test_floatx_can_be_changed(backend):
    pycg.config.set_floatx("float64")
    try:
        assert pycg.constant(1.5).dtype == np.float64
    finally:
        pycg.config.set_floatx("float32")


def test_python_ints_become_int32_and_bools_bool(backend):
    assert pycg.constant(3).dtype == np.int32
    assert pycg.constant([1, 2]).dtype == np.int32
    assert pycg.constant(True).dtype == np.bool_


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int32",
                                   "int64", "bool"])
def test_numpy_arrays_keep_their_dtype(backend, dtype):
    a = np.array([1, 0, 1]).astype(dtype)
    x = pycg.constant(a)
    assert x.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(x.numpy(), a)


def test_explicit_dtype_wins(backend):
    assert pycg.constant(1, dtype="float64").dtype == np.float64
    assert pycg.constant(np.ones(2), dtype="float16").dtype == np.float16


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_python_numbers_take_the_tensor_dtype(backend, dtype):
    x = pycg.constant(np.array([1.0, 2.0], dtype))
    for y in (x + 1.5, 2 * x, x ** 2, 1 - x, x / 3, ops.maximum(x, 0.5),
              ops.where(x > 1, x, 0.0)):
        assert y.dtype == np.dtype(dtype)


def test_python_int_keeps_an_int_tensor_int(backend):
    x = pycg.constant(np.array([1, 2], np.int32))
    assert (x + 1).dtype == np.int32


@pytest.mark.parametrize("number", [0.5, 2.0])
def test_python_float_makes_an_int_tensor_floatx_whatever_its_value(
        backend, number):
    x = pycg.constant(np.array([1, 2], np.int32))
    y = x * number
    assert y.dtype == np.float32
    np.testing.assert_array_equal(y.numpy(), [number, 2 * number])


@pytest.mark.parametrize("a, b", [("float16", "float32"), ("float32",
                                                          "float64"),
                                  ("float16", "float64"), ("int32", "int64")])
def test_two_tensors_promote_as_numpy(backend, a, b):
    x = pycg.constant(np.ones(2, a))
    y = pycg.constant(np.ones(2, b))
    assert (x + y).dtype == np.result_type(a, b)
    assert (y * x).dtype == np.result_type(a, b)


def test_numpy_arrays_work_on_either_side_of_operators(backend):
    x = pycg.constant(np.array([1.0, 2.0]))
    a = np.array([3.0, 5.0])
    for got, expected in [(a + x, [4, 7]), (x + a, [4, 7]), (a - x, [2, 3]),
                          (x * a, [3, 10]), (a / x, [3, 2.5]),
                          (a ** x, [3, 25]), (np.eye(2) @ x, [1, 2]),
                          (-x, [-1, -2]), (abs(-x), [1, 2])]:
        assert isinstance(got, pycg.Tensor)
        np.testing.assert_allclose(got.numpy(), expected)


def test_comparison_operators_give_bool_tensors(backend):
    x = pycg.constant(np.array([1.0, 2.0, 3.0]))
    for got, expected in [(x < 2, [1, 0, 0]), (x <= 2, [1, 1, 0]),
                          (x > 2, [0, 0, 1]), (x >= 2, [0, 1, 1]),
                          (x == 2, [0, 1, 0]), (x != 2, [1, 0, 1])]:
        assert got.dtype == np.bool_
        np.testing.assert_array_equal(got.numpy(), np.array(expected, bool))


def test_integer_results(backend):
    assert ops.argmax(pycg.constant([1.0, 3.0])).dtype == np.int32
    assert ops.arange(4).dtype == np.int32
    assert ops.arange(0.0, 1.0, 0.5).dtype == np.float32


# ---- zero and absent gradients ----------------------------------------------
@pytest.mark.parametrize("name", ["sign", "floor", "ceil", "round"])
def test_step_functions_have_a_zero_gradient(backend, name):
    x = pycg.constant(np.array([-1.3, 0.4, 2.6]))
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = getattr(ops, name)(x)
    g = tape.gradient(y, x)
    assert g is not None and g.dtype == np.float64
    np.testing.assert_array_equal(g.numpy(), np.zeros(3))


@pytest.mark.parametrize("name", ["equal", "not_equal", "less", "less_equal",
                                  "greater", "greater_equal"])
def test_comparisons_have_no_gradient(backend, name):
    x = pycg.constant(np.array([-1.0, 0.5, 2.0]))
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = getattr(ops, name)(x, 0.5)
    assert tape.gradient(y, x) is None


def test_a_comparison_inside_where_only_selects(backend):
    x = pycg.constant(np.array([-1.0, 2.0]))
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = ops.where(x > 0, x * x, -x)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [-1.0, 4.0])


@pytest.mark.parametrize("make", [
    lambda x: ops.argmax(x), lambda x: ops.isnan(x), lambda x: ops.isfinite(x),
    lambda x: ops.zeros_like(x), lambda x: ops.ones_like(x),
    lambda x: ops.full_like(x, 2.0), lambda x: ops.stop_gradient(x)])
def test_non_differentiable_ops_give_no_gradient(backend, make):
    x = pycg.constant(np.array([1.0, 2.0]))
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = make(x)
    assert tape.gradient(y, x) is None


def test_stop_gradient_blocks_one_path_only(backend):
    x = pycg.constant(3.0)
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = x * pycg.stop_gradient(x)
    assert float(tape.gradient(y, x)) == 3.0


def test_a_python_float_beside_an_integer_tensor_makes_floatx_in_every_op(
        backend):
    # one rule for every op that takes two operands, not only + - * /
    ints = pycg.constant([1, 2])
    picked = ops.where(pycg.constant([True, False]), ints, 0.5)
    assert picked.dtype == np.float32 and picked.numpy().tolist() == [1, 0.5]
    assert ops.maximum(ints, 1.5).numpy().tolist() == [1.5, 2.0]
