"""The one private torch API pycg.to_torch reads, in one place: whether a
torch.func transform (vmap, grad, jacrev, ...) runs around the call.
torch has no public way to ask (torch 2.13: torch.func names none; its
own autograd.Function.apply asks torch._C the same). A torch that
changes it fails here, loudly, by name, and so does
tests/test_to_torch_functorch.py, which pins what it answers."""
import sys

_API = "torch._C._functorch.peek_interpreter_stack"


def in_transform():
    """Whether a torch.func transform's interpreter is on the stack: a
    call made inside vmap, grad, jacrev or vjp (its tensors belong to the
    transform's level, and torch runs an autograd.Function through its
    setup_context there)."""
    torch = sys.modules["torch"]
    try:
        peek = torch._C._functorch.peek_interpreter_stack
    except AttributeError:
        raise RuntimeError(
            f"pycg.to_torch: this PyTorch ({torch.__version__}) has no "
            f"{_API}, which pycg.to_torch reads to know whether a "
            f"torch.func transform runs the call; pycg needs a torch that "
            f"has it (2.1 to 2.13 do): install one, or report the torch "
            f"version to pycg") from None
    return peek() is not None
