"""Where pycg meets TensorFlow's own autodiff: a pycg tensor converted for
TensorFlow, TensorFlow's values among pycg's arguments, and whether
TensorFlow records or traces (names of the tensorflow backend alone)."""
import numpy as np
import tensorflow as tf
from tensorflow.python.eager import record as _record
from pycg.backends import kernels as _kernels


def tf_tensor(value, dtype=None, name=None):
    """A pycg tensor's value for tf.convert_to_tensor: a TensorFlow value
    itself, so that TensorFlow's tape follows pycg's kernels (a copy
    through NumPy would cut it); a copy through NumPy where it is not one,
    or where another dtype is asked for (as NumPy arrays convert)."""
    if isinstance(value, (tf.Tensor, tf.Variable)) and (
            dtype is None or tf.as_dtype(dtype) == value.dtype):
        return tf.convert_to_tensor(value, name=name)
    return tf.convert_to_tensor(np.asarray(value), dtype=dtype, name=name)


def foreign(value):
    """A TensorFlow or Keras tensor or variable (not a pycg one)."""
    return isinstance(value, (tf.Tensor, tf.Variable)) or \
        hasattr(value, "__tf_tensor__") and not hasattr(value, "_id")


def tensorflow_differentiates():
    """Whether TensorFlow records (a tf.GradientTape) or traces (a
    tf.function, a Keras model's step)."""
    return not tf.executing_eagerly() or _record.could_possibly_record()


__all__ = _kernels(globals())   # (this file's kernels: see backends.kernels)
