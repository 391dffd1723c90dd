"""What a pycg.to_torch function cannot join, each refused with an error
that names pycg.to_torch and the user's function and says what to use
instead: torch.jit.trace and torch.compile(fullgraph=True); torch's
forward mode (jvp, jacfwd, hessian) and the reverse-mode Hessian agree
with the same rule written as a torch.autograd.Function."""
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


def _x():
    return torch.tensor([-1.0, 0.5, 2.0], dtype=torch.float64)


def test_jit_trace_names_to_torch_and_what_to_use():
    with pytest.raises(RuntimeError, match=r"pycg\.to_torch\(softplus\): "
                       r"torch\.jit\.trace cannot record softplus.*use "
                       r"torch\.compile \(without fullgraph=True"):
        torch.jit.trace(pycg.to_torch(softplus), (_x(),))


def test_compile_fullgraph_names_to_torch_and_what_to_use():
    f = torch.compile(pycg.to_torch(softplus), fullgraph=True)
    with pytest.raises(Exception, match=r"pycg\.to_torch\(softplus\) runs "
                       r"eagerly between compiled graphs.*compile without "
                       r"fullgraph=True"):
        f(_x())


@pytest.mark.parametrize("transform", [
    lambda f: torch.func.jvp(f, (_x(),),
                             (torch.ones(3, dtype=torch.float64),))[1],
    lambda f: torch.func.jacfwd(f)(_x()),
    lambda f: torch.func.hessian(lambda t: f(t).sum())(_x())],
    ids=["jvp", "jacfwd", "hessian"])
def test_forward_mode_agrees_with_the_autograd_function(transform):
    # (torch's forward mode of a pycg rule: pycg's jvp; the Function's own
    # forward mode is torch's of its softplus ops, the same maths)
    got = transform(pycg.to_torch(softplus))
    want = transform(TorchLog1pexp.apply)
    assert torch.allclose(got, want, rtol=1e-12, atol=0)


def test_the_reverse_mode_hessian_it_names_matches_the_autograd_function():
    f = pycg.to_torch(softplus)
    got = torch.func.jacrev(torch.func.jacrev(lambda t: f(t).sum()))(_x())
    want = torch.func.jacrev(torch.func.jacrev(
        lambda t: TorchLog1pexp.apply(t).sum()))(_x())
    assert torch.allclose(got, want, rtol=1e-12, atol=0)
    assert torch.allclose(torch.autograd.functional.hessian(
        lambda t: f(t).sum(), _x()), want, rtol=1e-12, atol=0)
