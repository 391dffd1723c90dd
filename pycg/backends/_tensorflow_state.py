"""TensorFlow kernels for state: variables (a tf.Variable, read afresh,
also inside tf.function) and host calls (NumPy run when the graph runs).
Imported by backends/tensorflow.py."""
import numpy as np
import tensorflow as tf


# ---- variables: a tf.Variable, read afresh (also inside tf.function) ------
def variable(value):
    return tf.Variable(value, trainable=False)


def read(store):
    return store.value()


def assign(store, value):
    store.assign(value)
    return store


# TensorFlow's own read-modify-write ops: atomic also where a compiled
# function runs on several threads at once.
def assign_add(store, delta):
    store.assign_add(_broadcast(delta, store), read_value=False)
    return store


def assign_sub(store, delta):
    store.assign_sub(_broadcast(delta, store), read_value=False)
    return store


def _broadcast(delta, store):
    return delta if delta.shape == store.shape else \
        tf.broadcast_to(delta, store.shape)


# ---- host calls: a NumPy function run when the graph runs ------------------
def host_call(fn, args, dtype, shape):
    if tf.executing_eagerly():
        return tf.convert_to_tensor(fn(*[np.asarray(a) for a in args]))
    out = tf.numpy_function(fn, list(args), tf.as_dtype(dtype),
                            stateful=False)
    out.set_shape(shape)
    return out


def outside_graph():
    """A context where new variables are created eagerly, also while a
    pycg.function traces (optimizer slots, seed states)."""
    return tf.init_scope()
