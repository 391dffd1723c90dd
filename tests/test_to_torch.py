"""pycg.to_torch: a pycg rule as a PyTorch function (a torch.autograd.Function
over pycg's tape), checked under loss.backward(), create_graph=True,
gradcheck/gradgradcheck in float64, the torch.func transforms, an
nn.Module trained with torch.optim and torch.compile, against closed forms
and torch's own autograd.Function of the same maths."""
import numpy as np
import pytest

import pycg
from pycg import ops

torch = pytest.importorskip("torch")

from support.log1pexp_case import log1pexp, triple_gradient  # noqa: E402
from support.torch_backend import torch_backend  # noqa: E402,F401 (autouse)
from support.torch_log1pexp import TorchLog1pexp  # noqa: E402
nn = torch.nn


def f64(*values):
    return torch.tensor(values, dtype=torch.float64)


def test_the_rule_is_the_gradient_backward_uses():
    x = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
    (pycg.to_torch(triple_gradient)(x) ** 2).sum().backward()
    np.testing.assert_allclose(x.grad, 3 * 2 * x.detach().numpy(), rtol=1e-6)


def test_a_stable_rule_where_torchs_own_derivative_is_nan():
    x = torch.tensor(1000.0, requires_grad=True)
    pycg.to_torch(log1pexp)(x).backward()
    assert float(x.grad) == 1.0
    y = torch.tensor(1000.0, requires_grad=True)
    torch.log(1 + torch.exp(y)).backward()
    assert torch.isnan(y.grad)


@pytest.mark.parametrize("x", [-1.5, 0.5, 3.0])
def test_second_order_follows_the_rule_own_derivative(x):
    x = f64(x).requires_grad_()
    g, = torch.autograd.grad(pycg.to_torch(log1pexp)(x).sum(), x,
                             create_graph=True)
    h, = torch.autograd.grad(g.sum(), x)
    s = torch.sigmoid(x.detach())
    np.testing.assert_allclose(h, s * (1 - s), rtol=1e-12)


def dense(x, w, b):
    return ops.tanh(ops.matmul(x, w) + b)


def torch_dense(x, w, b):
    return torch.tanh(x @ w + b)


def test_gradcheck_and_gradgradcheck_in_float64():
    rng = np.random.default_rng(0)
    x, w, b = (torch.tensor(rng.standard_normal(s), requires_grad=True)
               for s in ((4, 3), (3, 2), (2,)))
    assert torch.autograd.gradcheck(pycg.to_torch(dense), (x, w, b))
    assert torch.autograd.gradgradcheck(pycg.to_torch(dense), (x, w, b))
    r = f64(-3.0, 0.1, 2.5).requires_grad_()
    assert torch.autograd.gradcheck(pycg.to_torch(log1pexp), (r,))
    assert torch.autograd.gradgradcheck(pycg.to_torch(log1pexp), (r,))


def test_first_and_second_order_match_torchs_autograd_on_plain_ops():
    rng = np.random.default_rng(1)
    x, w, b = (torch.tensor(rng.standard_normal(s), requires_grad=True)
               for s in ((4, 3), (3, 2), (2,)))
    grads = []
    for fn in (pycg.to_torch(dense), torch_dense):
        g = torch.autograd.grad(fn(x, w, b).pow(2).sum(), (x, w, b),
                                create_graph=True)
        grads.append(g + torch.autograd.grad(sum(t.sum() for t in g),
                                             (x, w, b)))
    for got, want in zip(*grads):
        np.testing.assert_allclose(got.detach(), want.detach(), rtol=1e-10,
                                   atol=1e-12)


def test_torch_func_grad_vmap_jacrev_and_grad_of_grad():
    f = pycg.to_torch(log1pexp)
    x = f64(-2.0, 0.3, 1.0)
    s = torch.sigmoid(x)
    np.testing.assert_allclose(
        torch.func.grad(lambda x: f(x).sum())(x), s, rtol=1e-12)
    np.testing.assert_allclose(torch.func.vmap(f)(x.reshape(3, 1)),
                               torch.nn.functional.softplus(x).reshape(3, 1),
                               rtol=1e-12)
    np.testing.assert_allclose(torch.func.jacrev(f)(x), torch.diag(s),
                               rtol=1e-12)
    np.testing.assert_allclose(
        torch.func.vmap(torch.func.grad(lambda x: f(x).sum()))(x), s,
        rtol=1e-12)
    second = torch.func.grad(torch.func.grad(lambda x: f(x).sum()))
    np.testing.assert_allclose(second(x[1]), s[1] * (1 - s[1]), rtol=1e-12)
    hessian = torch.func.jacrev(torch.func.jacrev(f))(x)
    np.testing.assert_allclose(torch.einsum("iii->i", hessian), s * (1 - s),
                               rtol=1e-12)


class Net(nn.Module):
    """784-style MLP in small: its hidden layer is `layer(x, w, b)`, the
    parameters passed as arguments."""

    def __init__(self, layer, seed=0):
        super().__init__()
        g = torch.Generator().manual_seed(seed)
        self.w = nn.Parameter(torch.randn(5, 8, generator=g) * 0.5)
        self.b = nn.Parameter(torch.zeros(8))
        self.out = nn.Linear(8, 1)
        with torch.no_grad():
            self.out.weight.copy_(torch.randn(1, 8, generator=g) * 0.3)
            self.out.bias.zero_()
        self.layer = layer

    def forward(self, x):
        return self.out(self.layer(x, self.w, self.b))


def rule_layer(x, w, b):
    return log1pexp(ops.matmul(x, w) + b)


def torch_rule_layer(x, w, b):
    return TorchLog1pexp.apply(x @ w + b)


def data(n=32, seed=3):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 5, generator=g)
    return x, torch.sin(x.sum(1, keepdim=True))


def train(net, steps=15):
    opt = torch.optim.Adam(net.parameters(), lr=0.05)
    x, y = data()
    for _ in range(steps):
        opt.zero_grad()
        nn.functional.mse_loss(net(x), y).backward()
        opt.step()
    return [p.detach().clone() for p in net.parameters()]


def test_an_nn_module_trains_with_torch_optim_as_with_an_autograd_function():
    got = train(Net(pycg.to_torch(rule_layer)))
    want = train(Net(torch_rule_layer))
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)
    assert not torch.equal(got[0], Net(torch_rule_layer).w.detach())


def test_functional_call_grads_match_the_autograd_function():
    x, y = data(8)
    grads = []
    for layer in (pycg.to_torch(rule_layer), torch_rule_layer):
        net = Net(layer)
        params = {k: v.detach() for k, v in net.named_parameters()}

        def loss(p, net=net):
            out = torch.func.functional_call(net, p, (x,))
            return nn.functional.mse_loss(out, y)
        grads.append(torch.func.grad(loss)(params))
    for k in grads[1]:
        np.testing.assert_allclose(grads[0][k], grads[1][k], rtol=1e-5,
                                   atol=1e-7)


def test_torch_compile_answers_and_breaks_the_graph_once_per_call():
    f = pycg.to_torch(log1pexp)

    def model(x):
        return (f(x * 2) * 3).sum()
    x = torch.tensor([0.3, 1.0, -2.0], requires_grad=True)
    explained = torch._dynamo.explain(model)(x)
    assert (explained.graph_count, explained.graph_break_count) == (2, 1)
    assert "torch.compiler.disable" in str(explained.break_reasons[0].reason)
    y = torch.compile(model)(x)
    y.backward()
    want = 3 * nn.functional.softplus(2 * x.detach()).sum()
    np.testing.assert_allclose(float(y.detach()), float(want), rtol=1e-5)
    np.testing.assert_allclose(x.grad, 6 * torch.sigmoid(2 * x.detach()),
                               rtol=1e-5)
