"""torch kernels. Values are torch.Tensor on whatever device torch puts
them (its default device, `torch.set_default_device`, for values made from
data; a kernel's result on its inputs' device). Tensors are never changed
in place: a variable's assign() replaces its tensor. pycg's tape does the
autodiff; torch's autograd records none of these kernels (core.py).

The backend is this package: its kernels are the public names of its topic
files (core, numpy, math, nn, linalg: the same files in every backend), then
_edges.py (answers where torch's kernels differ from NumPy's at bool and
complex inputs). Each kernel but the core's and the unary float ones
(one operand, a float: nothing to fall back on) runs again where torch
refuses its operands (_fallbacks.py: uint16, uint32 and uint64 through
signed dtypes, operands on the CPU and another device all on the other).
The retry costs nothing until torch refuses; a hot kernel of two operands
gets a wrapper of fixed arity."""
import torch as _torch

# the kernels: core.py's as they are, then each topic file's (its __all__,
# backends.kernels; later files over earlier ones) run again where torch
# refuses its operands (_kernels.py, _fallbacks.py)
from pycg.backends.torch.core import *  # noqa: F403
from pycg.backends.torch._kernels import *  # noqa: F403

name = "torch"
# what a kernel raises when an allocation cannot fit (torch's CPU allocator
# raises a bare RuntimeError: the creation kernels make it a MemoryError)
out_of_memory = (MemoryError, _torch.OutOfMemoryError)
