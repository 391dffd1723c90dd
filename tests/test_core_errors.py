"""Bad input gives a clear error, never a wrong number; each message is
pinned here."""
import re

import numpy as np
import pytest

import pycg
from pycg import ops


def m23():
    return pycg.constant(np.ones((2, 3)))


def m42():
    return pycg.constant(np.ones((4, 2)))


# ---- values that are not numbers --------------------------------------------
@pytest.mark.parametrize("value, shown", [
    ("abc", "str 'abc'"), (None, "NoneType None"), ({"a": 1}, "dict {'a': 1}"),
    ([1.0, "a"], "list [1.0, 'a']")])
def test_a_non_numeric_value_is_refused(backend, value, shown):
    with pytest.raises(TypeError, match=re.escape(
            "pycg.convert_to_tensor: expected numbers or arrays of numbers, "
            f"got {shown}")):
        pycg.constant(value)


def test_a_non_numeric_operand_names_the_op(backend):
    with pytest.raises(TypeError, match="pycg.ops.add: expected numbers or "
                       "arrays of numbers, got str 'a'"):
        ops.add("a", 1.0)
    with pytest.raises(TypeError, match="pycg.ops.exp: expected numbers"):
        ops.exp(None)


def test_a_ragged_list_is_refused(backend):
    with pytest.raises(ValueError, match="pycg.convert_to_tensor: ragged or "
                       "mixed nested list"):
        pycg.constant([[1.0, 2.0], [3.0]])
    with pytest.raises(ValueError, match="pycg.ops.multiply: ragged or mixed "
                       "nested list"):
        ops.multiply(m23(), [[1.0], [1.0, 2.0]])


# ---- shape mismatches name the op and both shapes ---------------------------
BROADCAST = ["add", "subtract", "multiply", "divide", "power", "maximum",
             "minimum", "arctan2", "logaddexp", "equal", "less"]


@pytest.mark.parametrize("name", BROADCAST)
def test_binary_ops_name_both_shapes(backend, name):
    with pytest.raises(ValueError, match=re.escape(
            f"pycg.ops.{name}: shapes (2, 3) and (4, 2) cannot be broadcast "
            "together")):
        getattr(ops, name)(m23(), m42())


def test_operators_name_the_op_and_both_shapes(backend):
    with pytest.raises(ValueError, match=re.escape(
            "pycg.ops.add: shapes (2, 3) and (4, 2) cannot be broadcast")):
        m23() + m42()
    with pytest.raises(ValueError, match=re.escape(
            "pycg.ops.matmul: shapes (2, 3) and (4, 2) are incompatible "
            "(3 != 4)")):
        m23() @ m42()


@pytest.mark.parametrize("call, message", [
    (lambda: ops.where(np.ones((2, 2), bool), m23(), 1.0),
     "pycg.ops.where: shapes (2, 2) and (2, 3) cannot be broadcast"),
    (lambda: ops.matmul(m23(), m42()),
     "pycg.ops.matmul: shapes (2, 3) and (4, 2) are incompatible (3 != 4)"),
    (lambda: ops.dot(m23(), m42()),
     "pycg.ops.dot: shapes (2, 3) and (4, 2) are incompatible (3 != 4)"),
    (lambda: ops.tensordot(m23(), m42(), 1),
     "pycg.ops.tensordot: shapes (2, 3) and (4, 2) do not match on axes [1] "
     "and [0]"),
    (lambda: ops.concatenate([m23(), m42()]),
     "pycg.ops.concatenate: shapes (2, 3) and (4, 2) differ outside axis 0"),
    (lambda: ops.stack([m23(), m42()]),
     "pycg.ops.stack: shapes (2, 3) and (4, 2) differ"),
    (lambda: ops.reshape(m23(), (4,)),
     "pycg.ops.reshape: cannot reshape a tensor of shape (2, 3) (6 elements) "
     "into shape (4,)"),
    (lambda: ops.broadcast_to(m23(), (3, 3)),
     "pycg.ops.broadcast_to: cannot broadcast shape (2, 3) to (3, 3)"),
    (lambda: ops.solve(pycg.constant(np.eye(3)), m42()),
     "pycg.ops.solve: `a` has shape (3, 3) but `b` has shape (4, 2)"),
    (lambda: ops.inv(m23()),
     "pycg.ops.inv: expected a square matrix (or a batch of them), got shape "
     "(2, 3)"),
    (lambda: ops.einsum("ij,jk->ik", m23(), m23()),
     "pycg.ops.einsum: 'ij,jk->ik' does not fit shapes [(2, 3), (2, 3)]"),
])
def test_shape_mismatch_names_the_op_and_both_shapes(backend, call, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        call()


@pytest.mark.parametrize("call, error, message", [
    (lambda: ops.sum(m23(), axis=2), ValueError,
     "pycg.ops.sum: axis 2 is out of range for a tensor of rank 2"),
    (lambda: ops.split(m23(), 2, axis=1), ValueError,
     "pycg.ops.split: axis 1 of length 3 cannot be split into 2 equal "
     "sections"),
    (lambda: ops.squeeze(m23(), 0), ValueError,
     "pycg.ops.squeeze: axis 0 has length 2, not 1 (shape (2, 3))"),
    (lambda: ops.transpose(m23(), (0, 0)), ValueError,
     "pycg.ops.transpose: axes (0, 0) is not a permutation of the 2 axes"),
    (lambda: m23()[5], IndexError,
     "pycg.ops.getitem: index 5 is out of bounds for axis 0 with size 2 "
     "(tensor shape (2, 3))"),
    (lambda: ops.take(m23(), [0.5]), TypeError,
     "pycg.ops.take: indices must be integers, got dtype float64"),
    (lambda: ops.pad(m23(), 1, mode="median"), ValueError,
     "pycg.ops.pad: mode must be 'constant', 'reflect', 'symmetric', 'edge' "
     "or 'wrap'; got 'median'"),
    (lambda: ops.where(m23(), 1.0), ValueError,
     "pycg.ops.where: pass both x1 and x2, or neither"),
    (lambda: ops.norm(m23(), ord=3), ValueError,
     "pycg.ops.norm: ord=3 over 2 axes is not supported"),
    (lambda: len(pycg.constant(1.0)), TypeError,
     "len() of a 0-d pycg.Tensor"),
])
def test_bad_arguments_to_ops(backend, call, error, message):
    with pytest.raises(error, match=re.escape(message)):
        call()


# ---- gradients of integers --------------------------------------------------
def test_watching_an_integer_tensor_warns_and_gives_none(backend):
    i = pycg.constant(2)
    with pycg.GradientTape() as tape:
        with pytest.warns(UserWarning, match="GradientTape.watch: a tensor of "
                          "dtype int32 was watched; only floating and complex "
                          "tensors get gradients, so its gradient will be "
                          "None"):
            tape.watch(i)
        y = i * i
    assert tape.gradient(y, i) is None


def test_an_integer_source_next_to_a_float_one_gets_none(backend):
    i, x = pycg.constant(3), pycg.constant(2.0)
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = x * ops.cast(i, "float32")
    gi, gx = tape.gradient(y, [i, x])
    assert gi is None
    assert float(gx) == 3.0


def test_grad_of_an_integer_argument_raises(backend):
    with pytest.raises(TypeError, match=re.escape(
            "pycg.value_and_grad(square): argument 0 has dtype int32; "
            "differentiate with respect to floating inputs (write 2.0, not "
            "2)")):
        def square(x):
            return x * x
        pycg.grad(square)(2)


def test_a_trainable_integer_variable_is_refused(backend):
    with pytest.raises(TypeError, match="pycg.Variable: a trainable variable "
                       "must have a floating dtype, got int32; pass "
                       "trainable=False"):
        pycg.Variable(1)
    assert pycg.Variable(1, trainable=False).dtype == np.int32


# ---- tape misuse ------------------------------------------------------------
def test_watch_after_the_tape_exited(backend):
    with pycg.GradientTape() as tape:
        pass
    with pytest.raises(RuntimeError, match=re.escape(
            "GradientTape.watch: the tape is not recording (its `with` block "
            "has exited or was never entered); call watch() inside `with "
            "pycg.GradientTape() as tape:`")):
        tape.watch(pycg.constant(1.0))


def test_second_gradient_call_on_a_non_persistent_tape(backend):
    x = pycg.constant(1.0)
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    tape.gradient(y, x)
    with pytest.raises(RuntimeError, match=re.escape(
            "GradientTape.gradient can only be called once on a "
            "non-persistent tape; create the tape with "
            "pycg.GradientTape(persistent=True) to call it more than once")):
        tape.gradient(y, x)


def test_gradient_of_a_non_tensor(backend):
    x = pycg.constant(1.0)
    with pycg.GradientTape() as tape:
        tape.watch(x)
    with pytest.raises(TypeError, match="GradientTape.gradient: every sources "
                       "must be a pycg.Tensor or Variable, got float"):
        tape.gradient(x, 1.0)


def test_output_gradients_must_match_the_targets(backend):
    x = pycg.constant(np.ones(3))
    with pycg.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * 2
    with pytest.raises(ValueError, match="GradientTape.gradient: 2 "
                       "output_gradients for 1 targets"):
        tape.gradient(y, x, output_gradients=[np.ones(3), np.ones(3)])
    with pytest.raises(ValueError, match=re.escape(
            "GradientTape.gradient: output_gradients entry has shape (2,) but "
            "its target has shape (3,)")):
        tape.gradient(y, x, output_gradients=np.ones(2))


def test_variable_assign_of_another_shape(backend):
    v = pycg.Variable(np.ones(2), name="w")
    with pytest.raises(ValueError, match=re.escape(
            "pycg.Variable.assign: value has shape (3,) but variable 'w' has "
            "shape (2,)")):
        v.assign(np.ones(3))


# ---- configuration ----------------------------------------------------------
def test_unknown_backend_name(backend):
    with pytest.raises(ValueError, match=re.escape(
            "pycg: unknown backend 'mxnet'; valid backends are 'tensorflow', "
            "'numpy', 'jax', 'torch'")):
        pycg.config.set_backend("mxnet")


def test_unknown_floatx():
    with pytest.raises(ValueError, match="pycg.config.set_floatx: expected "
                       "'float16', 'float32' or 'float64', got 'float8'"):
        pycg.config.set_floatx("float8")
    assert pycg.config.floatx() == "float32"


# ---- check_gradients reports a wrong gradient -------------------------------
def _shown(text):
    """The arrays a check_gradients failure shows: pycg's and the finite
    differences."""
    blocks = re.search(r"pycg \(analytic\):\n(.*)\n  finite differences "
                       r"\(numeric\):\n(.*)$", text, re.S)
    return [np.array(re.sub(r"[\[\]]", " ", b).split(), float)
            for b in blocks.groups()]


def test_check_gradients_names_the_function_and_argument(backend):
    def half_blind(x, y):
        return ops.sum(x * ops.stop_gradient(x) * y)

    with pytest.raises(AssertionError) as info:
        pycg.check_gradients(half_blind, np.array([1.0, 2.0]), 3.0)
    assert str(info.value).startswith(
        "check_gradients(half_blind): the gradient for argument 0 (`x`) "
        "differs from finite differences (rtol=1e-05, atol=1e-06, eps=1e-06; "
        "the narrowest precision computed is float64)\n  compared: f's "
        "gradient, as pycg.grad gives it, against central finite differences "
        "of f; largest difference 6\n")


def test_check_gradients_of_a_non_scalar_shows_the_gradient_of_its_sum(
        backend):
    def half_blind(x):
        return x * ops.stop_gradient(x)    # tape: x, truth: 2x

    x = np.array([[1.0, 2.0], [3.0, -4.0]])
    with pytest.raises(AssertionError) as info:
        pycg.check_gradients(half_blind, x)
    text = str(info.value)
    assert "  compared: f's output has shape (2, 2), so the gradient of " \
        "sum(f(...) * v), for a fixed random v of that shape, against its " \
        "central finite differences (every entry of f's Jacobian counts)" \
        in text
    # shown: f's own gradient (of the sum of its output), in full, as
    # pycg.grad of the sum gives it, and its finite differences
    analytic, numeric = _shown(text)
    np.testing.assert_allclose(analytic, x.ravel())
    np.testing.assert_allclose(numeric, 2 * x.ravel(), rtol=1e-6)
    assert "    [[ 1.  2.]\n     [ 3. -4.]]" in text   # with its shape


def test_check_gradients_says_when_the_sum_hides_the_difference(backend):
    @pycg.custom_gradient
    def swapped(x):   # the rule swaps the two rows of the Jacobian of 2x
        return 2 * x, lambda g: 2 * ops.flip(g, axis=0)

    with pytest.raises(AssertionError) as info:
        pycg.check_gradients(swapped, np.array([1.0, 2.0]))
    text = str(info.value)
    assert "finite differences (these agree: the difference cancels in " \
        "the sum):" in text
    analytic, numeric = _shown(text)
    np.testing.assert_allclose(analytic, [2, 2])
    np.testing.assert_allclose(numeric, [2, 2], rtol=1e-6)


def test_check_gradients_of_a_scalar_shows_the_gradient_itself(backend):
    def half_blind(x):
        return ops.sum(x * ops.stop_gradient(x))

    with pytest.raises(AssertionError) as info:
        pycg.check_gradients(half_blind, np.array([1.0, 2.0]))
    text = str(info.value)
    assert "projection" not in text and "random" not in text
    analytic, numeric = _shown(text)
    np.testing.assert_allclose(analytic, [1, 2])   # the tape's: x
    np.testing.assert_allclose(numeric, [2, 4], rtol=1e-6)   # truth: 2x


def test_check_gradients_of_second_derivatives_says_what_was_compared(
        backend):
    @pycg.custom_gradient
    def off(x):   # first derivative right at the point, second wrong
        return x * x, lambda g: g * 2 * ops.stop_gradient(x)

    with pytest.raises(AssertionError) as info:
        pycg.check_gradients(off, 0.3, order=2)
    text = str(info.value)
    assert "second derivatives (along a fixed random direction) for " \
        "argument 0 (`x`) differ" in text
    assert "(a Hessian-vector product)" in text
    analytic, numeric = _shown(text)
    # second derivative 0 by the rule, 2 in truth; times the random w
    np.testing.assert_allclose(analytic, [0.0], atol=1e-12)
    assert abs(numeric[0]) > 0.1


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16"])
def test_check_gradients_takes_its_step_from_the_dtype_computed(backend,
                                                                dtype):
    x = np.array([0.3, 1.7, -2.0])   # float64, computed in `dtype`
    pycg.check_gradients(lambda x: ops.sum(ops.cast(x, dtype) ** 2), x)
    pycg.check_gradients(
        lambda x: ops.cast(ops.tanh(ops.cast(x, dtype)), "float64"), x)
    if dtype == "float32":
        pycg.check_gradients(lambda x: ops.sum(ops.cast(x, dtype) ** 3), x,
                             order=2)


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16"])
def test_check_gradients_in_low_precision_still_catches_a_wrong_rule(
        backend, dtype):
    @pycg.custom_gradient
    def off(x):   # the gradient of x**2 is 2x; this rule gives 2.5x
        return x * x, lambda g: g * 2.5 * x

    with pytest.raises(AssertionError, match=(
            r"check_gradients\(<lambda>\): the gradient for argument 0 \(`x`\) "
            r"differs .*the narrowest precision computed is " + dtype)):
        pycg.check_gradients(lambda x: ops.sum(off(ops.cast(x, dtype))),
                             np.array([0.3, 1.7, -2.0]))


def test_check_gradients_passes_a_right_gradient(backend):
    pycg.check_gradients(lambda x, y: ops.sin(x) * y, np.array([0.3, 1.0]),
                         np.array([2.0, -1.0]))


def test_check_gradients_order_must_be_1_or_2():
    with pytest.raises(ValueError, match="pycg.check_gradients: order must "
                       "be 1 or 2, got 3"):
        pycg.check_gradients(ops.sin, 1.0, order=3)
