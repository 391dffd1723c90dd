"""JAX kernels (jax.numpy, jax.lax). Values are jax.Array: concrete
arrays, or JAX's tracers inside jax.jit, jax.grad and jax.vmap (pycg.to_jax),
on whatever device JAX places them. Arrays are immutable: a variable's
assign() replaces its array. 64-bit dtypes need JAX's 64-bit mode, which
pycg leaves as the user set it (see core.py). _edges.py holds the kernels
where jax.numpy's answer at bool and complex inputs is not NumPy's."""
import types as _types

import jax as _jax

from pycg.backends.jax import _edges, core, linalg, math, nn, numpy

name = "jax"
# what a kernel raises when an allocation cannot fit (XLA's runtime error
# says RESOURCE_EXHAUSTED; other runtime errors are not memory)
out_of_memory = (MemoryError, _jax.errors.JaxRuntimeError)

for _topic in (core, numpy, math, nn, linalg, _edges):
    globals().update({k: v for k, v in vars(_topic).items()
                      if not k.startswith("_")
                      and not isinstance(v, _types.ModuleType)})
