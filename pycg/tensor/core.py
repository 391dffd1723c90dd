"""Tensor and Variable: a backend value with an identity, plus operators.

A Tensor knows nothing about tapes; `pycg.core` records the ops that touch
it by the tensor's `_id`. The operators are installed by `pycg.ops` (their
types: pycg.tensor.operator_types).
"""
import itertools
import numbers
import threading
from typing import Any

import numpy as np

from pycg import backends
from pycg.tensor.convert import (as_dtype, backend_of, broadcasts,
                                 check_numeric, default_dtype, scalar,
                                 variable_shape_error)
from pycg.tensor.convert import is_differentiable, is_float  # noqa: F401
from pycg.tensor.operator_types import Operators
from pycg.tensor.python_value import PythonValue

_next_id = itertools.count().__next__
_NOT_NUMBERS = frozenset("OUS")   # NumPy's object, str and bytes kinds
_FRESH = (list, tuple, numbers.Number)   # (np.asarray makes a new array)

class Tensor(PythonValue, Operators["Tensor"]):
    """An immutable array on the active backend (a copy is itself, as
    TensorFlow's EagerTensor), with an identity that tapes record it by.
    Make tensors with pycg.constant, pycg.convert_to_tensor or the ops.

    Args:
        value: The backend's array (NumPy's on numpy, an EagerTensor on
            tensorflow), taken as it is.

    Example:
    >>> import pycg
    >>> x = pycg.constant([1.0, 2.0])
    >>> (x * 3).numpy().tolist()
    [3.0, 6.0]
    """
    __module__ = "pycg.tensor"   # (its R class: see pycg/tensor/__init__.py)

    __slots__ = ("_value", "_id", "__weakref__")
    __array_priority__ = 1000
    _trainable_var = False

    def __init__(self, value: Any) -> None:
        self._value = value
        self._id = _next_id()

    @property
    def dtype(self) -> np.dtype[Any]:
        """The dtype, a NumPy dtype (equal to its name: ``== "float32"``)."""
        v, K = self._value, backends.active
        if K is not None and type(v) in K.types:   # (the common case)
            return K.dtype_of(v)
        return backend_of(v).dtype_of(v)

    def __reduce__(self):   # (the unpickled tensor gets its own identity)
        return convert_to_tensor, (self._to_concrete("pickle"),)

    __hash__ = object.__hash__


class Variable(Tensor):
    """A mutable tensor; trainable variables read under a tape are watched
    (tf.Variable, keras.Variable). Each update (assign, assign_add,
    assign_sub) is atomic across threads.

    Args:
        initial_value: The first value: anything pycg.convert_to_tensor
            takes.
        trainable: Whether tapes watch it when it is read; a trainable
            variable must have a float (or complex) dtype.
        name: A name (used by save_variables and in messages); None: none.
        dtype: The dtype (None: initial_value's, floatx for Python floats).

    Example:
    >>> import pycg
    >>> v = pycg.Variable(2.0)
    >>> with pycg.GradientTape() as tape:
    ...     y = v * v
    >>> float(tape.gradient(y, v))
    4.0
    """
    __module__ = "pycg.tensor"

    __slots__ = {"trainable": "Whether tapes watch the variable when it is "
                 "read (a bool).", "name": "The variable's name, or None.",
                 "_store": "", "_kernels": ""}

    def __init__(self, initial_value: Any, trainable: bool = True,
                 name: str | None = None, dtype: Any = None) -> None:
        value = convert_to_tensor(initial_value, dtype)._value
        K = backends.active
        if trainable and not is_differentiable(K.dtype_of(value)):
            raise TypeError(
                f"pycg.Variable: a trainable variable must have a floating "
                f"dtype, got {K.dtype_of(value)}; pass trainable=False or a "
                f"float initial value")
        self._id = _next_id()
        self._kernels, self._store = K, K.variable(value)
        self.trainable = bool(trainable)
        self.name = name

    @classmethod
    def _view(cls, store, trainable, name):
        """A Variable over existing storage (a traced tf.Variable)."""
        v = cls.__new__(cls)
        v._id = _next_id()
        v._kernels, v._store = backends.active, store
        v.trainable, v.name = trainable, name
        return v

    @property
    def _value(self):
        K = backends.active
        if self._kernels is not K:
            with _LOCKS[self._id % len(_LOCKS)]:   # (one move, no update
                if self._kernels is not K:          # lost to a second)
                    self._move(K)
        return K.read(self._store)

    def _move(self, K):
        # The storage lives on the backend that made it (a tf.Variable on
        # tensorflow, so compiled graphs read its current value); a backend
        # switch moves it over, keeping the variable's identity.
        old = self._kernels.to_numpy(self._kernels.read(self._store))
        if hasattr(self._kernels, "moved_away"):   # (jax: pycg.function)
            self._kernels.moved_away(self._store)
        self._kernels, self._store = K, K.variable(K.convert(old))

    @property
    def _trainable_var(self):
        return self.trainable

    @property
    def shape(self) -> tuple[int, ...]:
        """The shape, a tuple of ints (fixed: assign keeps it)."""
        return tuple(self._store.shape)

    @property
    def dtype(self) -> np.dtype[Any]:
        """The dtype, a NumPy dtype (fixed: assign casts to it)."""
        return self._kernels.dtype_of(self._store)

    def read(self) -> Tensor:
        """The current value as a Tensor that shares the variable's identity
        on tapes. Ops take this snapshot once, when they run, so a later
        assign() never changes a recorded gradient (TensorFlow's rule).

        Returns:
            A Tensor: the value now, unchanged by later updates.
        """
        snapshot = Tensor.__new__(Tensor)
        snapshot._value = self._value
        snapshot._id = self._id
        return snapshot

    def assign(self, value: Any) -> "Variable":
        """Set the value (same shape; cast to the variable's dtype). Each
        update of a Variable (assign, assign_add, assign_sub) is atomic
        across threads, as a TensorFlow resource variable's.

        Args:
            value: The new value, of the variable's shape: anything
                pycg.convert_to_tensor takes.

        Returns:
            The variable itself (tf.Variable.assign returns it too).
        """
        new = convert_to_tensor(value, self.dtype)
        if new.shape != self.shape:
            raise variable_shape_error("assign", "value", new.shape, self,
                                       " but {who} has shape {to}")
        return self._update("assign", new)

    def assign_add(self, delta: Any) -> "Variable":
        """Add `delta` (broadcast to the variable's shape), atomically.

        Args:
            delta: What to add: a value that broadcasts to the shape.

        Returns:
            The variable itself.
        """
        return self._update("assign_add", self._delta(delta, "assign_add"))

    def assign_sub(self, delta: Any) -> "Variable":
        """Subtract `delta` (broadcast to the shape), atomically.

        Args:
            delta: What to subtract: a value that broadcasts to the shape.

        Returns:
            The variable itself.
        """
        return self._update("assign_sub", self._delta(delta, "assign_sub"))

    def _delta(self, delta, method):
        delta = convert_to_tensor(delta, self.dtype)
        shape = delta.shape
        if shape and shape != self.shape and not broadcasts(shape,
                                                            self.shape):
            raise variable_shape_error(
                method, "delta", shape, self,
                ", which does not broadcast to the shape {to} of {who}")
        return delta

    def _update(self, kernel, value):
        K = backends.active
        delta = value._value   # (before the lock: a Variable may move)
        with _LOCKS[self._id % len(_LOCKS)]:
            if self._kernels is not K:
                self._move(K)
            self._store = getattr(K, kernel)(self._store, delta)
        return self

    # A copy (shallow or deep) or an unpickled variable is a new variable
    # with the same value, dtype, trainable and name, and its own storage.
    def __copy__(self):
        return Variable(*self.__reduce__()[1])

    def __deepcopy__(self, memo):
        return self.__copy__()

    def __reduce__(self):
        return Variable, (self._to_concrete("pickle"), self.trainable,
                          self.name)


# Updates take the lock of the variable's stripe: a lock per Variable would
# cost an allocation each, and 64 stripes rarely collide.
_LOCKS = tuple(threading.Lock() for _ in range(64))


def convert_to_tensor(value: Any, dtype: Any = None) -> Tensor:
    """A Tensor on the active backend. Python floats become
    `config.floatx()` (float32), Python ints int32, NumPy arrays keep their
    dtype; a Tensor given another dtype is cast (its gradient flows). The
    tensor owns its value, as TensorFlow's and JAX's do: a NumPy array (or
    a torch tensor) is copied, so writing into it later changes no tensor
    and no gradient a tape recorded.

    Args:
        value: A Tensor, a Variable (returned as it is), a NumPy or
            TensorFlow array, a nested list or a Python number.
        dtype: The dtype wanted (a name, pycg.float32 or a NumPy dtype);
            None: value's own.

    Returns:
        A Tensor (value itself when it already is one of that dtype).

    Example:
    >>> import pycg
    >>> pycg.convert_to_tensor(1.5).dtype.name
    'float32'
    """
    K = backends.active
    if dtype is not None:   # (a np.dtype below, or None)
        dtype = as_dtype(dtype, "pycg.convert_to_tensor")
    if isinstance(value, Variable) and (
            dtype is None or dtype == value.dtype):
        return value  # its storage follows the active backend itself
    if isinstance(value, Tensor):
        if not K.owns(value._value):
            value = _moved(value, K)
        if dtype is not None and value.dtype != dtype:
            return Tensor(K.cast(value._value, dtype))
        return value
    if (K.owns(value) or backends.numpy.owns(value) and K is backends.numpy
            ) and getattr(value.dtype, "kind", None) not in _NOT_NUMBERS:
        t = Tensor(K.own(value))   # (NumPy's object and str arrays:
        return t if dtype is None else convert_to_tensor(t, dtype)  # below)
    if dtype is None:
        dtype = default_dtype(value)
    if isinstance(value, numbers.Number) and not isinstance(value, bool) \
            and dtype is not None:
        return Tensor(scalar(K, value, dtype))
    if hasattr(value, "numpy") and not isinstance(value, np.generic):
        value = value.numpy()
    a = check_numeric(value, dtype)
    if isinstance(value, _FRESH):   # (NumPy made `a`: no one else holds it)
        return Tensor(K.convert(a))
    return Tensor(K.own(a))   # (a user's array, which its owner may write)


def adopt(array: np.ndarray, dtype: Any = None) -> Tensor:
    """A Tensor of a NumPy array that pycg has just made and that no one
    else holds (pycg.r's codec reading R's data), converted to `dtype` in
    NumPy first as convert_to_tensor converts an array: the backend may
    keep its memory instead of copying it, as convert_to_tensor copies a
    user's array. The caller gives the array up."""
    if dtype is not None:
        array = check_numeric(array, as_dtype(dtype, "pycg.convert_to_tensor"))
    K = backends.active
    return Tensor(getattr(K, "adopt", K.convert)(array))


def _moved(t, K):
    """`t` on backend K, keeping its identity: a tape that watches it still
    knows it after a backend switch."""
    moved = Tensor.__new__(Tensor)
    moved._value = K.convert(backend_of(t._value).to_numpy(t._value))
    moved._id = t._id
    return moved


def constant(value: Any, dtype: Any = None) -> Tensor:
    """A Tensor holding `value` (tf.constant; see convert_to_tensor).

    Args:
        value: A Tensor, a NumPy array, a nested list or a Python number.
        dtype: The dtype wanted; None: value's own (floatx for floats).

    Returns:
        A Tensor.
    """
    return convert_to_tensor(value, dtype)
