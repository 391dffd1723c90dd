"""JAX kernels (jax.numpy, jax.lax). Values are jax.Array: concrete
arrays, or JAX's tracers inside jax.jit, jax.grad and jax.vmap (pycg.to_jax),
on whatever device JAX places them. Arrays are immutable: a variable's
assign() replaces its array. 64-bit dtypes need JAX's 64-bit mode, which
pycg leaves as the user set it (see core.py). _edges.py holds the kernels
where jax.numpy's answer at bool and complex inputs is not NumPy's."""
import jax as _jax

# the kernels, each file's __all__ (backends.kernels), later files over
# earlier ones
from pycg.backends.jax.core import *  # noqa: F403
from pycg.backends.jax.numpy import *  # noqa: F403
from pycg.backends.jax.math import *  # noqa: F403
from pycg.backends.jax.nn import *  # noqa: F403
from pycg.backends.jax.linalg import *  # noqa: F403
from pycg.backends.jax._edges import *  # noqa: F403

name = "jax"
# what a kernel raises when an allocation cannot fit (XLA's runtime error
# says RESOURCE_EXHAUSTED; other runtime errors are not memory)
out_of_memory = (MemoryError, _jax.errors.JaxRuntimeError)
