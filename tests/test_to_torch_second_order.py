"""pycg.to_torch where torch differentiates the backward: second order
follows the rules nested in the function (a rule's output in the
gradient, a rule called in another rule's gradient) by their own
gradients, as the same rules written as torch.autograd.Functions do and
as pycg.grad(pycg.grad(...)) does, under create_graph=True,
torch.func.jacrev(jacrev), hessian-vector products, a third derivative,
and torch's nested-anomaly case (test_autograd.py: a Function whose
backward calls another that returns NaN in its backward)."""
import numpy as np
import pytest

import pycg
from pycg import ops

torch = pytest.importorskip("torch")

from support.torch_backend import torch_backend  # noqa: E402,F401 (autouse)


# ---- the rules in pycg, and as torch.autograd.Functions (the oracle) ------
@pycg.custom_gradient
def scale_grad(x):
    """The identity, whose rule scales the gradient by 10."""
    return x + 0.0, lambda upstream: 10 * upstream


@pycg.custom_gradient
def square_scaled(x):
    """x ** 2, whose rule calls scale_grad: upstream * 2 * scale_grad(x)."""
    return x * x, lambda upstream: upstream * 2 * scale_grad(x)


class ScaleGrad(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x):
        return x.clone()

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, upstream):
        return 10 * upstream


class SquareScaled(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x):
        return x * x

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @staticmethod
    def backward(ctx, upstream):
        x, = ctx.saved_tensors
        return upstream * 2 * ScaleGrad.apply(x)


MODELS = {
    "a rule's output in the gradient": (
        lambda t: ops.sum(scale_grad(t) ** 2),
        lambda t: (ScaleGrad.apply(t) ** 2).sum()),
    "a rule called in another rule's gradient": (
        lambda t: ops.sum(square_scaled(t) * ops.sin(t)),
        lambda t: (SquareScaled.apply(t) * torch.sin(t)).sum()),
}


def _x():
    return torch.tensor([1.0, 2.0, -0.5], dtype=torch.float64)


def _second(fn, x):
    x = x.clone().requires_grad_()
    g, = torch.autograd.grad(fn(x), x, create_graph=True)
    h, = torch.autograd.grad((g * torch.arange(1.0, 4.0,
                                               dtype=x.dtype)).sum(), x)
    return g.detach(), h


@pytest.mark.parametrize("model", MODELS)
def test_create_graph_second_order_matches_the_autograd_functions(model):
    ours, theirs = MODELS[model]
    for got, want in zip(_second(pycg.to_torch(ours), _x()),
                         _second(theirs, _x())):
        np.testing.assert_allclose(got, want, rtol=1e-12)


@pytest.mark.parametrize("model", MODELS)
def test_jacrev_of_jacrev_matches_the_autograd_functions(model):
    ours, theirs = MODELS[model]
    got = torch.func.jacrev(torch.func.jacrev(pycg.to_torch(ours)))(_x())
    want = torch.func.jacrev(torch.func.jacrev(theirs))(_x())
    np.testing.assert_allclose(got, want, rtol=1e-12)


@pytest.mark.parametrize("model", MODELS)
def test_hessian_vector_products_match_the_autograd_functions(model):
    ours, theirs = MODELS[model]
    v = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64)
    got = torch.autograd.functional.hvp(pycg.to_torch(ours), _x(), v)
    want = torch.autograd.functional.hvp(theirs, _x(), v)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-12)
    np.testing.assert_allclose(
        torch.func.grad(lambda t: torch.dot(torch.func.grad(
            pycg.to_torch(ours))(t), v))(_x()), want[1], rtol=1e-12)


def test_the_second_order_is_pycgs_own():
    ours, _ = MODELS["a rule's output in the gradient"]
    f = pycg.to_torch(ours)
    h = torch.func.jacrev(torch.func.jacrev(f))(_x())
    want = pycg.jacobian(pycg.grad(ours))(pycg.constant(_x()))
    np.testing.assert_allclose(h, want.numpy(), rtol=1e-12)
    np.testing.assert_allclose(torch.diagonal(h), [200.0] * 3, rtol=1e-12)


@pycg.custom_gradient
def log1pexp(x):
    e = ops.exp(x)
    return ops.log(1 + e), lambda upstream: upstream * (1 - 1 / (1 + e))


def test_third_order_follows_the_rule_closed_form():
    x = torch.tensor([-1.5, 0.5, 3.0], dtype=torch.float64,
                     requires_grad=True)
    y = pycg.to_torch(log1pexp)(x).sum()
    g, = torch.autograd.grad(y, x, create_graph=True)
    h, = torch.autograd.grad(g.sum(), x, create_graph=True)
    t, = torch.autograd.grad(h.sum(), x)
    s = torch.sigmoid(x.detach())
    np.testing.assert_allclose(h.detach(), s * (1 - s), rtol=1e-12)
    np.testing.assert_allclose(t, s * (1 - s) * (1 - 2 * s), rtol=1e-10)


def test_an_input_the_output_does_not_reach_gets_none_under_create_graph():
    x, w = _x().requires_grad_(), _x().requires_grad_()
    f = pycg.to_torch(lambda a, b: ops.sum(scale_grad(a) ** 2) + 0 * ops.sum(
        ops.stop_gradient(b)))
    ga, gb = torch.autograd.grad(f(x, w), (x, w), create_graph=True,
                                 allow_unused=True)
    assert gb is None
    np.testing.assert_allclose(ga.detach(), 20 * x.detach(), rtol=1e-12)


# ---- torch's nested-anomaly case (test_autograd.py) -----------------------
SIZE = 10


@pycg.custom_gradient
def nan_in_backward(a, b):
    """MyFunc2: a * 2 + b, whose rule gives NaN in the 0th element of a's
    gradient (0 / 0) and 0 there in b's."""
    def grad(upstream):
        mask = ops.convert_to_tensor([0.0] + [1.0] * (SIZE - 1),
                                     upstream.dtype)
        return upstream * mask / mask, upstream * mask
    return a * 2.0 + b, grad


@pycg.custom_gradient
def calls_it_in_its_backward(x):
    """MyFunc: x.sum(0, keepdim=True), whose rule calls nan_in_backward."""
    def grad(upstream):
        g = ops.broadcast_to(upstream, (SIZE,))
        return nan_in_backward(g * x, g + x)
    return ops.sum(x, axis=0, keepdims=True), grad


class MyFunc(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.sum(0, keepdim=True)

    @staticmethod
    def backward(ctx, upstream):
        x, = ctx.saved_tensors
        g = upstream.clone().expand(SIZE)
        return MyFunc2.apply(g * x, g + x)


class MyFunc2(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        return a * 2.0 + b

    @staticmethod
    def backward(ctx, upstream):
        g1, g2 = upstream.clone(), upstream.clone()
        g1[0] = g2[0] = 0
        g1[0] /= 0
        return g1, g2


def _second_backward(fn, x):
    ginp, = torch.autograd.grad(fn(x), (x,), create_graph=True)
    ginp.sum().backward()
    return ginp.detach(), x.grad


def test_nested_anomaly_second_backward_matches_the_functions():
    inp = torch.rand(SIZE, dtype=torch.float64, generator=torch.Generator(
        ).manual_seed(0))
    got = _second_backward(pycg.to_torch(calls_it_in_its_backward),
                           inp.clone().requires_grad_())
    want = _second_backward(MyFunc.apply, inp.clone().requires_grad_())
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-12, equal_nan=True)
    assert torch.isnan(got[1][0]) and not torch.isnan(got[1][1:]).any()


def test_detect_anomaly_finds_the_nan_the_inner_rule_returns():
    f = pycg.to_torch(calls_it_in_its_backward)
    inp = torch.rand(SIZE, dtype=torch.float64, requires_grad=True)
    ginp, = torch.autograd.grad(f(inp), (inp,), create_graph=True)
    with pytest.warns(UserWarning, match="Error detected"), \
            pytest.raises(RuntimeError, match=r"Function "
                          r"'PycgFunctionBackward' returned nan values in "
                          r"its 0th output"):
        with torch.autograd.detect_anomaly():
            ginp.sum().backward()
