"""pycg.to_keras: a pycg function or rule for Keras 3's active backend."""
from pycg.custom.bind import name_of
from pycg.interop.jax import to_jax
from pycg.interop.tensorflow import to_tensorflow

_BRIDGES = {"tensorflow": to_tensorflow, "jax": to_jax}


def to_keras(f):
    """`f`, written with pycg, as a function of Keras 3's active backend
    (``keras.backend.backend()``) whose gradient is pycg's: through
    :func:`pycg.to_tensorflow` on TensorFlow, :func:`pycg.to_jax` on JAX,
    with pycg's backend of the same name. Use it in a layer's ``call`` or a
    ``keras.layers.Lambda``; ``model.fit`` then trains through the rule.

    >>> import keras, pycg
    >>> from pycg import ops
    >>> @pycg.custom_gradient
    ... def triple_grad(x):
    ...     return ops.multiply(x, 1.0), lambda dy: 3 * dy
    >>> layer = keras.layers.Lambda(pycg.to_keras(triple_grad))

    On the torch backend (and any other) it is an error: not supported yet.
    """
    try:
        import keras
    except ImportError as e:
        raise ImportError(
            f"pycg.to_keras({name_of(f)}): Keras is not installed ({e}); "
            f"pip install keras") from None
    backend = keras.backend.backend()
    bridge = _BRIDGES.get(backend)
    if bridge is None:
        raise NotImplementedError(
            f"pycg.to_keras({name_of(f)}): Keras' backend is {backend!r}, "
            f"which pycg does not support yet; pycg reaches Keras on "
            f"'tensorflow' and 'jax' (set KERAS_BACKEND before importing "
            f"Keras)")
    return bridge(f)
