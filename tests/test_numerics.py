"""NaN and Inf flow through gradients without raising; gradients keep the
float dtype of their input."""
import math
import warnings

import numpy as np
import pytest

import pycg
from pycg import ops
from pycg.core import recorder as core

# NumPy warns where it makes inf or nan; here they are the point
pytestmark = pytest.mark.filterwarnings(
    "ignore:.*encountered in:RuntimeWarning")


def gradient(f, x):
    x = pycg.constant(x)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # numpy's 1/0
        with pycg.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        return y, tape.gradient(y, x)


# ---- NaN and Inf ------------------------------------------------------------
@pytest.mark.parametrize("f, x, expected", [
    (ops.sqrt, 0.0, math.inf),
    (ops.log, 0.0, math.inf),
    (lambda x: ops.power(x, 0.5), 0.0, math.inf),
    (ops.tanh, math.nan, math.nan),
    (lambda x: x * math.nan, 1.0, math.nan),
    (lambda x: x * math.inf, 1.0, math.inf),
    (lambda x: ops.exp(x) * 0.0, 1000.0, math.nan),
    (ops.arcsin, 1.0, math.inf),
])
def test_nan_and_inf_propagate_through_the_gradient(backend, f, x, expected):
    _, g = gradient(f, np.float64(x))
    got = float(g)
    if math.isnan(expected):
        assert math.isnan(got)
    else:
        assert got == expected


def test_the_naive_log1pexp_gradient_is_nan_at_100(backend):
    y, g = gradient(lambda x: ops.log(1 + ops.exp(x)), np.float32(100.0))
    assert float(y) == math.inf
    assert math.isnan(float(g))


def test_a_nan_in_one_element_stays_in_that_element(backend):
    _, g = gradient(lambda x: ops.sum(ops.sqrt(x)),
                    np.array([4.0, -1.0, 0.0]))
    a = g.numpy()
    assert a[0] == 0.25 and math.isnan(a[1]) and a[2] == math.inf


def test_inf_in_output_gradients_reaches_the_source(backend):
    x = pycg.constant(np.array([1.0, 2.0]))
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = x * 3.0
    g = tape.gradient(y, x, output_gradients=np.array([math.inf, 1.0]))
    np.testing.assert_array_equal(g.numpy(), [math.inf, 3.0])


def test_check_numerics_names_the_op_where_nan_appears(backend):
    x = pycg.constant(np.float32(100.0))
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = ops.log(1 + ops.exp(x))
    with pycg.debug.check_numerics():
        with pytest.raises(FloatingPointError, match="pycg.debug.check_numeri"
                           "cs: NaN appeared in the gradient for input 0 of "
                           "the op 'exp'; its forward inputs range over "
                           r"\[100, 100\]"):
            tape.gradient(y, x)
    assert core.set_numerics_check(None) is None


def test_check_numerics_names_the_op_where_inf_appears(backend):
    x = pycg.constant(np.array([0.0, 1.0]))
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = ops.sqrt(x)
    with pycg.debug.check_numerics():
        with pytest.raises(FloatingPointError, match="Inf appeared in the "
                           "gradient for input 0 of the op 'sqrt'; its "
                           r"forward inputs range over \[0, 1\]"):
            tape.gradient(y, x)


def test_check_numerics_lets_finite_gradients_through(backend):
    x = pycg.constant(2.0)
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = ops.exp(x) * x
    with pycg.debug.check_numerics():
        assert float(tape.gradient(y, x)) == pytest.approx(3 * math.exp(2.0))


# ---- gradients keep the float dtype -----------------------------------------
FUNCTIONS = {
    "elementwise": (lambda x: ops.sin(x) * ops.exp(x) - x / 3.0,
                    lambda x: np.cos(x) * np.exp(x) + np.sin(x) * np.exp(x)
                    - 1 / 3),
    "activations": (lambda x: ops.sigmoid(x) + ops.softplus(x) + ops.relu(x),
                    lambda x: _sig(x) * (1 - _sig(x)) + _sig(x) + (x > 0)),
    "tanh_erf": (lambda x: ops.tanh(x) + ops.erf(x),
                 lambda x: 1 - np.tanh(x) ** 2
                 + 2 / math.sqrt(math.pi) * np.exp(-x * x)),
    "reductions": (lambda x: ops.mean(x * x) + ops.max(x),
                   lambda x: 2 * x / x.size + (x == x.max())),
    "log_space": (lambda x: ops.logsumexp(x), lambda x: _softmax(x)),
    "matmul": (lambda x: ops.matmul(ops.reshape(x, (2, 2)),
                                    ops.reshape(x, (2, 2))),
               lambda x: _matmul_square_grad(x)),
    "indexing": (lambda x: ops.concatenate([x[::-1], x[:2] * 2.0]),
                 lambda x: np.array([3.0, 3.0, 1.0, 1.0])),
    "where_clip": (lambda x: ops.where(x > 0, x * x, ops.clip(x, -0.5, 0.5)),
                   lambda x: np.where(x > 0, 2 * x, np.abs(x) < 0.5)),
    "scalar_power": (lambda x: x ** 2 + 2.0 ** x,
                     lambda x: 2 * x + np.log(2) * 2.0 ** x),
}
X = np.array([-1.25, -0.25, 0.5, 1.5])


def _sig(x):
    return 1 / (1 + np.exp(-x))


def _softmax(x):
    e = np.exp(x - x.max())
    return e / e.sum()


def _matmul_square_grad(x):
    a = x.reshape(2, 2)
    ones = np.ones((2, 2))
    return (ones @ a.T + a.T @ ones).ravel()


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_gradient_has_the_dtype_of_its_input(backend, name, dtype):
    f, df = FUNCTIONS[name]
    x = X.astype(dtype)
    y, g = gradient(f, x)
    assert y.dtype == np.dtype(dtype)
    assert g.dtype == np.dtype(dtype)
    rtol = {"float16": 1e-2, "float32": 1e-5, "float64": 1e-12}[dtype]
    np.testing.assert_allclose(g.numpy().astype(np.float64),
                               df(x.astype(np.float64)), rtol=rtol,
                               atol=rtol)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_second_derivative_has_the_dtype_of_its_input(backend, dtype):
    x = pycg.constant(np.array([0.5, 1.0], dtype))
    with pycg.GradientTape() as outer:
        outer.watch(x)
        with pycg.GradientTape() as inner:
            inner.watch(x)
            y = ops.sum(x * x * x)
        g = inner.gradient(y, x)
    h = outer.gradient(g, x)
    assert g.dtype == h.dtype == np.dtype(dtype)
    np.testing.assert_allclose(h.numpy(), [3.0, 6.0])


def test_a_cast_sends_the_gradient_back_in_the_source_dtype(backend):
    x = pycg.constant(np.array([1.0, 2.0], np.float16))
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = ops.cast(x, "float64") * pycg.constant(np.array([3.0, 4.0]))
    g = tape.gradient(y, x)
    assert g.dtype == np.float16
    np.testing.assert_array_equal(g.numpy(), [3.0, 4.0])


def test_cached_scalar_constants_keep_the_sign_of_zero(backend):
    # 1 / (-0.0) is -inf and 1 / 0.0 is inf, whichever zero was used first
    one = pycg.constant(1.0)
    assert float(ops.divide(1.0, one * -0.0)) == -math.inf
    assert float(ops.divide(1.0, one * 0.0)) == math.inf
    assert float(ops.divide(1.0, ops.add(one * 0.0, -0.0))) == math.inf


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_cached_scalar_constants_an_int_and_an_equal_float(backend, dtype):
    # whichever of 3 and 3.0 (or 2**24 + 1 and its float) comes first, each
    # is the number in the tensor's dtype, as NumPy converts it
    x = pycg.constant(np.array(0.25, dtype))
    for number in (3, 3.0, 2 ** 24 + 1, float(2 ** 24 + 1), 2.5, 7, 7.0):
        want = np.array(0.25, dtype) + np.array(number, dtype)
        for got in (x + number, number + x, ops.add(x, number)):
            assert got.dtype == np.dtype(dtype)
            assert got.numpy().tobytes() == want.tobytes()


def test_cached_scalar_constants_stay_right_past_the_cache_bound(backend):
    # the caches are cleared past 4,096 numbers; the numbers seen before
    # and after the clear are each still the number in the tensor's dtype
    x = pycg.constant(np.array([0.5, 2.0], "float32"))
    numbers = [i + 0.25 for i in range(5000)] + [3, 3.0, 0.25]
    for number in numbers + numbers[:10]:
        want = np.array([0.5, 2.0], "float32") * np.float32(number)
        assert (x * number).numpy().tobytes() == want.tobytes()
