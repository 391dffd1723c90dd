"""The numpy backend is as silent as TensorFlow where a value overflows or
is invalid: no RuntimeWarning from pycg's kernels, the inf and nan still
flow, np.errstate(..., "raise") still raises, and NumPy in the user's own
code still warns."""
import math
import warnings

import numpy as np
import pytest

import pycg
from pycg import ops


@pytest.fixture
def on_numpy():
    previous = pycg.backends.active.name
    pycg.config.set_backend("numpy")
    yield
    pycg.config.set_backend(previous)


def _recorded(fn):
    with warnings.catch_warnings(record=True) as log:
        out = fn()
    return out, [w for w in log if issubclass(w.category, RuntimeWarning)]


def test_overflow_and_invalid_are_silent_and_flow(on_numpy):
    def run():
        x = pycg.constant(100.0)
        with pycg.GradientTape() as tape:
            tape.watch(x)
            y = ops.exp(x) * ops.log(x - 200.0)
        return y, tape.gradient(y, x)
    (y, g), log = _recorded(run)
    assert log == []
    assert math.isnan(float(y)) and math.isnan(float(g))


def test_a_users_errstate_raise_still_raises(on_numpy):
    with np.errstate(over="raise"):
        with pytest.raises(FloatingPointError):
            ops.exp(pycg.constant(100.0))


def test_numpy_in_user_code_still_warns(on_numpy):
    ops.exp(pycg.constant(100.0))   # the filter is installed
    with pytest.warns(RuntimeWarning, match="overflow"):
        np.exp(np.float32(100.0))


R_NA = np.frombuffer(np.uint64(0x7FF00000000007A2).tobytes(), np.float64)[0]


@pytest.mark.parametrize("nan", [math.nan, R_NA], ids=["nan", "R_NA"])
def test_reductions_of_a_nan_are_silent_and_nan(on_numpy, nan):
    # np.max/np.sum warn "invalid value encountered in reduce" from NumPy's
    # own frames (R's NA, a signalling NaN, trips it even in a sum); pycg's
    # kernels reduce through the ufunc, from pycg's frame
    x = pycg.constant(np.array([2.0, nan, 5.0]))
    outs, log = _recorded(lambda: [ops.max(x), ops.min(x), ops.sum(x),
                                   ops.prod(x), ops.mean(x)])
    assert log == []
    assert all(math.isnan(float(o)) for o in outs)


def test_cumprod_through_inf_times_zero_is_silent(on_numpy):
    out, log = _recorded(lambda: ops.cumprod(
        pycg.constant(np.array([0.0, math.inf, 1.0]))))
    assert log == []
    np.testing.assert_array_equal(out.numpy(), [0.0, math.nan, math.nan])
