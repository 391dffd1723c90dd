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
