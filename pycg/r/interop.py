"""The Python half of the R package (R/convert.R is the other): the
functions its wrappers call through reticulate, in a Python that R hosts.

reticulate 1.28 refuses NumPy 2 for its own array conversion, so arrays
travel as pycg/r/codec.py writes them: R sends `{ARRAY_KEY: bytearray,
"shape": [...], "kind": "double" | "integer" | "logical" | "complex"}`,
1-based index tensors as `{INDEX_KEY: tensor}` and tuples as `{TUPLE_KEY:
[...]}`; `to_r` answers codec.to_r's `(bytearray, shape, kind)`.

Every function R calls here is `_guarded`: it decodes its arguments and
returns a `Failure` instead of raising, so R re-raises a short R error.
Ops and pycg functions are named by strings, because every Python object R
passes as an argument costs reticulate an R-level S3 dispatch.
"""
import functools
import traceback
import warnings

import numpy as np

import pycg
from pycg._errors import Arg, facts_of, user_error
from pycg.r import _hosted, arith, codec, na  # noqa: F401 (R calls them)
from pycg.r.na import symbolic
from pycg.r._session import LOCK as _R_LOCK  # R is single-threaded
from pycg.custom.signature import make_signature
from pycg.tensor import Tensor

ARRAY_KEY = "__pycg_r_array__"
INDEX_KEY = "__pycg_r_index__"
TUPLE_KEY = "__pycg_r_tuple__"
CONDITION_KEY = "__pycg_r_condition__"

_hosted.apply()


class RCallbackError(Exception):
    """An R error in R code that Python called back while R hosts Python
    (a rule, a forward; R re-signals the original). pycg.r.RError is the
    other direction: R code called by a Python program."""


class RCallbackInterrupt(KeyboardInterrupt):
    """An interrupt or time limit taken in R code that Python called back
    while R hosts Python: Python
    unwinds (tapes exit), then R re-signals it at the top. A
    KeyboardInterrupt, so that a Python caller's `except Exception` (pycg.r,
    a training loop) never swallows it."""


class Failure:
    """An exception caught for R, handed over as a value."""

    def __init__(self, exc):
        self.type = type(exc).__name__
        self.message = str(exc)
        self.traceback = "".join(traceback.format_exception(exc))
        self.template, self.facts = facts_of(exc) or (None, None)


class Warned:
    """A result with the Python warnings raised while computing it."""

    def __init__(self, value, warnings):
        self.value, self.warnings = value, warnings


def _guarded(fn):
    """fn on decoded arguments; an exception becomes a Failure."""
    @functools.wraps(fn)
    def guarded(*args, **kwargs):
        try:
            out = fn(*[_decode(a) for a in args],
                     **{k: _decode(v) for k, v in kwargs.items()})
        except (Exception, RCallbackInterrupt) as exc:  # R turns it into an R error
            out = Failure(exc)
        if _hosted.active:
            if warnings.showwarning is not _hosted.collect:
                _hosted.reinstall()
            if _hosted.pending:
                out = Warned(out, _hosted.pending[:])
                _hosted.pending.clear()
        return out
    return guarded


def _decode(x):
    if type(x) is dict:
        if ARRAY_KEY in x:
            return codec.from_r(x[ARRAY_KEY], x["shape"], x["kind"])
        if INDEX_KEY in x:
            return _zero_based(pycg.convert_to_tensor(x[INDEX_KEY]),
                               x.get("arg", "indices"))
        if TUPLE_KEY in x:
            return tuple(_decode(v) for v in x[TUPLE_KEY])
        return {k: _decode(v) for k, v in x.items()}
    if type(x) is list:
        return [_decode(v) for v in x]
    if type(x) is tuple:
        return tuple(_decode(v) for v in x)
    return x


def _zero_based(index, arg):
    """A tensor of R's 1-based positions as 0-based ones; a position below 1
    (which Python would read from the end) is an error."""
    if not symbolic(index) and index.size and \
            pycg.ops.min(index).numpy() < 1:
        raise user_error(IndexError,
                         "{arg} holds {value}: positions are 1-based (1 is "
                         "the first); to leave elements out use x[-i]",
                         arg=Arg(arg), value=pycg.ops.min(index).numpy().item())
    return pycg.ops.subtract(index, 1)


to_r = _guarded(codec.to_r)


@_guarded
def call_op(name, /, *args, **kwargs):
    """pycg.ops.<name>(*args, **kwargs)."""
    return getattr(pycg.ops, name)(*args, **kwargs)


@_guarded
def call_op_index(name, /, *args, **kwargs):
    """pycg.ops.<name>(...) for ops returning 0-based indices: adds 1 to the
    output (to each output of a tuple), for R."""
    out = getattr(pycg.ops, name)(*args, **kwargs)
    if isinstance(out, (tuple, list)):
        return tuple(pycg.ops.add(o, 1) for o in out)
    return pycg.ops.add(out, 1)


@_guarded
def call_core(name, /, *args, **kwargs):
    """pycg.<name>(*args, **kwargs); `name` may be dotted, e.g.
    "config.backend"."""
    return functools.reduce(getattr, name.split("."), pycg)(*args, **kwargs)


@_guarded
def call_method(obj, name, /, *args, **kwargs):
    """obj.<name>(*args, **kwargs)."""
    return getattr(obj, name)(*args, **kwargs)


def guard(fn):
    """fn as R calls it: arguments decoded, exceptions as Failures."""
    return _guarded(fn)


class RCallable:
    """An R function (a reticulate callable) with the signature of its R
    formals, which reticulate hides behind (*args, **kwargs), and a name for
    error messages. The values it returns are decoded."""

    def __init__(self, fn, signature, name):
        self.fn = fn
        if signature is not None:
            self.__signature__ = signature
        self.__name__ = self.__qualname__ = name

    def __call__(self, *args, **kwargs):
        self._check_arguments(args, kwargs)
        with _R_LOCK:
            return _decode(_r_value(self.fn(*args, **kwargs), self.__name__))

    def _check_arguments(self, args, kwargs):
        # what a Python function with these parameters would raise, rather
        # than R's "unused argument" after the call
        sig = getattr(self, "__signature__", None)
        if sig is None:
            return
        try:
            sig.bind(*args, **kwargs)
        except TypeError as e:
            params = ", ".join(p.name if p.kind != p.VAR_POSITIONAL else "..."
                               for p in sig.parameters.values())
            raise TypeError(
                f"the R function({params}) cannot take {len(args)} "
                f"positional argument(s)"
                f"{' and ' + ', '.join(kwargs) if kwargs else ''}: {e}"
            ) from None


def _r_value(x, name):
    """What the R function `name` returned; R's condition marker becomes
    RCallbackError or RCallbackInterrupt (R never lets an R condition cross Python's
    frames). An interrupt's message says where it landed."""
    if type(x) is dict and CONDITION_KEY in x:
        if x[CONDITION_KEY] != "interrupt":
            raise RCallbackError(x["message"])
        where = x.get("where") or f"in the R function {name}"
        raise RCallbackInterrupt(f"{x['message']} ({where})")
    return x


class RForward(RCallable):
    """The forward function of an R op_custom_gradient: R returns
    [output, grad_fn, grad_signature], grad_fn an R function whose
    signature is grad_signature (None when grad_fn is already a Python
    callable)."""

    def __call__(self, *args, **kwargs):
        self._check_arguments(args, kwargs)
        with _R_LOCK:
            output, grad_fn, signature = _r_value(self.fn(*args, **kwargs),
                                                  self.__name__)
        if signature is not None:
            grad_fn = RCallable(grad_fn, signature, self.__name__)
        return _decode(output), grad_fn


@_guarded
def r_function(fn, signature, name, kind="function"):
    """An RCallable (kind "function") or RForward (kind "forward") for `fn`
    with `signature`, an inspect.Signature made by r_signature()."""
    cls = RForward if kind == "forward" else RCallable
    return cls(fn, signature, name)


@_guarded
def r_signature(params):
    """The inspect.Signature of R formals, as R's python_signature()
    describes them (the data of pycg.with_signature)."""
    return make_signature(params, "pycg (R formals)")


@_guarded
def r_subset(x, index, drop):
    """x[i, j, ...] with R's rules: 1-based positive indices select,
    negative ones exclude, logical ones mask (recycled), NULL (a missing
    index) keeps the whole extent; one index on an array indexes it in
    column-major order; `drop` removes every extent of length 1."""
    ops = pycg.ops
    x = pycg.convert_to_tensor(x)
    if len(index) == 1 and x.ndim != 1:
        if index[0] is None:
            return x
        x = r_ravel(x)
    elif len(index) != x.ndim:
        raise IndexError(
            f"pycg: incorrect number of dimensions: {len(index)} indices for "
            f"a tensor of {x.ndim} dimensions")
    for axis, i in enumerate(index):
        if i is not None:
            x = ops.take(x, _r_positions(i, x.shape[axis], axis), axis=axis)
    if drop and 1 in x.shape:
        x = ops.reshape(x, tuple(d for d in x.shape if d != 1))
    return x


def _r_positions(i, extent, axis):
    a = np.asarray(i.numpy() if isinstance(i, Tensor) else i)
    a = a.reshape(-1, order="F")  # an R matrix of indices reads by column
    if a.dtype == bool:
        if a.size > extent:
            raise IndexError(
                f"pycg: logical index of length {a.size} for an extent of "
                f"{extent} (dimension {axis + 1})")
        return np.flatnonzero(np.resize(a, extent) if a.size else a)
    if a.dtype.kind not in "iuf":
        raise IndexError(f"pycg: indices must be numbers or logicals, "
                         f"got {a.dtype}")
    a = np.trunc(a).astype(np.int64)
    if (a > extent).any():
        raise IndexError(
            f"pycg: subscript out of bounds: index {a.max()} for an extent "
            f"of {extent} (dimension {axis + 1})")
    if (a >= 0).all():
        return a[a != 0] - 1
    if (a <= 0).all():
        keep = np.ones(extent, dtype=bool)
        keep[-a[(a != 0) & (a >= -extent)] - 1] = False
        return np.flatnonzero(keep)
    raise IndexError("pycg: can't mix positive and negative subscripts")


def r_ravel(x):
    """The elements of x in R's (column-major) order, as a 1-d tensor."""
    ops = pycg.ops
    x = pycg.convert_to_tensor(x)
    return ops.reshape(ops.transpose(x), (-1,)) if x.ndim > 1 else \
        ops.reshape(x, (-1,))


@_guarded
def r_cumulative(name, x):
    """R's cumsum()/cumprod() on a tensor: along the column-major order."""
    return getattr(pycg.ops, name)(r_ravel(x), axis=0)


def r_objective(fun, x):
    """fun(x) for R's optim() and nlminb(), fun a
    pycg.optimize.scipy_objective: (value, the gradient as codec.to_r's
    triple). R calls it through call_core("r.interop.r_objective", ...),
    so that an older pycg fails only here, with a message naming it."""
    value, grad = fun(np.asarray(x.numpy() if isinstance(x, Tensor) else x,
                                 dtype=np.float64).reshape(-1))
    return value, codec.to_r(grad)
