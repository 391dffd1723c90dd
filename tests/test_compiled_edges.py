"""What a user off the happy path meets inside pycg.function, on the
compiling backends (tensorflow: tf.function; jax: jax.jit) and eagerly on
numpy: each case against the peer's answer (tf.function, jax.jit) or NumPy."""
import warnings

import numpy as np
import pytest

import pycg


@pytest.fixture
def compiled(backend):
    """pycg.function without the numpy backend's 'runs eagerly' warning."""
    def make(f):
        g = pycg.function(f)

        def call(*args, **kwargs):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return g(*args, **kwargs)
        return call
    return make


def test_print_of_a_traced_tensor_describes_it(compiled, backend):
    # tf.function prints Tensor("x:0", shape=(2, 3), dtype=float32) and
    # jax.jit Traced<ShapedArray(float32[2,3])>: printing while tracing
    # is how users debug; it raised pycg's "no value yet" TypeError.
    seen = []

    def f(x):
        seen.append(repr(x))
        print(x)   # (str falls back to repr)
        return x * 2.0

    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    out = compiled(f)(pycg.constant(a))
    np.testing.assert_array_equal(out.numpy(), a * 2)
    assert "shape=(2, 3)" in seen[0] and "dtype=float32" in seen[0]
    if backend == "numpy":   # (eager: the value)
        assert "numpy=" in seen[0]
    else:
        assert seen[0].endswith(" traced>"), seen[0]
    assert repr(out).startswith("<pycg.Tensor shape=(2, 3) dtype=float32 "
                                "numpy=[[ 0.  2.  4.]")


@pytest.mark.parametrize("reduce_retracing", [False, True])
def test_a_bool_flag_is_not_the_int_flag_of_the_same_value(backend,
                                                           reduce_retracing):
    # To tf.function True == 1, so f(x, True) after f(x, 1) ran 1's trace:
    # [3, 6] where the eager f gives [2, 4]. jax.jit (static arguments)
    # and the eager call tell them apart; pycg.function does on both.
    def f(x, flag, scale=None):
        y = x * (2.0 if flag is True else 3.0)
        return y if scale is not True else y * 10.0

    g = pycg.function(f, reduce_retracing=reduce_retracing)
    x = np.array([1.0, 2.0], np.float32)

    def expected(flag):   # (not a dict: True and 1 are one key there)
        return x * 2 if flag is True else x * 3

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for flag in (1, True, 1, True, 0, False):
            np.testing.assert_array_equal(
                g(pycg.constant(x), flag).numpy(), expected(flag))
        np.testing.assert_array_equal(   # (keywords and pytrees too)
            g(pycg.constant(x), flag=True, scale=True).numpy(), x * 20)
        np.testing.assert_array_equal(
            g(pycg.constant(x), flag=1, scale=1).numpy(), x * 3)
        h = pycg.function(lambda d: d["x"] * (2.0 if d["flag"] is True
                                              else 3.0))
        for flag in (1, True):
            np.testing.assert_array_equal(
                h({"x": pycg.constant(x), "flag": flag}).numpy(),
                expected(flag))
    if backend != "numpy":
        assert g.trace_count == 6   # (1, True, 0, False, two keyword calls)
