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
import types as _types

import torch as _torch

from pycg.backends.torch import _edges, _fallbacks, core, linalg, math, nn, \
    numpy

name = "torch"
# what a kernel raises when an allocation cannot fit (torch's CPU allocator
# raises a bare RuntimeError: the creation kernels make it a MemoryError)
out_of_memory = (MemoryError, _torch.OutOfMemoryError)

# unary float kernels on the hot path, as they are (the ops give them one
# float operand), and the hot kernels of two operands
_AS_THEY_ARE = frozenset(("exp", "log", "tanh", "sigmoid", "sqrt"))
_BINARY = frozenset(("add", "subtract", "multiply", "divide", "tanh_grad",
                     "sigmoid_grad", "relu_grad", "sqrt_grad", "rsqrt_grad",
                     "reciprocal_grad"))


def _wrapped(k, v):
    if k in _AS_THEY_ARE or not callable(v):
        return v
    return (_fallbacks.binary if k in _BINARY else _fallbacks.through)(k, v)


globals().update({k: v for k, v in vars(core).items()
                  if not k.startswith("_")
                  and not isinstance(v, _types.ModuleType)})
for _topic in (numpy, math, nn, linalg, _edges):
    globals().update({
        k: _wrapped(k, v) for k, v in vars(_topic).items()
        if not k.startswith("_") and not isinstance(v, _types.ModuleType)})
