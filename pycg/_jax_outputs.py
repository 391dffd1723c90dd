"""f's result as pycg.function's jax.jit computation returns it
(pycg/compile_jax.py): JAX returns arrays in its own containers only, so a
result that holds Python values beside its tensors travels as an Outputs,
a JAX pytree node whose children are the arrays and whose static part is
the rest; and which leaves are arrays (DYNAMIC)."""
import threading

import numpy as np

from pycg import structure
from pycg.tensor import Tensor, convert_to_tensor

DYNAMIC = object()   # marks a leaf passed to jax.jit as an array
_LOCK = threading.Lock()   # (the pytree registration, once)


class Outputs:
    """f's result where it holds Python values beside its tensors (JAX
    returns arrays only): its tensors' arrays (a JAX pytree node's
    children) and, static, its structure and other leaves."""

    def __init__(self, static, arrays):
        self.static, self.arrays = static, arrays

    def rebuild(self):
        tree, kinds = self.static
        it = iter(self.arrays)
        return structure.unflatten(tree, [
            Tensor(next(it)) if k is DYNAMIC else k for k in kinds])


class Static(tuple):
    """(structure, leaves) of one trace, compared by identity."""

    __hash__ = object.__hash__

    def __eq__(self, other):
        return self is other


def outputs(out, finals, store_values):
    """What jax.jit returns: f's result as arrays in its own containers
    (JAX's native pytrees) or, where it holds Python values, an Outputs;
    and {index: new array} of the variables the trace assigned."""
    assigned = {i: new for i, (new, old) in enumerate(
        zip(finals, store_values)) if new is not old}
    if isinstance(out, Tensor):
        return out._value, assigned
    leaves = [convert_to_tensor(o) if number(o) else o
              for o in structure.flatten(out)]   # (as tf.function)
    if all(o is None or isinstance(o, Tensor) for o in leaves):
        return structure.unflatten(out, [
            None if o is None else o._value for o in leaves]), assigned
    kinds = [DYNAMIC if isinstance(o, Tensor) else o for o in leaves]
    static = Static((structure.unflatten(out, [None] * len(leaves)), kinds))
    return Outputs(static, [o._value for o in leaves
                             if isinstance(o, Tensor)]), assigned


_registered, ARRAYS = [], set()


def register_static():
    """Outputs as a JAX pytree node: its arrays the children, the rest
    static (compared by identity: each trace makes its own)."""
    with _LOCK:   # (once, whichever thread makes the first pycg.function)
        if not _registered:
            import jax
            jax.tree_util.register_pytree_node(
                Outputs, lambda o: (o.arrays, o.static),
                lambda static, arrays: Outputs(static, list(arrays)))
            ARRAYS.add(type(jax.numpy.zeros(())))
            _registered.append(True)


def number(a):
    """A result that comes back as a Tensor, as from tf.function: a Python
    number, a NumPy array or scalar of numbers."""
    return isinstance(a, (int, float, complex, np.generic, np.ndarray)) and \
        getattr(a, "dtype", np.dtype("f")).kind in "biufc"
