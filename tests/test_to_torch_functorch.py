"""The private torch API pycg.to_torch reads (pycg/interop/_torch_functorch.py,
torch._C._functorch.peek_interpreter_stack): what it answers outside and
inside each torch.func transform is pinned here, and a torch without it
makes to_torch fail by name, so a torch that changes it fails loudly."""
import pytest

import pycg
from pycg import ops
from pycg.interop._torch_functorch import in_transform

torch = pytest.importorskip("torch")


def _seen(transform):
    seen = []

    def f(t):
        seen.append(in_transform())
        return (t * t).sum()
    transform(f)
    return seen


def test_no_transform_outside_torch_func():
    assert in_transform() is False
    with torch.enable_grad():
        assert in_transform() is False


@pytest.mark.parametrize("transform", [
    lambda f: torch.func.vmap(f)(torch.ones(2, 3)),
    lambda f: torch.func.grad(f)(torch.ones(3)),
    lambda f: torch.func.jacrev(f)(torch.ones(3)),
    lambda f: torch.func.vjp(f, torch.ones(3)),
    lambda f: torch.func.grad(torch.func.grad(f))(torch.tensor(2.0))],
    ids=["vmap", "grad", "jacrev", "vjp", "grad-of-grad"])
def test_a_transform_is_seen_inside_each_torch_func_transform(transform):
    assert _seen(transform) == [True]


def test_a_torch_without_the_api_fails_by_name(monkeypatch):
    monkeypatch.delattr(torch._C._functorch, "peek_interpreter_stack")
    with pytest.raises(RuntimeError, match=r"pycg\.to_torch: this PyTorch "
                       r"\(.*\) has no torch\._C\._functorch\."
                       r"peek_interpreter_stack, which pycg\.to_torch reads"):
        pycg.to_torch(lambda t: ops.exp(t))(torch.ones(2))
