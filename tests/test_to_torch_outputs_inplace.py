"""An output of a pycg.to_torch function changed in place before the
backward: the gradient is the call's (the rule reads the values f made, as
a torch.autograd.Function's does under allow_mutation_on_saved_tensors),
never the rule applied to the changed values. Closed forms: with y = exp(x)
and y.mul_(2) recorded by autograd, d sum(y) / dx = 2 exp(x); with the
change made under no_grad (outside autograd), exp(x)."""
import math

import pytest

import pycg
from pycg import ops

torch = pytest.importorskip("torch")

X = [0.5, -1.0, 2.0]


@pycg.custom_gradient
def exp_rule(x):
    y = ops.exp(x)
    return y, lambda upstream: upstream * y   # (reads the output)


class ExpFunction(torch.autograd.Function):
    """The same rule as torch users write it (the second oracle)."""

    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, g):
        y, = ctx.saved_tensors
        return g * y


def _x():
    return torch.tensor(X, dtype=torch.float64, requires_grad=True)


def _closed(k):
    return torch.tensor([k * math.exp(v) for v in X], dtype=torch.float64)


def test_an_output_doubled_in_place_gives_the_doubled_outputs_gradient():
    f = pycg.to_torch(exp_rule)
    x = _x()
    y = f(x)
    y.mul_(2)
    y.sum().backward()
    torch.testing.assert_close(x.grad, _closed(2))
    with torch.autograd.graph.allow_mutation_on_saved_tensors():
        x_f, x_p = _x(), _x()
        y_f, y_p = ExpFunction.apply(x_f), f(x_p)
        y_f.mul_(2)
        y_p.mul_(2)
        (y_f.sum() + y_p.sum()).backward()
    torch.testing.assert_close(x_f.grad, _closed(2))
    torch.testing.assert_close(x_p.grad, _closed(2))


def test_an_output_changed_outside_autograd_leaves_the_calls_gradient():
    f = pycg.to_torch(exp_rule)
    x = _x()
    y = f(x)
    with torch.no_grad():
        y.mul_(2)
    y.sum().backward()
    torch.testing.assert_close(x.grad, _closed(1))


def test_under_torch_func_vjp_an_output_changed_leaves_the_calls_gradient():
    f = pycg.to_torch(exp_rule)
    out, vjp = torch.func.vjp(f, _x().detach())
    with torch.no_grad():
        out.mul_(3)
    g, = vjp(torch.ones(3, dtype=torch.float64))
    torch.testing.assert_close(g, _closed(1))


def test_an_output_left_alone_keeps_the_forwards_tape():
    calls = []

    @pycg.custom_gradient
    def counted(x):
        calls.append(1)
        y = ops.exp(x)
        return y, lambda upstream: upstream * y

    f = pycg.to_torch(counted)
    x = _x()
    f(x).sum().backward()
    torch.testing.assert_close(x.grad, _closed(1))
    assert len(calls) == 1   # (no second run of f when nothing changed)
