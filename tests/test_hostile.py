"""Hostile input: each a clear exception naming what was wrong, nothing
left half-recorded on the tape, and the tape still usable after."""
import numpy as np
import pytest

import pycg
from pycg import ops


@pytest.fixture
def tape_and_x(backend):
    x = pycg.constant([1.0, 2.0])
    tape = pycg.GradientTape(persistent=True)
    with tape:
        tape.watch(x)
        y = x * 2
    return tape, x, y


def _unchanged(tape, fn):
    n = len(tape._rec.entries)
    with tape:
        fn()
    assert len(tape._rec.entries) == n


@pytest.mark.parametrize("bad,match", [
    ("a string", r"pycg.ops.add: expected numbers or arrays of numbers, "
                 r"got str 'a string'"),
    (object(), r"pycg.ops.add: expected numbers .* got object"),
    ([[1.0, 2.0], [3.0]], r"pycg.ops.add: ragged or mixed nested list"),
    (None, r"pycg.ops.add: expected numbers .* got NoneType"),
    ((i for i in range(2)), r"pycg.ops.add: expected numbers .* got "
                            r"generator"),
])
def test_bad_operands_name_the_op_and_what_arrived(tape_and_x, bad, match):
    tape, x, _ = tape_and_x
    with pytest.raises((TypeError, ValueError), match=match):
        _unchanged(tape, lambda: ops.add(x, bad))


def test_mismatched_shapes_name_the_op_and_both_shapes(tape_and_x):
    tape, x, _ = tape_and_x
    with pytest.raises(ValueError, match=r"pycg.ops.multiply: shapes \(2,\) "
                       r"and \(3,\) cannot be broadcast together"):
        _unchanged(tape, lambda: x * pycg.constant([1.0, 2.0, 3.0]))
    with pytest.raises(ValueError, match=r"pycg.ops.matmul: shapes \(2, 3\) "
                       r"and \(2, 3\) are incompatible \(3 != 2\)"):
        _unchanged(tape, lambda: ops.matmul(ops.ones((2, 3)),
                                            ops.ones((2, 3))))


def test_none_everywhere(tape_and_x):
    tape, x, y = tape_and_x
    with pytest.raises(TypeError, match="every target must be a pycg.Tensor"
                       " or Variable, got NoneType"):
        tape.gradient(None, x)
    with pytest.raises(TypeError, match="every sources must be a pycg.Tensor"
                       " or Variable, got NoneType"):
        tape.gradient(y, None)
    with tape:
        with pytest.raises(TypeError, match="GradientTape.watch: expected a "
                           "pycg.Tensor or Variable .* got NoneType"):
            tape.watch(None)
    assert tape.gradient(y, x).numpy().tolist() == [2.0, 2.0]


def test_grad_fn_returning_none_everywhere_gives_no_gradient(backend):
    @pycg.custom_gradient
    def f(x, y):
        return x * y, lambda g: (None, None)

    x, y = pycg.constant(1.0), pycg.constant(2.0)
    with pycg.GradientTape() as tape:
        tape.watch([x, y])
        z = f(x, y)
    assert tape.gradient(z, [x, y]) == [None, None]


def test_tape_reused_after_its_context_failed(backend):
    x = pycg.constant(3.0)
    tape = pycg.GradientTape(persistent=True)
    with pytest.raises(ZeroDivisionError):
        with tape:
            tape.watch(x)
            y = x * x
            1 / 0  # noqa: B018 (the error inside the block)
    assert float(tape.gradient(y, x)) == 6.0
    with tape:  # re-entering resumes recording
        z = y * x
    assert float(tape.gradient(z, x)) == 27.0


def test_forward_error_midway_leaves_the_tape_usable(backend):
    x = pycg.constant([1.0, 2.0])
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = ops.sum(x * x)
        with pytest.raises(ValueError):
            ops.reshape(x, (3,))
        z = y * 2
    assert tape.gradient(z, x).numpy().tolist() == [4.0, 8.0]


def test_wrong_structure_of_output_gradients(tape_and_x):
    tape, x, y = tape_and_x
    with pytest.raises(ValueError, match=r"output_gradients entry has shape "
                       r"\(3,\) but its target has shape \(2,\)"):
        tape.gradient(y, x, output_gradients=[np.ones(3, np.float32)])
    with pytest.raises(ValueError, match=r"2 output_gradients for 1 "
                       r"targets"):
        tape.gradient(y, x, output_gradients=[np.ones(2), np.ones(2)])


def test_unknown_unconnected_gradients_value(tape_and_x):
    tape, x, y = tape_and_x
    with pytest.raises(ValueError, match="unconnected_gradients must be "
                       "'none' or 'zero', got 'zeros'"):
        tape.gradient(y, x, unconnected_gradients="zeros")


@pytest.mark.parametrize("value", [10**30, 2**40, [2**40, 1]])
def test_a_python_int_that_does_not_fit_int32_is_a_pycg_error(backend,
                                                               value):
    # Keras' TensorFlow backend: "Can't convert Python sequence with
    # out-of-range integer to Tensor" for 10**30; pycg's Python ints are
    # int32 (Keras' rule), so 2**40 is refused by name too, not wrapped;
    # an OverflowError, as NumPy's and JAX's
    with pytest.raises(OverflowError, match=r"^pycg.ops.abs: .* does not fit "
                       r"int32 \(Python ints become int32, as in Keras\); "
                       r"pass floats"):
        ops.abs(value)
    assert ops.abs(-2**31 + 1).numpy() == 2**31 - 1
