"""Values across the R bridge, and calls through it (pycg/_r_bridge.R is the
R half; its header lists the tagged forms both sides write).

Python -> R: tensors and other Python objects pass by reference; numbers,
strings and None as R scalars; NumPy arrays as R vectors and arrays with the
same shape and elements; lists, tuples and dicts as R lists; a Python
callable as an R function. R -> Python: numbers, vectors and arrays become
tensors (R's column-major layout kept, a length-1 vector a 0-d tensor),
strings become str, lists list or dict (when every element is named), R
functions `RFunction`s, and Python objects come back as themselves.
"""
import inspect
import itertools
import numbers
import warnings

import numpy as np

from pycg import _r_session
from pycg._rinterop import to_r as _array_to_r
from pycg.tensor import Tensor, convert_to_tensor

_DTYPES = {"double": ("<f8", "float64"), "integer": ("<i4", "int32"),
           "logical": ("<i4", "bool"), "complex": ("<c16", "complex128")}
_R_INT_MAX = 2 ** 31 - 1
_next_key = itertools.count().__next__
_pending = {}  # Python exceptions on their way through R, by key
_depth = [0]


class RError(RuntimeError):
    """An error signalled by R code called through pycg.r; `classes` holds
    the R condition's classes."""

    def __init__(self, message, classes=()):
        super().__init__(message)
        self.classes = tuple(classes)


class RWarning(UserWarning):
    """A warning signalled by R code called through pycg.r."""


class RFunction:
    """An R function, callable from Python: arguments go to R by the rules
    of pycg.r, the result comes back the same way. Its signature mirrors the
    R formals (``...`` is ``*args``), so `pycg.custom_gradient` reads an R
    ``grad`` function the way it reads a Python one."""

    def __init__(self, bridged, name, signature=None):
        self._bridged = bridged
        self.__name__ = self.__qualname__ = name or "<R function>"
        if signature is not None:
            self.__signature__ = signature

    def __call__(self, *args, **kwargs):
        return invoke(self._bridged, args, kwargs)

    def __repr__(self):
        return f"<RFunction {self.__name__}>"


def invoke(bridged, args, kwargs):
    """bridged(*args, **kwargs) in R, holding the R lock."""
    with _r_session.LOCK:
        _depth[0] += 1
        try:
            return _reply(bridged(*encode_call(args, kwargs)))
        finally:
            _depth[0] -= 1
            if not _depth[0]:
                _pending.clear()


def encode_call(args, kwargs):
    """The arguments of a bridged closure: (spec, *leaves), see
    pycg/_r_bridge.R; spec is None for a call with leaves only."""
    if not kwargs and all(_is_leaf(a) for a in args):
        return (None,) + tuple(args)
    leaves = []
    spec = [to_r(list(args), leaves), to_r(kwargs, leaves)]
    return (spec, *leaves)


def _reply(reply):
    tag = reply[0]
    if tag == "v":
        for message in reply[2]:
            warnings.warn(message, RWarning, stacklevel=4)
        return from_r(reply[1])
    if tag == "pe" and reply[1] in _pending:
        raise _pending.pop(reply[1])
    message, classes = (reply[1], reply[2]) if tag == "e" else \
        ("a Python error raised inside R was lost", ())
    raise RError(message, [classes] if isinstance(classes, str) else classes)


# ---- Python -> R -------------------------------------------------------------

_SCALARS = (bool, str, float, complex, numbers.Integral, type(None))


def _is_leaf(x):
    """Whether x goes to R as itself (a tensor or another Python object)."""
    return isinstance(x, Tensor) or not (
        isinstance(x, _SCALARS + (np.ndarray, np.generic, list, tuple, dict))
        or callable(x))


def to_r(x, leaves):
    """The tagged form of a Python value for decode() in R; the Python
    objects it refers to are appended to `leaves`."""
    if _is_leaf(x):
        leaves.append(x)
        return ["o", len(leaves)]
    if callable(x):
        leaves.append(_PythonFunction(x))
        return ["p", len(leaves)]
    if isinstance(x, (np.ndarray, np.generic)):
        data, shape, kind = _array_to_r(x)
        return ["a", data, shape, kind]
    if isinstance(x, numbers.Integral) and not isinstance(x, bool):
        return int(x) if abs(x) <= _R_INT_MAX else float(x)
    if isinstance(x, (list, tuple)):
        return ["l", [to_r(v, leaves) for v in x]]
    if isinstance(x, dict):
        bad = [k for k in x if not isinstance(k, str)]
        if bad:
            raise TypeError(f"pycg.r: dict keys become R names and must be "
                            f"strings, got {bad[0]!r}")
        return ["d", list(x), [to_r(v, leaves) for v in x.values()]]
    return x


class _PythonFunction:
    """A Python callable as R calls it (python_function() in
    pycg/_r_bridge.R): one argument, the tagged R list of its arguments.
    Answers a tensor or other object as itself, another value as
    ["r", tagged, *leaves], an exception as ["x", message, key] (the
    exception parked in `_pending`)."""

    def __init__(self, fn):
        self.fn = fn

    def __call__(self, node):
        _, items, names = node
        names = names or [""] * len(items)
        args = [from_r(v) for v, n in zip(items, names) if not n]
        kwargs = {n: from_r(v) for v, n in zip(items, names) if n}
        try:
            result = self.fn(*args, **kwargs)
            if _is_leaf(result):
                return result
            leaves = []
            return ["r", to_r(result, leaves), *leaves]
        except Exception as e:
            key = _next_key()
            _pending[key] = e
            return ["x", f"{type(e).__name__}: {e}", key]


# ---- R -> Python -------------------------------------------------------------

def from_r(node):
    """The Python value of the tagged form written by encode() in R."""
    if not isinstance(node, list):
        return node  # a string or None
    tag = node[0]
    if tag == "o":
        return node[1]
    if tag == "a":
        _, data, shape, kind = node
        stored, dtype = _DTYPES[kind]
        a = np.frombuffer(data, dtype=stored).reshape(shape, order="F")
        return convert_to_tensor(np.array(a, dtype=dtype, order="C"))
    if tag == "l":
        _, items, names = node
        values = [from_r(v) for v in items]
        if names and all(names) and len(set(names)) == len(names):
            return dict(zip(names, values))
        return values
    if tag == "c":
        return list(node[1])
    if tag == "f":
        _, bridged, name, params = node
        return RFunction(bridged, name, _signature(params))
    raise ValueError(f"pycg.r: unknown value tag {tag!r} from R")


def _signature(params):
    """An inspect.Signature from R formals, [name, kind, has_default] each,
    or None when R could not describe them."""
    if params is None:
        return None
    kinds = {"positional": inspect.Parameter.POSITIONAL_OR_KEYWORD,
             "var": inspect.Parameter.VAR_POSITIONAL,
             "keyword": inspect.Parameter.KEYWORD_ONLY}
    return inspect.Signature([
        inspect.Parameter(name, kinds[kind], **(
            {"default": None} if has_default else {}))
        for name, kind, has_default in params])
