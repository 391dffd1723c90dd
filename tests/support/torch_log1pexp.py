"""log(1 + exp(x)) with its gradient written as PyTorch asks, a
torch.autograd.Function: the oracle of the pycg.to_torch tests for the
rule of tests/support/log1pexp_case.py (import after
pytest.importorskip("torch"))."""
import torch


class TorchLog1pexp(torch.autograd.Function):
    """The same rule, written as PyTorch asks (the oracle), forward mode
    (jvp) and torch.func's vmap included."""
    generate_vmap_rule = True

    @staticmethod
    def forward(x):
        return torch.log(1 + torch.exp(x))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])
        ctx.save_for_forward(inputs[0])

    @staticmethod
    def backward(ctx, upstream):
        x, = ctx.saved_tensors
        return upstream * (1 - 1 / (1 + torch.exp(x)))

    @staticmethod
    def jvp(ctx, tangent):
        x, = ctx.saved_tensors
        return tangent * (1 - 1 / (1 + torch.exp(x)))
