"""torch kernels. Values are torch.Tensor on whatever device torch puts
them (its default device, `torch.set_default_device`, for values made from
data; a kernel's result on its inputs' device). Tensors are never changed
in place: a variable's assign() replaces its tensor. pycg's tape does the
autodiff; torch's autograd records none of these kernels (core.py).

The backend is this package: its kernels are the public names of its topic
files (core, numpy, math, nn, linalg: the same files in every backend), then
_edges.py (answers where torch's kernels differ from NumPy's at bool and
complex inputs)."""
import types as _types

import torch as _torch

from pycg.backends.torch import _edges, core, linalg, math, nn, numpy

name = "torch"
# what a kernel raises when an allocation cannot fit (torch's CPU allocator
# raises RuntimeError "... not enough memory ..."; CUDA's its own error)
out_of_memory = (MemoryError, _torch.OutOfMemoryError)

for _topic in (core, numpy, math, nn, linalg, _edges):
    globals().update({k: v for k, v in vars(_topic).items()
                      if not k.startswith("_")
                      and not isinstance(v, _types.ModuleType)})
