"""Variables that hold state for optimizers and seed generators.

They are created eagerly even when first needed while a pycg.function
traces, so a compiled step can build its optimizer on its first call."""
import sys

import numpy as np

from pycg import backends
from pycg.tensor import _LOCKS, Tensor, Variable


def state_variable(value, dtype, name=None):
    """A non-trainable Variable holding `value` (a NumPy array or number)."""
    with backends.active.outside_graph():
        return Variable(np.asarray(value, dtype=dtype), trainable=False,
                        name=name)


def read_and_add(variable, delta):
    """The value of `variable` before adding `delta` to it, read and added
    as one step, also inside a compiled function that runs on several
    threads at once (a SeedGenerator's state: no two draws share a seed)."""
    variable._value  # noqa: B018  (moves its storage to the active backend)
    K = backends.active
    with _LOCKS[variable._id % len(_LOCKS)]:   # (Variable._update's lock)
        old, variable._store = K.read_and_add(
            variable._store, K.convert(np.asarray(delta, variable.dtype)))
    return Tensor(old)


def counter_dtype():
    """The dtype of counters and seeds: int64, or int32 on the jax backend
    with JAX's 64-bit mode off (JAX's default), where Keras' counters are
    int32 too; the user's JAX config is left as it is."""
    if backends.active.name == "jax" and \
            not sys.modules["jax"].config.jax_enable_x64:
        return np.dtype("int32")
    return np.dtype("int64")


def var_key(variable):
    """A key that names one variable both eagerly and inside a trace (where
    pycg.function hands the function a view over the same tf.Variable)."""
    uid = getattr(variable._store, "_unique_id", None)
    return ("store", uid) if uid is not None else ("id", variable._id)
