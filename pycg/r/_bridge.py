"""Values across pycg.r's bridge, and calls through it (R/bridge.R in the R
package is the R half; its header lists the tagged forms both sides write;
arrays inside them are written by pycg/r/codec.py).

Python -> R: tensors and other Python objects pass by reference; numbers,
strings and None as R scalars; NumPy arrays as R vectors and arrays with the
same shape and elements; lists, tuples and dicts as R lists; a Python
callable as an R function. R -> Python: numbers, vectors and arrays become
tensors (R's column-major layout kept, a length-1 vector a 0-d tensor),
strings become str, lists list or dict (when every element is named), R
functions `RFunction`s, and Python objects come back as themselves.
"""
import itertools
import numbers
import warnings
from collections.abc import Iterable

import numpy as np

from pycg.r import _interrupts, _session, codec
from pycg.custom.signature import make_signature
from pycg.tensor import Tensor

_R_INT_MAX = 2 ** 31 - 1
_next_key = itertools.count().__next__
_pending = {}  # Python exceptions on their way through R, by key


class RError(RuntimeError):
    """An error signalled by R code that a Python program called through
    pycg.r (Python hosts R); `classes` holds the R condition's classes.
    (R code that Python calls back while R hosts Python raises
    pycg.r.interop.RCallbackError instead.)

    Args:
        message: R's message.
        classes: The R condition's classes (``"simpleError"``, ...).
    """

    def __init__(self, message: str, classes: Iterable[str] = ()) -> None:
        super().__init__(message)
        self.classes = tuple(classes)


class RWarning(UserWarning):
    """A warning signalled by R code called through pycg.r."""


class RFunction:
    """An R function, callable from Python: arguments go to R by the rules
    of pycg.r, the result comes back the same way. Its signature mirrors the
    R formals (``...`` is ``*args``), so `pycg.custom_gradient` reads an R
    ``grad`` function the way it reads a Python one. pycg.r makes them
    (pycg.r.function, pycg.r.call's lookups, pycg.r.source).

    Args:
        bridged: The R function, as the R session's bridge holds it.
        name: Its name (None: ``<R function>``).
        signature: An inspect.Signature mirroring the R formals (None: the
            default ``(*args, **kwargs)``).
    """

    def __init__(self, bridged, name, signature=None):
        self._bridged = bridged
        self.__name__ = self.__qualname__ = name or "<R function>"
        if signature is not None:
            self.__signature__ = signature

    def __call__(self, *args, **kwargs):
        return invoke(self._bridged, args, kwargs, self.__name__)

    def __repr__(self):
        return f"<RFunction {self.__name__}>"


def invoke(bridged, args, kwargs, name="R code"):
    """bridged(*args, **kwargs) in R, holding the R lock; `name` says what
    R ran, in the message of an interrupt taken there."""
    with _session.LOCK:
        _interrupts.IN_R[0] += 1
        try:
            return _reply(bridged(*encode_call(args, kwargs)), name)
        finally:
            _interrupts.IN_R[0] -= 1
            if not _interrupts.IN_R[0]:
                _pending.clear()


def encode_call(args, kwargs):
    """The arguments of a bridged closure: (spec, *leaves), see
    R/bridge.R; spec is None for a call with leaves only."""
    if not kwargs and all(_is_leaf(a) for a in args):
        return (None,) + tuple(args)
    leaves = []
    spec = [to_tagged(list(args), leaves), to_tagged(kwargs, leaves)]
    return (spec, *leaves)


def _reply(reply, name):
    tag = reply[0]
    if tag == "i":   # an interrupt is a KeyboardInterrupt here, as in Python
        raise KeyboardInterrupt(f"interrupted in {name}, run by pycg.r")
    if tag == "v":
        for message in reply[2]:
            warnings.warn(message, RWarning, stacklevel=4)
        return from_tagged(reply[1])
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


def to_tagged(x, leaves):
    """The tagged form of a Python value for bridge_decode() in R; the
    Python objects it refers to are appended to `leaves`."""
    if _is_leaf(x):
        leaves.append(x)
        return ["o", len(leaves)]
    if callable(x):
        leaves.append(_PythonFunction(x))
        return ["p", len(leaves)]
    if isinstance(x, (np.ndarray, np.generic)):
        return ["a", *codec.to_r(x)]
    if isinstance(x, numbers.Integral) and not isinstance(x, bool):
        return int(x) if abs(x) <= _R_INT_MAX else float(x)
    if isinstance(x, (list, tuple)):
        return ["l", [to_tagged(v, leaves) for v in x]]
    if isinstance(x, dict):
        bad = [k for k in x if not isinstance(k, str)]
        if bad:
            raise TypeError(f"pycg.r: dict keys become R names and must be "
                            f"strings, got {bad[0]!r}")
        return ["d", list(x), [to_tagged(v, leaves) for v in x.values()]]
    return x


class _PythonFunction:
    """A Python callable as R calls it (bridge_python_function() in
    R/bridge.R): one argument, the tagged R list of its arguments.
    Answers a tensor or other object as itself, another value as
    ["r", tagged, *leaves], an exception as ["x", message, key] (the
    exception parked in `_pending`)."""

    def __init__(self, fn):
        self.fn = fn

    def __call__(self, node):
        _, items, names = node
        names = names or [""] * len(items)
        args = [from_tagged(v) for v, n in zip(items, names) if not n]
        kwargs = {n: from_tagged(v) for v, n in zip(items, names) if n}
        try:
            result = self.fn(*args, **kwargs)
            if _is_leaf(result):
                return result
            leaves = []
            return ["r", to_tagged(result, leaves), *leaves]
        except (Exception, KeyboardInterrupt) as e:   # (raised again above R)
            key = _next_key()
            _pending[key] = e
            return ["x", f"{type(e).__name__}: {e}", key]


# ---- R -> Python -------------------------------------------------------------

def from_tagged(node):
    """The Python value of the tagged form written by bridge_encode() in
    R."""
    if not isinstance(node, list):
        return node  # a string or None
    tag = node[0]
    if tag == "o":
        return node[1]
    if tag == "a":
        return codec.from_r(*node[1:])
    if tag == "l":
        _, items, names = node
        values = [from_tagged(v) for v in items]
        if names and all(names) and len(set(names)) == len(names):
            return dict(zip(names, values))
        return values
    if tag == "c":
        return list(node[1])
    if tag == "f":  # params: R formals as python_signature() describes them
        _, bridged, name, params = node
        signature = None if params is None else make_signature(
            params, "pycg.r (R formals)")
        return RFunction(bridged, name, signature)
    raise ValueError(f"pycg.r: unknown value tag {tag!r} from R")
