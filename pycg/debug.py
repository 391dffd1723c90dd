"""Debugging aids for the backward pass."""
import contextlib

import numpy as np

from pycg.core import recorder as core
from pycg.tensor import is_float


def _ranges(tensors):
    parts = []
    for t in tensors:
        a = np.asarray(t.numpy(), dtype=np.float64) if is_float(t.dtype) or \
            t.dtype.kind in "iu" else None
        if a is not None and a.size:
            parts.append(f"[{np.nanmin(a):.4g}, {np.nanmax(a):.4g}]")
    return ", ".join(parts)


def _check(rule, i, g, ins, outs):
    try:
        a = g.numpy()
    except TypeError:   # (a traced gradient: pycg.function, to_jax, ...)
        raise TypeError(
            "pycg.debug.check_numerics: a gradient traced inside "
            "pycg.function (or tf.function, jax.jit) has no values to "
            "check; to find where a NaN or Inf "
            "appears, call the function without pycg.function inside "
            "check_numerics()") from None
    if np.all(np.isfinite(a)):
        return
    kind = "NaN" if np.any(np.isnan(a)) else "Inf"
    labels = getattr(rule, "labels", None)   # a custom_gradient's backward
    if labels is not None:
        label = labels[i] if i < len(labels) else "a variable"
        what = f"the custom-gradient function {rule.name!r}"
    else:
        label, what = f"input {i}", f"the op {rule.name!r}"
    raise FloatingPointError(
        f"pycg.debug.check_numerics: {kind} appeared in the gradient for "
        f"{label} of {what}; its forward inputs range over {_ranges(ins)}")


@contextlib.contextmanager
def check_numerics():
    """Stop the backward pass at the first NaN or Inf gradient, naming the
    op or custom-gradient function and the parameter where it appeared.
    A context manager (as tf.debugging.enable_check_numerics, for the
    backward pass only). It checks gradients as they are computed, so
    eagerly: a gradient traced inside pycg.function while it is on is a
    TypeError saying so, and a function compiled before is not checked.
    It checks the calling thread or asyncio task only (a context variable,
    as decimal.localcontext): other threads and tasks are not checked,
    while a task or asyncio.to_thread started inside it is, as it inherits
    the context.

    Returns:
        A context manager; inside it, gradient() raises FloatingPointError.

    Example:
    >>> import pycg
    >>> from pycg import ops
    >>> x = pycg.constant(100.0)
    >>> with pycg.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = ops.log(1 + ops.exp(x))
    >>> with pycg.debug.check_numerics():
    ...     tape.gradient(y, x)
    Traceback (most recent call last):
    FloatingPointError: ...NaN appeared in the gradient for input 0 of the op 'exp'...
    """
    previous = core.set_numerics_check(_check)
    try:
        yield
    finally:
        core.set_numerics_check(previous)
