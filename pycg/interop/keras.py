"""pycg.to_keras: a pycg function or rule for Keras 3's active backend."""
import functools
from collections.abc import Callable
from typing import Any

from pycg.custom.bind import name_of
from pycg.interop import _bridge
from pycg.interop.jax import to_jax
from pycg.interop.tensorflow import to_tensorflow
from pycg.interop.torch import to_torch

_KERAS = _bridge.Spec(api="to_keras", module="keras", marker="",
                      install="Keras is not installed ({e}); pip install keras",
                      foreign=lambda f, keras: None)
_BRIDGES = {"tensorflow": to_tensorflow, "jax": to_jax, "torch": to_torch}


def to_keras(f: Callable[..., Any]) -> Callable[..., Any]:
    """`f`, written with pycg, as a function of Keras 3's active backend
    (``keras.backend.backend()``) whose gradient is pycg's: through
    :func:`pycg.to_tensorflow` on TensorFlow, :func:`pycg.to_jax` on JAX,
    :func:`pycg.to_torch` on torch, each running f on pycg's backend of
    the same name.
    Use it in a layer's ``call`` or a ``keras.layers.Lambda``;
    ``model.fit`` then trains through the rule.

    Args:
        f: A function written with pycg ops (a custom_gradient function
            among them).

    Returns:
        ``pycg.to_tensorflow(f)``, ``pycg.to_jax(f)`` or
        ``pycg.to_torch(f)`` (Keras variables among the arguments passed as
        their torch tensors), for the backend Keras runs on.

    Differs:
        Keras' own ``keras.ops.custom_gradient`` takes a differently shaped
        grad_fn on each backend; a pycg rule is one function for both.

    Example:
    >>> import keras, pycg
    >>> from pycg import ops
    >>> @pycg.custom_gradient
    ... def triple_grad(x):
    ...     return ops.multiply(x, 1.0), lambda dy: 3 * dy
    >>> layer = keras.layers.Lambda(pycg.to_keras(triple_grad))

    On another Keras backend (numpy, openvino) it is an error: not
    supported yet.
    """
    keras = _bridge.framework(_KERAS, name_of(f))
    backend = keras.backend.backend()
    bridge = _BRIDGES.get(backend)
    if bridge is None:
        raise NotImplementedError(
            f"pycg.to_keras({name_of(f)}): Keras' backend is {backend!r}, "
            f"which pycg does not support yet; pycg reaches Keras on "
            f"'tensorflow', 'jax' and 'torch' (set KERAS_BACKEND before "
            f"importing Keras)")
    if backend == "torch":
        return _keras_torch(keras, to_torch(f))
    return bridge(f)


def _keras_torch(keras, torch_function):
    """torch_function taking Keras variables as the torch tensors they
    hold (a Keras variable is no torch.Tensor: to_torch would see a
    constant)."""
    def keras_function(*args, **kwargs):
        args, kwargs = keras.tree.map_structure(
            lambda a: a.value if isinstance(a, keras.Variable) else a,
            (args, kwargs))
        return torch_function(*args, **kwargs)
    functools.update_wrapper(keras_function, torch_function)
    return keras_function
