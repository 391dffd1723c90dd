"""Values across pycg.r's bridge, and calls through it (R/bridge.R in the R
package is the R half; its header lists the forms both sides write; arrays
inside them are written by pycg/r/codec.py).

Python -> R: tensors and other Python objects pass by reference; numbers,
strings and None as R scalars; NumPy arrays as R vectors and arrays with the
same shape and elements; lists, tuples and dicts as R lists; a Python
callable as an R function. R -> Python: the R package's one envelope
(pycg/r/envelope.py; the rules head R/convert.R): a length-1 number a Python
number, other vectors and arrays tensors (R's column-major layout kept),
strings str, lists list or dict (every element named, each name once), R
functions `RFunction`s; Python objects come back as themselves.
"""
import itertools
import numbers
import warnings

import numpy as np

from pycg.r import _interrupts, _session, codec, envelope
from pycg.r.conditions import RError, RWarning
from pycg.custom.signature import make_signature
from pycg.tensor import Tensor

_R_INT_MAX = 2 ** 31 - 1
_next_key = itertools.count().__next__
_pending = {}  # Python exceptions on their way through R, by key


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
        try:
            with _interrupts.r_running(hold=True):   # (and the reply)
                return _reply(bridged(*encode_call(args, kwargs)), name)
        finally:
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
        return from_r(reply[1])
    if tag == "pe" and reply[1] in _pending:
        raise _pending.pop(reply[1])
    message, classes = (reply[1], reply[2]) if tag == "e" else \
        ("a Python error raised inside R was lost", ())
    classes = [classes] if isinstance(classes, str) else classes
    if "pycg_r_quit" in classes:   # (R/bridge.R, stop_quit())
        message = f"{name}: {message}"
    raise RError(message, classes)


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
    R/bridge.R): two arguments, the list of its arguments in the envelope
    (pycg/r/envelope.py) and their names ("" for a positional one).
    Answers a tensor or other object as itself, another value as
    ["r", tagged, *leaves], an exception as ["x", message, key] (the
    exception parked in `_pending`)."""

    def __init__(self, fn):
        self.fn = fn

    def __call__(self, items, names):
        items = from_r(items)
        names = names or [""] * len(items)
        args = [v for v, n in zip(items, names) if not n]
        kwargs = {n: v for v, n in zip(items, names) if n}
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

def from_r(value):
    """The Python value of an R value sent by R in the envelope (as_py() in
    R/convert.R; pycg/r/envelope.py), R functions as `RFunction`s."""
    return envelope.decode(value, _r_function)


def _r_function(bridged, params):
    # params: R formals as python_signature() describes them, or None
    signature = None if params is None else make_signature(
        params, "pycg.r (R formals)")
    return RFunction(bridged, None, signature)
