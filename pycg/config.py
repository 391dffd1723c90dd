"""Run-time settings: the kernel backend and the default float type."""
from pycg import backends

_floatx = "float32"


def floatx():
    """The dtype Python floats become (Keras' floatx).

    Returns:
        'float16', 'float32' (the default) or 'float64'.
    """
    return _floatx


def set_floatx(dtype):
    """Set the dtype Python floats become (keras.config.set_floatx).

    Args:
        dtype: 'float16', 'float32' or 'float64'.

    Returns:
        None.
    """
    global _floatx
    if dtype not in ("float16", "float32", "float64"):
        raise ValueError(
            f"pycg.config.set_floatx: expected 'float16', 'float32' or "
            f"'float64', got {dtype!r}")
    _floatx = dtype


def backend():
    """The name of the active kernel backend (keras.config.backend()).

    Returns:
        'tensorflow' or 'numpy'.
    """
    return backends.active.name


def set_backend(name):
    """Switch the kernel backend at run time ('tensorflow', 'numpy', 'jax'
    or 'torch').

    Tensors made under another backend are converted when an op meets them.

    The backend is one for the whole process, as Keras' is: a switch while
    another thread runs pycg's code (an op, a gradient, a
    pycg.function or bridge call) is refused with a RuntimeError naming
    those threads, and the backend stays; a call another thread starts
    while the switch is under way waits for it, then runs on the new
    backend. So every call runs on one backend, start to end. A thread
    that needs a backend of its own, whatever the others do, calls
    through pycg.to_torch, to_jax or to_tensorflow.

    Args:
        name: 'tensorflow', 'numpy', 'jax' (JAX installed) or 'torch'
            (PyTorch installed; docs/backend-torch.md); at import, the
            environment variable PYCG_BACKEND picks one.

    Returns:
        `name`.

    Differs:
        Keras picks its backend once, at import; pycg switches at any time
        no other thread is computing.

    Example:
    >>> import pycg
    >>> previous = pycg.config.backend()
    >>> pycg.config.set_backend("numpy")
    'numpy'
    >>> float(pycg.ops.add(1.0, 2.0))
    3.0
    >>> _ = pycg.config.set_backend(previous)
    """
    backends.switch(name)
    return name
