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

    Args:
        name: 'tensorflow', 'numpy', 'jax' (JAX installed) or 'torch'
            (PyTorch installed; docs/backend-torch.md); at import, the
            environment variable PYCG_BACKEND picks one.

    Returns:
        `name`.

    Differs:
        Keras picks its backend once, at import; pycg switches at any time.
    """
    backends.set_backend(name)
    return name
