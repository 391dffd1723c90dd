"""torch kernels. Values are torch.Tensor on whatever device torch puts
them (its default device, `torch.set_default_device`, for values made from
data; a kernel's result on its inputs' device). Tensors are never changed
in place: a variable's assign() replaces its tensor. pycg's tape does the
autodiff; torch's autograd records none of these kernels (core.py).

The backend is this package: its kernels are the public names of its topic
files (core, numpy, math, nn, linalg: the same files in every backend), then
_edges.py (answers where torch's kernels differ from NumPy's at bool and
complex inputs). Each kernel but the core's and the hottest float ones runs
again where torch refuses its operands (_fallbacks.py: uint16, uint32 and
uint64 through signed dtypes, operands on the CPU and another device all on
the other); add, subtract and multiply do that as the binary ops' edge
kernels."""
import types as _types

import torch as _torch

from pycg.backends.torch import _edges, _fallbacks, core, linalg, math, nn, \
    numpy

name = "torch"
# what a kernel raises when an allocation cannot fit (torch's CPU allocator
# raises a bare RuntimeError: the creation kernels make it a MemoryError)
out_of_memory = (MemoryError, _torch.OutOfMemoryError)

# float-only kernels on the hot path (the ops give them floats) and the
# binary ones that fall back through their edge kernels
_HOT = frozenset(("add", "subtract", "multiply", "divide", "exp", "log",
                  "tanh", "sigmoid", "sqrt", "tanh_grad", "sigmoid_grad",
                  "relu_grad", "sqrt_grad", "rsqrt_grad", "reciprocal_grad"))

globals().update({k: v for k, v in vars(core).items()
                  if not k.startswith("_")
                  and not isinstance(v, _types.ModuleType)})
for _topic in (numpy, math, nn, linalg, _edges):
    globals().update({
        k: v if k in _HOT or not callable(v) else _fallbacks.through(k, v)
        for k, v in vars(_topic).items()
        if not k.startswith("_") and not isinstance(v, _types.ModuleType)})
edge_add = _fallbacks.edge("add", numpy.add)
edge_subtract = _fallbacks.edge("subtract", numpy.subtract)
edge_multiply = _fallbacks.edge("multiply", numpy.multiply)
