"""Forward values of every public op against NumPy, on both backends;
dtype rules; ops whose gradient is zero or absent."""
import importlib
import math
import pathlib
import warnings

import numpy as np
import pytest

import pycg
from pycg import ops

RNG = np.random.default_rng(0)
X = RNG.standard_normal((2, 3))
Y = RNG.standard_normal((3,))
P = RNG.uniform(0.5, 2.0, (2, 3))
U = RNG.uniform(-0.9, 0.9, (2, 3))
STEPS = np.array([[-2.5, -1.5, -0.6], [0.5, 1.4, 2.5]])
M = RNG.standard_normal((3, 3)) + 3 * np.eye(3)
SPD = M @ M.T
B = RNG.standard_normal((3, 2))
COND = X > 0
_erf = np.vectorize(math.erf)


def t(a):
    return pycg.constant(a)


def unary(name, ref, a=X):
    return (lambda: getattr(ops, name)(t(a)), lambda: ref(a))


def binary(name, ref, a=X, b=Y):
    return (lambda: getattr(ops, name)(t(a), t(b)), lambda: ref(a, b))


def np_sigmoid(x):
    return 1 / (1 + np.exp(-x))


def np_softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def np_logsumexp(x, axis=None):
    return np.log(np.sum(np.exp(x), axis=axis))


def np_gelu_tanh(x):
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi)
                                  * (x + 0.044715 * x ** 3)))


# name -> (pycg thunk, NumPy thunk); thunks so tensors are made under the
# backend of the test.
VALUES = {
    "abs": unary("abs", np.abs),
    "negative": unary("negative", np.negative),
    "sqrt": unary("sqrt", np.sqrt, P),
    "rsqrt": unary("rsqrt", lambda a: 1 / np.sqrt(a), P),
    "square": unary("square", np.square),
    "reciprocal": unary("reciprocal", np.reciprocal, P),
    "exp": unary("exp", np.exp),
    "expm1": unary("expm1", np.expm1),
    "log": unary("log", np.log, P),
    "log1p": unary("log1p", np.log1p, P),
    "log2": unary("log2", np.log2, P),
    "log10": unary("log10", np.log10, P),
    "sin": unary("sin", np.sin),
    "cos": unary("cos", np.cos),
    "tan": unary("tan", np.tan, U),
    "arcsin": unary("arcsin", np.arcsin, U),
    "arccos": unary("arccos", np.arccos, U),
    "arctan": unary("arctan", np.arctan),
    "sinh": unary("sinh", np.sinh),
    "cosh": unary("cosh", np.cosh),
    "tanh": unary("tanh", np.tanh),
    "erf": unary("erf", _erf),
    "sigmoid": unary("sigmoid", np_sigmoid),
    "softplus": unary("softplus", lambda a: np.log1p(np.exp(a))),
    "relu": unary("relu", lambda a: np.maximum(a, 0)),
    "silu": unary("silu", lambda a: a * np_sigmoid(a)),
    "gelu": unary("gelu", np_gelu_tanh),
    "elu": unary("elu", lambda a: np.where(a > 0, a, np.expm1(a))),
    "softmax": unary("softmax", np_softmax),
    "log_softmax": unary("log_softmax", lambda a: np.log(np_softmax(a))),
    "logsumexp": unary("logsumexp", np_logsumexp),
    "sign": unary("sign", np.sign, STEPS),
    "floor": unary("floor", np.floor, STEPS),
    "ceil": unary("ceil", np.ceil, STEPS),
    "round": unary("round", np.round, STEPS),
    "isnan": unary("isnan", np.isnan, np.array([1.0, np.nan, np.inf])),
    "isfinite": unary("isfinite", np.isfinite,
                      np.array([1.0, np.nan, -np.inf])),
    "logical_not": unary("logical_not", np.logical_not, COND),
    "add": binary("add", np.add),
    "subtract": binary("subtract", np.subtract),
    "multiply": binary("multiply", np.multiply),
    "divide": binary("divide", np.divide, b=P[0]),
    "true_divide": binary("true_divide", np.true_divide, b=P[0]),
    "power": binary("power", np.power, P, Y),
    "mod": binary("mod", np.mod, b=P[0]),
    "floor_divide": binary("floor_divide", np.floor_divide, b=P[0]),
    "maximum": binary("maximum", np.maximum),
    "minimum": binary("minimum", np.minimum),
    "arctan2": binary("arctan2", np.arctan2),
    "logaddexp": binary("logaddexp", np.logaddexp),
    "equal": binary("equal", np.equal, STEPS, np.array([-2.5, 0.0, -0.6])),
    "not_equal": binary("not_equal", np.not_equal, STEPS,
                        np.array([-2.5, 0.0, -0.6])),
    "less": binary("less", np.less),
    "less_equal": binary("less_equal", np.less_equal, STEPS, STEPS[0]),
    "greater": binary("greater", np.greater),
    "greater_equal": binary("greater_equal", np.greater_equal, STEPS,
                            STEPS[1]),
    "logical_and": binary("logical_and", np.logical_and, COND, COND[::-1]),
    "logical_or": binary("logical_or", np.logical_or, COND, COND[::-1]),
    "clip": (lambda: ops.clip(t(X), -0.5, 0.5), lambda: np.clip(X, -0.5, 0.5)),
    "where": (lambda: ops.where(t(COND), t(X), t(Y)),
              lambda: np.where(COND, X, Y)),
    "sum": (lambda: ops.sum(t(X), axis=1), lambda: np.sum(X, axis=1)),
    "mean": (lambda: ops.mean(t(X), axis=0, keepdims=True),
             lambda: np.mean(X, axis=0, keepdims=True)),
    "prod": (lambda: ops.prod(t(X)), lambda: np.prod(X)),
    "max": (lambda: ops.max(t(X), axis=-1), lambda: np.max(X, axis=-1)),
    "min": (lambda: ops.min(t(X)), lambda: np.min(X)),
    "var": (lambda: ops.var(t(X), axis=1), lambda: np.var(X, axis=1)),
    "std": (lambda: ops.std(t(X)), lambda: np.std(X)),
    "cumsum": (lambda: ops.cumsum(t(X), axis=1),
               lambda: np.cumsum(X, axis=1)),
    "argmax": (lambda: ops.argmax(t(X), axis=1),
               lambda: np.argmax(X, axis=1)),
    "argmin": (lambda: ops.argmin(t(X)), lambda: np.argmin(X)),
    "real": unary("real", np.real),
    "imag": unary("imag", np.imag),
    "conj": unary("conj", np.conj),
    "reshape": (lambda: ops.reshape(t(X), (3, -1)),
                lambda: np.reshape(X, (3, -1))),
    "ravel": unary("ravel", np.ravel),
    "transpose": unary("transpose", np.transpose),
    "swapaxes": (lambda: ops.swapaxes(t(X), 0, 1),
                 lambda: np.swapaxes(X, 0, 1)),
    "expand_dims": (lambda: ops.expand_dims(t(X), -1),
                    lambda: np.expand_dims(X, -1)),
    "squeeze": (lambda: ops.squeeze(t(X[:1])), lambda: np.squeeze(X[:1])),
    "broadcast_to": (lambda: ops.broadcast_to(t(Y), (2, 3)),
                     lambda: np.broadcast_to(Y, (2, 3))),
    "concatenate": (lambda: ops.concatenate([t(X), t(X[:1])], axis=0),
                    lambda: np.concatenate([X, X[:1]], axis=0)),
    "stack": (lambda: ops.stack([t(X), t(P)], axis=-1),
              lambda: np.stack([X, P], axis=-1)),
    "split": (lambda: ops.split(t(X), [1, 2], axis=1),
              lambda: np.split(X, [1, 2], axis=1)),
    "tile": (lambda: ops.tile(t(X), (2, 2)), lambda: np.tile(X, (2, 2))),
    "repeat": (lambda: ops.repeat(t(X), [1, 3], axis=0),
               lambda: np.repeat(X, [1, 3], axis=0)),
    "take": (lambda: ops.take(t(X), [[2, 0]], axis=1),
             lambda: np.take(X, [[2, 0]], axis=1)),
    "take_along_axis": (
        lambda: ops.take_along_axis(t(X), np.array([[2], [0]]), axis=1),
        lambda: np.take_along_axis(X, np.array([[2], [0]]), axis=1)),
    "slice": (lambda: ops.slice(t(X), (0, 1), (2, 2)), lambda: X[0:2, 1:3]),
    "flip": (lambda: ops.flip(t(X), axis=0), lambda: np.flip(X, axis=0)),
    "pad": (lambda: ops.pad(t(X), ((0, 1), (2, 0)), constant_values=3.0),
            lambda: np.pad(X, ((0, 1), (2, 0)), constant_values=3.0)),
    "getitem": (lambda: t(X)[::-1, [0, 2, 2]], lambda: X[::-1, [0, 2, 2]]),
    "matmul": binary("matmul", np.matmul, X, B),
    "dot": binary("dot", np.dot, X, Y),
    "tensordot": (lambda: ops.tensordot(t(X), t(B), axes=1),
                  lambda: np.tensordot(X, B, axes=1)),
    "einsum": (lambda: ops.einsum("ij,jk->ki", t(X), t(B)),
               lambda: np.einsum("ij,jk->ki", X, B)),
    "outer": binary("outer", np.outer, Y, Y[:2]),
    "norm": (lambda: ops.norm(t(X), ord=np.inf),
             lambda: np.linalg.norm(X, ord=np.inf)),
    "cholesky": unary("cholesky", np.linalg.cholesky, SPD),
    "inv": unary("inv", np.linalg.inv, M),
    "det": unary("det", np.linalg.det, M),
    "solve": binary("solve", np.linalg.solve, M, B),
    "slogdet": unary("slogdet", lambda a: tuple(np.linalg.slogdet(a)), -M),
    "cast": (lambda: ops.cast(t(STEPS), "int32"),
             lambda: STEPS.astype(np.int32)),
    "convert_to_tensor": (lambda: ops.convert_to_tensor([[1, 2], [3, 4]]),
                          lambda: np.array([[1, 2], [3, 4]])),
    "convert_to_numpy": unary("convert_to_numpy", np.asarray),
    "shape": (lambda: ops.shape(t(X)), lambda: X.shape),
    "stop_gradient": unary("stop_gradient", np.asarray),
    "zeros": (lambda: ops.zeros((2, 1)), lambda: np.zeros((2, 1))),
    "ones": (lambda: ops.ones(3, dtype="int32"), lambda: np.ones(3)),
    "full": (lambda: ops.full((2, 2), 7.5), lambda: np.full((2, 2), 7.5)),
    "zeros_like": unary("zeros_like", np.zeros_like),
    "ones_like": unary("ones_like", np.ones_like),
    "full_like": (lambda: ops.full_like(t(X), -1.0),
                  lambda: np.full_like(X, -1.0)),
    "eye": (lambda: ops.eye(3, 4, k=1), lambda: np.eye(3, 4, k=1)),
    "arange": (lambda: ops.arange(1, 10, 3), lambda: np.arange(1, 10, 3)),
    "linspace": (lambda: ops.linspace(0, 1, 5), lambda: np.linspace(0, 1, 5)),
}

for _path in sorted((pathlib.Path(__file__).parent / "support").glob(
        "values_cases_*.py")):
    _extra = importlib.import_module(f"support.{_path.stem}").VALUES
    _clash = set(_extra) & set(VALUES)
    assert not _clash, f"{_path.name} repeats cases for {sorted(_clash)}"
    VALUES.update(_extra)


def _public_ops():
    return {n for n in ops.__all__ if callable(getattr(ops, n))}


def _assert_same(got, expected, name):
    if isinstance(expected, (tuple, list)) and not isinstance(got, tuple) \
            and not isinstance(got, list):
        assert got == expected, name
        return
    if isinstance(expected, (tuple, list)):
        assert len(got) == len(expected), name
        for g, e in zip(got, expected):
            _assert_same(g, e, name)
        return
    if isinstance(got, pycg.Tensor):
        assert pycg.config.backend() in type(got._value).__module__, \
            f"{name}: the result does not live on the active backend"
        got = got.numpy()
    got, expected = np.asarray(got), np.asarray(expected)
    assert got.shape == expected.shape, name
    assert (got.dtype == bool) == (expected.dtype == bool), name
    np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-12,
                               err_msg=name)


def test_every_public_op_has_a_value_case():
    from test_ops_keras_numpy import CHECKED
    missing = sorted(_public_ops() - set(VALUES) - CHECKED)
    assert not missing, f"ops without a forward-value test: {missing}"


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


@pytest.mark.parametrize("name", sorted(VALUES))
def test_op_value_matches_numpy(backend, name):
    if not hasattr(ops, name):
        pytest.fail(f"pycg.ops has no {name}")
    got, expected = VALUES[name]
    _assert_same(got(), expected(), name)


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
