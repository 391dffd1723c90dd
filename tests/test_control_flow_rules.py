"""A pycg.custom_gradient rule called inside traced control flow (ops.cond,
while_loop, fori_loop, scan, switch, map inside pycg.function, tensorflow
backend) is the gradient TensorFlow uses there, as it is eagerly: the rules
below scale the true derivative, so a test passes only if the rule ran."""
import numpy as np
import pytest

import pycg
from pycg import ops


@pytest.fixture(autouse=True)
def _tensorflow(tf_backend):
    yield


@pycg.custom_gradient
def triple(x):   # forward: x; rule: 3 g
    return x * 1.0, lambda g: g * 3.0


@pycg.custom_gradient
def cube_rule(x):   # forward: x; rule: 3 x**2 g, itself differentiable
    return x * 1.0, lambda g: g * 3.0 * x * x


LOSSES = {
    "cond": lambda x: ops.sum(ops.cond(ops.sum(x) > 0, lambda: triple(x),
                                       lambda: x)),
    "cond closed over": lambda x: ops.sum(ops.cond(
        ops.sum(x) > 0, lambda: triple(x * 2.0), lambda: x)),
    "while_loop": lambda x: ops.sum(ops.while_loop(
        lambda i, v: i < 2, lambda i, v: (i + 1, triple(v)), (0, x))[1]),
    "fori_loop": lambda x: ops.sum(ops.fori_loop(
        0, 2, lambda i, v: triple(v), x)),
    "scan": lambda x: ops.sum(ops.scan(
        lambda c, v: (c + triple(v), c), ops.zeros((), x.dtype), x)[0]),
    "switch": lambda x: ops.sum(ops.switch(
        ops.cast(ops.sum(x) > 0, "int32"), [lambda v: v, triple], x)),
    "map": lambda x: ops.sum(ops.map(triple, x)),
    "nested cond": lambda x: ops.sum(ops.cond(
        ops.sum(x) > 0, lambda: ops.cond(ops.sum(x) > 1, lambda: triple(x),
                                         lambda: x), lambda: x)),
}
# closed forms: each triple() call multiplies the gradient by 3
WANT = {"cond": 3, "cond closed over": 6, "while_loop": 9, "fori_loop": 9,
        "scan": 3, "switch": 3, "map": 3, "nested cond": 3}


@pytest.mark.parametrize("jit_compile", [False, True])
@pytest.mark.parametrize("name", sorted(LOSSES))
def test_a_custom_rule_holds_inside_traced_control_flow(name, jit_compile):
    x = pycg.constant(np.array([1.0, 2.0], np.float32))
    loss = LOSSES[name]
    eager = pycg.grad(loss)(x)
    traced = pycg.function(lambda x: pycg.grad(loss)(x),
                           jit_compile=jit_compile)(x)
    np.testing.assert_allclose(eager.numpy(), [WANT[name]] * 2)
    np.testing.assert_allclose(traced.numpy(), [WANT[name]] * 2)


def test_second_derivative_through_a_rule_in_a_traced_cond():
    def loss(x):
        return ops.sum(ops.cond(ops.sum(x) > 0, lambda: cube_rule(x),
                                lambda: x))

    x = pycg.constant(np.array([1.0, 2.0]))
    # d/dx of the rule 3 x**2: 6 x (the Hessian's diagonal)
    hess = pycg.function(lambda x: pycg.grad(
        lambda v: ops.sum(pycg.grad(loss)(v)))(x))(x)
    np.testing.assert_allclose(hess.numpy(), [6.0, 12.0])


def test_a_rule_inside_a_tape_inside_a_traced_branch_holds():
    def inner(x):   # the branch computes a gradient of its own
        return pycg.grad(lambda v: ops.sum(triple(v) * v))(x)

    x = pycg.constant(np.array([1.0, 2.0]))
    got = pycg.function(lambda x: ops.cond(ops.sum(x) > 0,
                                           lambda: inner(x),
                                           lambda: x))(x)
    # d/dv sum(triple(v) * v) = 3 v (through the rule) + v
    np.testing.assert_allclose(got.numpy(), [4.0, 8.0])


def test_a_variable_read_by_a_rule_in_a_traced_branch_raises():
    w = pycg.Variable(2.0, name="w")

    @pycg.custom_gradient
    def scaled(x):
        def grad(g, variables=None):
            return g * w, [ops.sum(g * x)]
        return x * w, grad

    def loss(x):
        return ops.sum(ops.cond(ops.sum(x) > 0, lambda: scaled(x),
                                lambda: x))

    x = pycg.constant(np.array([1.0, 2.0]))
    step = pycg.function(lambda x: pycg.grad(loss)(x))
    with pytest.raises(ValueError, match=(
            r"scaled: this custom_gradient function reads a Variable it does "
            r"not take as an argument, where TensorFlow differentiates it "
            r"\(inside ops.cond, .* pass the Variable to scaled as an "
            r"argument")):
        step(x)


def test_a_variable_passed_to_a_rule_in_a_traced_branch_gets_its_gradient():
    w = pycg.Variable(2.0, name="w")

    @pycg.custom_gradient
    def scaled(x, w):
        return x * w, lambda g: (g * w, ops.sum(g * x) * 10.0)

    def loss(x):
        return ops.sum(ops.cond(ops.sum(x) > 0, lambda: scaled(x, w),
                                lambda: x))

    @pycg.function
    def step(x):
        with pycg.GradientTape() as tape:
            y = loss(x)
        return tape.gradient(y, w)

    x = pycg.constant(np.array([1.0, 2.0]))
    np.testing.assert_allclose(step(x).numpy(), 30.0)
