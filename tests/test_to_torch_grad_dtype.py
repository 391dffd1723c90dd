"""A leaf's ``grad_dtype`` (torch 2.13: None lets its gradient keep the
dtype it comes in; a dtype casts to it) decides the dtype of the gradient
a pycg.to_torch rule gives it, as torch's engine decides for a
torch.autograd.Function returning the same gradient (the oracle); a leaf
left at its default, or an input that is not a leaf, gets its own dtype."""
import pytest

import pycg
from pycg import ops

torch = pytest.importorskip("torch")

from support.torch_backend import torch_backend  # noqa: E402,F401 (autouse)
if not hasattr(torch.ones(1, requires_grad=True), "grad_dtype"):
    pytest.skip("this torch has no Tensor.grad_dtype", allow_module_level=True)

RULE_DTYPES = ("float16", "float32", "float64")
SETTINGS = ("default", None, "float64")




def _pair(rule_dtype):
    """The identity whose rule gives 3 * upstream in `rule_dtype`: in pycg,
    and as a torch.autograd.Function."""
    @pycg.custom_gradient
    def triple(x):
        return x + 0.0, lambda up: ops.cast(up, rule_dtype) * 3

    class Triple(torch.autograd.Function):
        @staticmethod
        def forward(x):
            return x.clone()

        @staticmethod
        def setup_context(ctx, inputs, output):
            pass

        @staticmethod
        def backward(ctx, up):
            return up.to(getattr(torch, rule_dtype)) * 3

    return pycg.to_torch(triple), Triple.apply


def _leaf_grad(f, setting):
    x = torch.tensor([0.1, 0.7], requires_grad=True)
    if setting != "default":
        x.grad_dtype = None if setting is None else getattr(torch, setting)
    f(x).sum().backward()
    return x.grad


@pytest.mark.parametrize("setting", SETTINGS)
@pytest.mark.parametrize("rule_dtype", RULE_DTYPES)
def test_a_leafs_grad_dtype_decides_as_for_an_autograd_function(
        rule_dtype, setting):
    f, oracle = _pair(rule_dtype)
    got, want = _leaf_grad(f, setting), _leaf_grad(oracle, setting)
    assert got.dtype == want.dtype
    assert got.tolist() == want.tolist()


@pytest.mark.parametrize("rule_dtype", RULE_DTYPES)
def test_an_input_that_is_not_a_leaf_gets_its_own_dtype(rule_dtype):
    f, oracle = _pair(rule_dtype)
    for g in (f, oracle):
        x = torch.tensor([0.1, 0.7], requires_grad=True)
        y = x * 1
        grad, = torch.autograd.grad(g(y).sum(), y)
        assert grad.dtype == torch.float32
