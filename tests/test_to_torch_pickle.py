"""A pycg.to_torch function pickles as torch.autograd.Function.apply does
(f by reference): an nn.Module holding one saves with torch.save, copies
with copy.deepcopy and loads to a module that computes and differentiates
as the original; the same rule written as an autograd.Function is the
oracle."""
import copy
import io
import pickle

import pytest

import pycg
from pycg import ops

torch = pytest.importorskip("torch")

from support.torch_backend import torch_backend  # noqa: E402,F401 (autouse)
from support.torch_log1pexp import TorchLog1pexp  # noqa: E402


@pycg.custom_gradient
def softplus(x):
    e = ops.exp(x)
    return ops.log(1 + e), lambda upstream: upstream * (1 - 1 / (1 + e))


class Net(torch.nn.Module):
    def __init__(self, act):
        super().__init__()
        torch.manual_seed(0)
        self.linear = torch.nn.Linear(3, 2, dtype=torch.float64)
        self.act = act

    def forward(self, x):
        return self.act(self.linear(x))


def _value_and_grads(model):
    x = torch.linspace(-2, 2, 6, dtype=torch.float64).reshape(2, 3)
    y = model(x).sum()
    y.backward()
    return y.item(), [p.grad.clone() for p in model.parameters()]


def _same(a, b):
    assert a[0] == b[0]
    assert all(torch.equal(g, h) for g, h in zip(a[1], b[1]))


def test_a_module_holding_a_to_torch_function_saves_and_loads():
    buffer = io.BytesIO()
    torch.save(Net(pycg.to_torch(softplus)), buffer)
    buffer.seek(0)
    loaded = torch.load(buffer, weights_only=False)
    _same(_value_and_grads(loaded), _value_and_grads(Net(TorchLog1pexp.apply)))


def test_a_to_torch_function_pickles_to_a_working_function():
    f = pickle.loads(pickle.dumps(pycg.to_torch(softplus)))
    assert f.__name__ == "softplus" and f.__pycg_torch_source__ is softplus
    x = torch.tensor([100.0], dtype=torch.float64, requires_grad=True)
    f(x).sum().backward()
    assert x.grad.tolist() == [1.0]


def test_a_module_holding_a_to_torch_function_deep_copies():
    model = Net(pycg.to_torch(softplus))
    _same(_value_and_grads(copy.deepcopy(model)), _value_and_grads(model))


def test_a_local_rule_cannot_pickle_and_the_error_names_it():
    @pycg.custom_gradient
    def local_rule(x):
        return x + 0.0, lambda upstream: upstream

    with pytest.raises((pickle.PicklingError, AttributeError),
                       match="local_rule"):
        pickle.dumps(pycg.to_torch(local_rule))
