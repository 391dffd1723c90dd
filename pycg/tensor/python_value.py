"""A Tensor as a Python value: ``len``, iteration, ``bool``, ``float``,
``int``, an index, ``item``, ``tolist``, ``format`` and ``round`` as NumPy's
arrays and scalars allow, and copies."""
import sys
import threading
from collections.abc import Iterator
from typing import Any

import numpy as np

from pycg._errors import Api, Shape, user_error
from pycg.tensor import torch_habits
from pycg.tensor.convert import backend_of


# set while pycg.to_jax runs its f (pycg/interop/jax.py) in this thread
to_jax_running = threading.local()


class PythonValue:
    """What Tensor and Variable share with NumPy's arrays; each method
    reads the value through ``_to_concrete`` (an error while tracing)."""
    __module__ = "pycg.tensor"   # (a tensor's R classes name it)

    __slots__ = ()
    _value: Any   # (the backend's value: Tensor's slot, Variable's read)
    dtype: Any    # (Tensor's and Variable's own property)

    @property
    def shape(self) -> tuple[int, ...]:
        """The shape, a tuple of ints, as NumPy's (None for a dimension
        unknown while pycg.function traces)."""
        return tuple(self._value.shape)

    @property
    def ndim(self) -> int:
        """The number of axes (0 for a scalar)."""
        return len(self._value.shape)

    @property
    def size(self) -> int:
        """The number of elements, an int."""
        return int(np.prod(self.shape, dtype=np.int64))

    def numpy(self) -> np.ndarray:
        """The value as a NumPy array (tf.Tensor.numpy).

        Returns:
            A NumPy array (a 0-d one for a scalar).
        """
        return np.asarray(backend_of(self._value).to_numpy(self._value))

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        a = self.numpy()
        return a if dtype is None else a.astype(dtype)

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of a 0-d pycg.Tensor")
        return self.shape[0]

    def __iter__(self) -> Iterator[Any]:
        for i in range(len(self)):
            yield self[i]   # type: ignore[index]

    def __bool__(self) -> bool:
        return bool(self._to_concrete("bool()"))

    def __float__(self) -> float:
        return float(self._to_concrete("float()"))

    def __int__(self) -> int:
        return int(self._to_concrete("int()"))

    def __index__(self) -> int:   # (integer tensors only, as NumPy's)
        a = self._to_concrete("an index")
        if a.dtype.kind not in "iu":
            raise TypeError(f"pycg.Tensor: only an integer tensor can be an "
                            f"index, got dtype {a.dtype.name}")
        return int(a)

    def __repr__(self) -> str:
        """Shape, dtype and value; a traced tensor (inside pycg.function)
        shows ``traced`` for its value, so ``print`` works while tracing,
        as for tf.function's and jax.jit's tensors."""
        try:
            value = "numpy=" + np.array2string(self.numpy(), threshold=20)
        except TypeError:   # (a backend's to_numpy refuses a traced value)
            value = "traced"
        dtype = backend_of(self._value).dtype_of(self._value).name
        return (f"<pycg.{type(self).__name__} shape={self.shape} dtype="
                f"{dtype} {value}>")

    @property
    def __jax_array__(self) -> Any:
        """A tensor handed to a JAX function inside pycg.to_jax(f), or a
        tensor traced by JAX handed to JAX (the result of a pycg function
        under jax.grad), is pycg's error: JAX would not see pycg's
        gradient rules. Otherwise no such attribute."""
        jax = sys.modules.get("jax")
        if getattr(to_jax_running, "f", None) is not None:
            # (kept: JAX's jit replaces a TypeError from here by its own)
            to_jax_running.refused = (
                f"pycg.to_jax({to_jax_running.f}): a pycg tensor was handed "
                "to a JAX function inside it (a jax.numpy function?): "
                "pycg's gradient cannot pass through JAX functions there; "
                "use pycg ops inside f (ops.sum, ops.matmul, ...)")
            raise TypeError(to_jax_running.refused)
        if jax is not None and isinstance(self._value, jax.core.Tracer):
            raise TypeError(
                "pycg: this tensor is traced by JAX and was handed to JAX "
                "(a pycg result returned to jax.grad?): JAX would not see "
                "pycg's gradient rules. Call a pycg function under "
                "jax.grad, jax.jit or jax.vmap through pycg.to_jax(f)")
        raise AttributeError("__jax_array__")

    def __getattr__(self, name: str) -> Any:
        # (only for a missing attribute: a torch method name says which
        # pycg.ops function to use)
        if name.startswith("__"):
            raise AttributeError(name)
        raise torch_habits.attribute_error(type(self).__name__, name)

    @classmethod
    def __torch_function__(cls, func: Any, types: Any, args: Any = (),
                           kwargs: Any = None) -> Any:
        """A torch function given a pycg tensor (torch.sin(x) inside a
        pycg function) is an error naming the pycg.ops function to use."""
        raise torch_habits.torch_function_error(func)

    def _to_concrete(self, what: str) -> Any:
        try:   # (a backend's to_numpy refuses a traced value: TypeError)
            return self.numpy()
        except TypeError:
            raise TypeError(
                f"pycg: a traced tensor was used as {what}: Python control "
                "flow on tensor values cannot be compiled. Use ops.where, "
                "ops.cond or ops.while_loop instead (they trace into "
                "TensorFlow's or jax.lax's control flow), or call the "
                "function without pycg.function") from None

    def item(self) -> Any:
        """The one value as a Python number (NumPy's ``ndarray.item``).

        Returns:
            A Python float, int, bool or complex (by the dtype).

        >>> import pycg
        >>> pycg.constant([2.5]).item()
        2.5
        """
        a = self._to_concrete("item()")
        if a.size != 1:
            raise user_error(ValueError, "{api}: expected a tensor with one "
                             "value, got shape {shape} ({n} values)",
                             api=Api(f"{type(self).__name__}.item"),
                             shape=Shape(self.shape), n=a.size)
        return a.item()

    def tolist(self) -> Any:
        """The values as nested Python lists (NumPy's ``ndarray.tolist``).

        Returns:
            Nested lists of Python numbers, one level per axis (a number
            for a 0-d tensor).
        """
        return self._to_concrete("tolist()").tolist()

    def __format__(self, spec):
        if not spec:
            return str(self)
        return format(self._scalar(f"format spec {spec!r}"), spec)

    def __round__(self, ndigits=None):
        # as a NumPy scalar: round(t) an int, round(t, 2) of t's dtype
        return round(self._scalar("round()"), ndigits)

    def _scalar(self, what):
        a = self._to_concrete(what)
        if a.ndim:
            raise user_error(TypeError, "{api}: {what} needs a 0-d tensor, got "
                             "shape {shape}; use .numpy(), .tolist() or "
                             "ops.round", api=Api(type(self).__name__),
                             what=what, shape=Shape(self.shape))
        # (bfloat16 and other ml_dtypes scalars format as Python floats)
        return a[()] if a.dtype.kind != "V" else float(a)

    # Immutable: a copy is the tensor itself (TensorFlow's EagerTensor).
    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self
