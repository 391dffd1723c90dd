"""The tensorflow backend's value types and dtypes, conversion, Python
numbers as scalars of a value's dtype (cached constants, in _fast.py),
variables (a tf.Variable, read afresh, also inside tf.function) and host
calls (NumPy run when the graph runs)."""
import threading

import numpy as np
import tensorflow as tf
from tensorflow.python.framework.ops import EagerTensor as _EagerTensor

try:   # (TensorFlow's private test for a graph XLA compiles)
    from tensorflow.python.ops.control_flow_util import (
        GraphOrParentsInXlaContext as _in_xla)
except ImportError:   # (then TensorFlow's own error, at the call)
    def _in_xla(graph):
        return False

from pycg.backends.tensorflow._fast import (  # noqa: F401
    complex_dtypes, dtype_key, float_dtypes, grad_like, inexact, scalar,
    scalar_like, weak_caches, weak_scalar)
from pycg.backends import kernels as _kernels

# named, not found by making a tensor: importing pycg must leave TensorFlow's
# context unstarted, or tf.distribute.MultiWorkerMirroredStrategy() fails
types = frozenset((_EagerTensor,))
float_types = frozenset()   # (an EagerTensor's type says nothing of its dtype)


def owns(value):
    return type(value) in types or isinstance(value, tf.Tensor)


# ---- conversion ---------------------------------------------------------
def convert(value, dtype=None):
    if isinstance(value, tf.Tensor):
        return value if dtype is None else tf.cast(value, dtype)
    return tf.convert_to_tensor(np.asarray(value, dtype=dtype))


# dtypes whose arrays TensorFlow takes over by DLPack, and the size from
# which that pays (a small array is cheaper to copy)
_ADOPTED = frozenset(map(np.dtype, ("float64", "float32", "int32", "int64")))
_ADOPT_FROM = 1 << 16


def adopt(array):
    """A NumPy array that pycg made and gives up (pycg.r's codec, the R
    data of a call): TensorFlow keeps its memory instead of copying it, by
    DLPack, where the array is C-contiguous, 64-byte aligned (TensorFlow's
    DLPack aborts the process on other alignments: codec.Staged allocates
    so) and of a dtype in _ADOPTED; otherwise convert() copies it."""
    if array.size >= _ADOPT_FROM and array.dtype in _ADOPTED and \
            array.flags.c_contiguous and array.ctypes.data % 64 == 0:
        return tf.experimental.dlpack.from_dlpack(array.__dlpack__())
    return convert(array)


def numpy_view(x):
    """A read-only NumPy view of an eager tensor's memory by DLPack (no
    copy, where x.numpy() copies) for a large tensor of a dtype in
    _ADOPTED; otherwise to_numpy(x)."""
    if type(x) in types and np.dtype(x.dtype.as_numpy_dtype) in _ADOPTED and \
            x.shape.num_elements() >= _ADOPT_FROM:
        return np.from_dlpack(x)
    return to_numpy(x)


def own(value):
    """A user's array as a value that shares no memory with it (its owner
    may write to it later): tf.convert_to_tensor copies a NumPy array, and
    a tf.Tensor is immutable."""
    return convert(value)


def cast(x, dtype):
    return tf.cast(x, dtype)


def stop_gradient(x):  # a TF op only where tf.gradients sees it (traced)
    return x if type(x) in types else tf.stop_gradient(x)


def to_numpy(x):
    if not hasattr(x, "numpy"):
        raise TypeError(
            "pycg: this tensor is symbolic (inside pycg.function / "
            "tf.function) and has no value yet; use pycg ops on it instead "
            "of converting it to NumPy")
    return x.numpy()


_NUMPY_DTYPES = {}   # an eager tensor's dtype enum -> its NumPy dtype


def dtype_of(x):
    """x's dtype as a NumPy dtype (an eager tensor's by its enum: through
    tf.DType it costs ~0.65 us, Tensor.dtype reads it)."""
    if type(x) is _EagerTensor:
        d = _NUMPY_DTYPES.get(x._datatype_enum())
        if d is not None:
            return d
        d = _NUMPY_DTYPES[x._datatype_enum()] = np.dtype(
            x.dtype.as_numpy_dtype)
        return d
    return np.dtype(x.dtype.as_numpy_dtype)


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


def read_and_add(store, delta):
    """(the value before, the store after adding `delta`) as one step, also
    where a compiled function runs on several threads at once: in a graph
    the read and the add run inside one tf.CriticalSection (a lock held
    while the graph runs; TensorFlow has no atomic read-and-add)."""
    def step():
        old = tf.identity(store.read_value())
        with tf.control_dependencies([old]):
            added = store.assign_add(delta, read_value=False)
        with tf.control_dependencies([added]):
            return tf.identity(old)
    if tf.executing_eagerly():
        return step(), store
    return _critical_section().execute(step), store


_section, _SECTION = [], threading.Lock()


def _critical_section():
    if not _section:
        with _SECTION:   # (one, whichever threads trace a draw first)
            if not _section:
                with tf.init_scope():
                    _section.append(
                        tf.CriticalSection(name="pycg_read_and_add"))
    return _section[0]


def _broadcast(delta, store):
    return delta if delta.shape == store.shape else \
        tf.broadcast_to(delta, store.shape)


# ---- host calls: a NumPy function run when the graph runs ------------------
def host_call(fn, args, dtype, shape):
    if tf.executing_eagerly():
        return tf.convert_to_tensor(fn(*[np.asarray(a) for a in args]))
    if _in_xla(tf.compat.v1.get_default_graph()):   # (random draws only)
        raise ValueError(
            "pycg.random: a random draw inside pycg.function(f, "
            "jit_compile=True) cannot be compiled by XLA (pycg draws with "
            "NumPy when the graph runs, so that compiled draws equal eager "
            "ones); draw outside f and pass the numbers in, or use "
            "jit_compile=False")
    out = tf.numpy_function(fn, list(args), tf.as_dtype(dtype),
                            stateful=False)
    out.set_shape(shape)
    return out


def outside_graph():
    """A context where new variables are created eagerly, also while a
    pycg.function traces (optimizer slots, seed states)."""
    return tf.init_scope()


_moves = [0]   # how many variables' tf.Variables left this backend


def moved_away(store):
    """A variable's storage leaves this backend (a backend switch); when it
    comes back it gets a new tf.Variable, which graphs that captured the
    old one would never see: pycg.function traces again."""
    _moves[0] += 1


def moves():
    """How many variables' tf.Variables left this backend so far."""
    return _moves[0]


__all__ = _kernels(globals())   # (this file's kernels: see backends.kernels)
