"""pycg.to_torch of one custom_gradient rule called on the inputs (the
common case) keeps the call's entry and asks its backward directly, with
no tape: the gradients it gives, in each calling convention, with
variables read, several inputs and outputs, equal the closed forms and the
same maths as a torch.autograd.Function, and equal what the tape gives
(the rule called inside another function, which records on a tape)."""
import numpy as np
import pytest

import pycg
from pycg import ops

torch = pytest.importorskip("torch")

from support.torch_backend import torch_backend  # noqa: E402,F401 (autouse)


def _x():
    return torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64,
                        requires_grad=True)


def _grads(fn, *xs):
    out = fn(*xs)
    outs = out if isinstance(out, tuple) else (out,)
    sum(o.sum() * (k + 1) for k, o in enumerate(outs)).backward()
    return [x.grad.clone() for x in xs]


def _both_ways(rule, *xs):
    """The gradients of to_torch(rule) (no tape) and of to_torch of a
    function calling it (a tape)."""
    direct = _grads(pycg.to_torch(rule), *[x.detach().clone().requires_grad_()
                                         for x in xs])
    taped = _grads(pycg.to_torch(lambda *a: rule(*a)),
                   *[x.detach().clone().requires_grad_() for x in xs])
    for d, t in zip(direct, taped):
        np.testing.assert_allclose(d, t, rtol=1e-12)
    return direct


@pycg.custom_gradient
def keras_style(x):
    """x ** 3, its rule in Keras' convention (*args, upstream)."""
    def grad(*args, upstream=None):
        return upstream * 3 * args[0] ** 2
    return x ** 3, grad


def test_a_rule_in_keras_convention():
    x = _x()
    g, = _both_ways(keras_style, x)
    np.testing.assert_allclose(g, 3 * x.detach() ** 2, rtol=1e-12)


SCALE = pycg.Variable(np.array(2.5))


@pycg.custom_gradient
def reads_a_variable(x):
    """SCALE * x, its rule in TensorFlow's convention with variables."""
    def grad(upstream, variables=None):
        return upstream * SCALE, [ops.sum(upstream * x)]
    return SCALE * x, grad


def test_a_rule_that_reads_a_variable():
    x = _x()
    g, = _both_ways(reads_a_variable, x)
    np.testing.assert_allclose(g, np.full(3, 2.5), rtol=1e-12)


@pycg.custom_gradient
def two_in_two_out(a, b):
    """(a * b, a + 2 b), its rule the products by hand."""
    def grad(da, db):
        return da * b + db, da * a + 2 * db
    return (a * b, a + 2 * b), grad


class TwoInTwoOut(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b, a + 2 * b

    @staticmethod
    def backward(ctx, da, db):
        a, b = ctx.saved_tensors
        return da * b + db, da * a + 2 * db


def test_several_inputs_and_outputs_match_the_autograd_function():
    a, b = _x(), _x() * 3
    got = _both_ways(two_in_two_out, a, b)
    want = _grads(TwoInTwoOut.apply, a.detach().clone().requires_grad_(),
                  b.detach().clone().requires_grad_())
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-12)


def test_an_input_without_grad_gets_none_and_the_other_its_gradient():
    a = _x()
    b = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)
    out = pycg.to_torch(two_in_two_out)(a, b)
    (out[0].sum() + out[1].sum()).backward()
    np.testing.assert_allclose(a.grad, b + 1, rtol=1e-12)
    assert b.grad is None
