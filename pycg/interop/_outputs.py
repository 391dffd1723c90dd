"""What a function handed to a bridge (pycg.to_tensorflow, pycg.to_jax)
must return: pycg tensors, or a nested list/tuple/dict of them (a number
or a NumPy array among them is a constant, as tf.function and JAX take
one)."""
import numbers

import numpy as np

from pycg.tensor import Tensor, convert_to_tensor


def checked(bridge, name, out, outs, foreign, foreign_name):
    """`outs`, the flattened output `out` of the user's `name`, as pycg
    tensors (numbers and NumPy arrays of numbers converted); else the error
    of `pycg.<bridge>(name)` saying what arrived (a `foreign` array, called
    `foreign_name`, a rule, ...)."""
    who = f"pycg.{bridge}({name})"
    outs = [convert_to_tensor(o) if _constant(o) else o for o in outs]
    for o in outs:
        if isinstance(o, Tensor):
            continue
        if isinstance(o, foreign):
            raise TypeError(
                f"{who}: {name} returned {foreign_name}; it must compute "
                f"with pycg.ops on the pycg tensors it receives and return "
                f"pycg tensors")
        if callable(o):
            raise TypeError(
                f"{who}: {name} returned a function beside its output, like "
                f"an undecorated rule; decorate it with "
                f"@pycg.custom_gradient, or pass pycg.custom_gradient({name})")
        raise TypeError(
            f"{who}: {name} must return a pycg tensor or a nested "
            f"list/tuple/dict of them, got {type(o).__name__}")
    if not outs:
        raise TypeError(f"{who}: {name} returned no tensor, got "
                        f"{type(out).__name__}")
    return outs


def _constant(o):
    return isinstance(o, (numbers.Number, np.generic, np.ndarray)) and \
        not isinstance(o, Tensor) and \
        getattr(o, "dtype", np.dtype("f")).kind in "biufc"
