"""The R border refuses a tensor that a recording tape differentiates
through (pycg.core.recorder.carries_gradient, asked by pycg/r/interop.py
to_r, call_method and to_numpy): as PyTorch's .numpy() of a tensor that
requires grad. What carries no gradient converts as elsewhere. No R
needed: R/convert.R turns the None into its error."""
import numpy as np

import pycg
from pycg.core.recorder import carries_gradient
from pycg.r import interop


def test_a_watched_tensor_and_what_is_computed_from_it_carry_a_gradient(
        backend):
    x = pycg.constant(np.array([0.5, 2.0]))
    data = pycg.constant(np.array([3.0, 4.0]))
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = pycg.ops.exp(x) * data
        assert carries_gradient(x) and carries_gradient(y)
        assert not carries_gradient(data)
        assert not carries_gradient(x > 1.0)   # bool: no gradient
        assert not carries_gradient(pycg.ops.cast(x, "int32"))
        with tape.stop_recording():
            assert not carries_gradient(y)
    assert not carries_gradient(x) and not carries_gradient(y)


def test_a_trainable_variable_carries_a_gradient_where_a_tape_watches_reads(
        backend):
    v = pycg.Variable(np.array([1.0, 2.0]))
    frozen = pycg.Variable(np.array([1.0, 2.0]), trainable=False)
    with pycg.GradientTape():
        assert carries_gradient(v) and not carries_gradient(frozen)
    with pycg.GradientTape(watch_accessed_variables=False):
        assert not carries_gradient(v)


def test_nothing_carries_a_gradient_inside_a_custom_gradient_forward(backend):
    seen = []

    @pycg.custom_gradient
    def cube(x):
        seen.append(carries_gradient(x))
        return x ** 3, lambda g: g * 3 * x ** 2

    x = pycg.constant(np.array([0.5, 2.0]))
    with pycg.GradientTape() as outer:   # (two tapes: the forward records)
        outer.watch(x)
        with pycg.GradientTape() as inner:
            inner.watch(x)
            cube(x)
    assert seen == [False]


def test_the_r_border_hands_none_for_a_tensor_that_carries_a_gradient(
        backend):
    x = pycg.constant(np.array([0.5, 2.0]))
    with pycg.GradientTape() as tape:
        tape.watch(x)
        assert interop.to_r(x, True) is None
        assert interop.to_r(x) == interop.to_r(pycg.ops.stop_gradient(x),
                                               True)
        assert interop.call_method(x, "numpy") is None
        assert interop.call_method(x, "tolist") is None
        assert interop.call_method(x, "__len__") == 2
        assert interop.to_numpy(x) is None
    assert np.array_equal(interop.to_numpy(x), [0.5, 2.0])
    assert interop.to_r(x, True) == interop.to_r(x)
