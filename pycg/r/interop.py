"""The Python half of the R package (R/convert.R is the other): the
functions its wrappers call through reticulate, in a Python that R hosts.

R values arrive in the envelope of pycg/r/envelope.py (R/convert.R's
as_py() writes it; the rules are in its header); `to_r` answers
codec.to_r's `(bytearray, shape, kind)`.

Every function R calls here is `_guarded`: it decodes its arguments and
returns a `Failure` instead of raising, so R re-raises a short R error. Ops
are named by strings: each Python object R passes costs an S3 dispatch;
the other functions R calls by name (core_call() in R/calls.R) are the
table of pycg/r/entries.py. R's meaning on tensors is pycg/r/base/.
"""
import functools
import traceback
import warnings

import numpy as np

import pycg
from pycg.core import recorder
from pycg._errors import facts_of
from pycg.core.backward import strong_zeros
from pycg.r import _hosted, _interrupts, codec, entries, envelope, replay
from pycg.r.base import (arith, replace, rmath, semantics, square, subset,
                         summary)
from pycg.r.conditions import RCallbackError, RCallbackInterrupt
from pycg.r._session import LOCK as _R_LOCK  # R is single-threaded
from pycg.custom.signature import make_signature
from pycg.tensor import Tensor
from pycg.tensor.convert import as_dtype

CONDITION_KEY = "__pycg_r_condition__"

_hosted.apply()


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


def _guarded(fn, conversion=False):
    """fn on decoded arguments, with strong zeros (pycg.core.backward); an
    exception becomes a Failure. Each call is a step of the record
    pycg_grad() may be making (pycg/r/replay.py); `conversion`: fn turns a
    tensor into R values."""
    @functools.wraps(fn)
    def guarded(*args, **kwargs):
        try:
            with strong_zeros():
                out = replay.call(fn, [_decode(a) for a in args],
                                  {k: _decode(v) for k, v in kwargs.items()},
                                  conversion)
        except (Exception, RCallbackInterrupt) as exc:  # R turns it into an R error
            out = Failure(square.raised_at_run(exc))
        if _hosted.active:
            if warnings.showwarning is not _hosted.collect:
                _hosted.reinstall()
            if _hosted.pending:
                out = Warned(out, _hosted.pending[:])
                _hosted.pending.clear()
                replay.warned()
        return out
    return guarded


_decode = envelope.decode


@functools.partial(_guarded, conversion=True)
def to_r(x, checked=False, limit=None):
    """codec.to_r of a tensor; with `checked` (a conversion whose R numbers
    may be computed with: as.vector(), as.double(), ...), None instead
    where a recording tape differentiates through it, and R refuses the
    conversion (stop_leaving_tape() in R/convert.R). `limit`: codec.to_r's."""
    if checked and isinstance(x, Tensor) and recorder.carries_gradient(x):
        return None
    return codec.to_r(x, limit)


# (not a step of a record: the tensor it makes is R data, a constant)
stage_r = _guarded(codec.Staged, conversion=True)


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
    """The function pycg/r/entries.py lists as `name` (e.g.
    "config.backend", "r.linalg.matprod"), of *args and **kwargs; a name
    not listed there is refused."""
    return entries.lookup(name)(*args, **kwargs)


# the methods of a tensor that hand its values over as Python numbers or
# a NumPy array: from R (x$numpy()), refused as to_r's checked conversions
_VALUES = frozenset({"numpy", "tolist", "item", "__array__", "__float__",
                     "__complex__"})


@_guarded
def call_method(obj, name, /, *args, **kwargs):
    """obj.<name>(*args, **kwargs); None for a method of _VALUES on a tensor
    a recording tape differentiates through (R refuses it)."""
    if name in _VALUES and isinstance(obj, Tensor) and \
            recorder.carries_gradient(obj):
        return None
    return getattr(obj, name)(*args, **kwargs)


@_guarded
def enter_tape(persistent, watch_accessed_variables):
    """A new GradientTape, entered (R's with(gradient_tape() %as% tape,
    ...) in one call)."""
    return pycg.GradientTape(persistent, watch_accessed_variables).__enter__()


r_operator = _guarded(semantics.quiet(arith.operator))
r_unary = _guarded(semantics.quiet(arith.unary))
r_diff = _guarded(semantics.quiet(arith.diff))
r_math = _guarded(semantics.quiet(rmath.math1))
r_complex = _guarded(semantics.quiet(rmath.complex_part))
r_summary = _guarded(semantics.quiet(summary.summary))
r_parallel = _guarded(semantics.quiet(summary.parallel))
r_as_double = _guarded(semantics.as_double)
r_replace = _guarded(semantics.quiet(replace.replace))
r_ifelse = _guarded(semantics.quiet(replace.ifelse))
r_concat = _guarded(semantics.quiet(replace.concatenate))


@functools.partial(_guarded, conversion=True)
def to_numpy(x, dtype=None):
    """R data (decoded: R's layout kept) or a tensor as a NumPy array, for
    the Python libraries R calls through reticulate (which, before 1.36,
    cannot hand R arrays to NumPy 2 itself)."""
    if isinstance(x, Tensor) and recorder.carries_gradient(x):
        return None
    a = x.numpy() if isinstance(x, Tensor) else np.asarray(x)
    return a if dtype is None else a.astype(as_dtype(dtype, "pycg_to_numpy"))


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
            with _interrupts.r_running(hold=True):   # (R/calls.R r_shim)
                out = self.fn(*args, **kwargs)
            return _decode(_r_value(out, self.__name__))

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
            raise RCallbackError(x["message"], x.get("classes") or ())
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
            with _interrupts.r_running(hold=True):
                out = self.fn(*args, **kwargs)
            output, grad_fn, signature = _r_value(out, self.__name__)
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


r_subset = _guarded(subset.subset)
