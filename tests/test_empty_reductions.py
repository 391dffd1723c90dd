"""A max, min, argmax or argmin over an axis of length 0 has no value: the
same error on both backends (keras.ops raises on its TensorFlow backend,
NumPy raises), `initial` gives one (NumPy's answer); an empty result over
a non-empty axis is an empty result."""
import numpy as np
import pytest

from pycg import ops

E = np.zeros((0,), "float32")
E2 = np.zeros((2, 0), "float32")


@pytest.mark.parametrize("call, message", [
    (lambda: ops.max(E), r"pycg.ops.max: the max over an axis of length 0 has "
     r"no value \(x has shape \(0,\), axis None\); pass initial= for one"),
    (lambda: ops.min(E2, axis=1), r"pycg.ops.min: the min over an axis of "
     r"length 0 has no value \(x has shape \(2, 0\), axis \[1\]\)"),
    (lambda: ops.max(np.zeros((0,), "int32")), r"pycg.ops.max: the max"),
    (lambda: ops.amax(E), r"pycg.ops.max: the max"),
    (lambda: ops.ptp(E), r"pycg.ops.max: the max"),
    (lambda: ops.nanmax(E), r"pycg.ops.max: the max"),
    (lambda: ops.argmax(E), r"pycg.ops.argmax: the argmax over an axis of "
     r"length 0 has no value"),
    (lambda: ops.argmin(E2, axis=-1), r"pycg.ops.argmin: the argmin"),
])
def test_an_extremum_of_nothing_is_an_error_on_both_backends(
        backend, call, message):
    with pytest.raises(ValueError, match=message):
        call()


@pytest.mark.parametrize("op, kwargs", [
    ("max", {"initial": 0.5}), ("min", {"initial": -2.0}),
    ("max", {"axis": 1, "keepdims": True, "initial": 3.0}),
    ("min", {"axis": 1, "initial": 3.0}),
])
def test_initial_is_the_extremum_of_nothing(backend, op, kwargs):
    x = E if "axis" not in kwargs else E2
    got = getattr(ops, op)(x, **kwargs)
    want = getattr(np, op)(x, **kwargs)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("op", ["max", "min", "argmax", "argmin"])
def test_a_reduction_over_a_full_axis_of_an_empty_tensor_is_empty(
        backend, op):
    got = getattr(ops, op)(E2, axis=0)
    assert got.shape == getattr(np, op)(E2, axis=0).shape == (0,)


def test_argmax_takes_one_axis(backend):
    with pytest.raises(ValueError, match=r"pycg.ops.argmax: axis must be one "
                       r"axis or None, got \(0, 1\)"):
        ops.argmax(np.ones((2, 2), "float32"), axis=(0, 1))
