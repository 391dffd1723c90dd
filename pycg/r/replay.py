"""pycg_grad() of an R function without R: the R function runs once per
input signature while its calls into pycg are recorded, and later calls
replay the record in Python (compiled by pycg.function where the backend
compiles), as jax.jit replays a trace. docs/r-replay.md has the design.

A record is sound only if nothing the R code decided could differ in
another call: every call R makes into pycg/r/interop.py (each `_guarded`)
is a step; a step's tensor arguments are the function's inputs, earlier
steps' outputs or constants (R data, tensors made before the call); its
other outputs (numbers, strings) are checked at each replay, its tensors'
shapes and dtypes too. A record is not kept (the R function then runs each
call, as without replay, and `explain()` says why) where R converted a
tensor computed from the inputs to R values (to branch on it), a step
warned or failed, or returned an object other than tensors and plain
values, or where a tensor computed from the inputs reached pycg by a way no
step records. The R side (R/functional.R) adds what only R can see: the R
variables the function reads (a change starts a new record) and R's random
numbers (a record that drew some is not kept).
"""
import threading

import pycg
from pycg.core.thread_state import state
from pycg.tensor import Tensor

_local = threading.local()   # .trace: the _Trace this thread records, or None


class _Diverged(Exception):
    """A replayed step returned other than what the record says."""


def current():
    """The _Trace the calling thread records, or None."""
    return getattr(_local, "trace", None)


def call(fn, args, kwargs, conversion=False):
    """fn(*args, **kwargs) for R, as a step of the record the calling thread
    makes (calls made inside a step are the step's own). `conversion`: fn
    turns its argument into R values."""
    trace = current()
    if trace is None or trace.depth:
        return fn(*args, **kwargs)
    trace.depth += 1
    try:
        out = fn(*args, **kwargs)
    except BaseException as e:
        trace.refuse(f"a call into pycg failed ({type(e).__name__}), and R "
                     f"may have handled the error")
        raise
    finally:
        trace.depth -= 1
    trace.add(fn, args, kwargs, out, conversion)
    return out


def warned():
    """The step just made warned: a replay would not warn."""
    trace = current()
    if trace is not None and not trace.depth:
        trace.refuse("a call into pycg warned (a replay would not)")


class _Ref:
    __slots__ = ("slot",)

    def __init__(self, slot):
        self.slot = slot


_PLAIN = (bool, int, float, complex, str, bytes, type(None))


class _Trace:
    """The steps of one run of the R function."""

    def __init__(self):
        self.steps, self.slots, self.keep = [], {}, []
        self.depth, self.why_not, self.result = 0, None, None
        self.recorder = None

    def refuse(self, why):
        if self.why_not is None:
            self.why_not = why

    def begin(self, inputs):
        recorders = state().recorders
        self.recorder = recorders[-1] if recorders else None
        return [self._slot(x) if isinstance(x, Tensor) else x for x in inputs]

    def _slot(self, x):
        self.keep.append(x)
        return self.slots.setdefault(x._id, len(self.slots))

    def _derived(self, x):
        return x._id in self.slots or (
            self.recorder is not None and x._id in self.recorder.ids)

    def _arguments(self, tree):
        if isinstance(tree, Tensor):
            slot = self.slots.get(tree._id)
            if slot is not None:
                return _Ref(slot)
            if self._derived(tree):
                self.refuse("a tensor computed from the arguments reached "
                            "pycg by a call no record holds")
            return tree
        if isinstance(tree, (list, tuple)):
            return type(tree)(self._arguments(t) for t in tree)
        if isinstance(tree, dict):
            return {k: self._arguments(v) for k, v in tree.items()}
        return tree

    def _template(self, tree):
        if isinstance(tree, Tensor):
            return ("t", self._slot(tree), tuple(tree.shape), tree.dtype)
        if isinstance(tree, _PLAIN):
            return ("v", tree)
        if isinstance(tree, (list, tuple)):
            return (type(tree), tuple(self._template(t) for t in tree))
        if isinstance(tree, dict):
            return ("d", tuple(tree),
                    tuple(self._template(v) for v in tree.values()))
        self.refuse(f"a call into pycg returned a {type(tree).__name__}")
        return ("v", None)

    def add(self, fn, args, kwargs, out, conversion):
        if conversion:
            if any(isinstance(a, Tensor) and self._derived(a) for a in args):
                self.refuse("the R function converts a tensor computed from "
                            "its arguments to R values (as.numeric(), "
                            "as.array(), if (...))")
            return
        args, kwargs = self._arguments(list(args)), self._arguments(kwargs)
        self.steps.append((fn, args, kwargs, self._template(out)))

    def finish(self, out):
        self.result = self._arguments_result(out)

    def _arguments_result(self, out):
        if isinstance(out, Tensor) and out._id not in self.slots:
            if self._derived(out):
                self.refuse("the result reached pycg by a call no record "
                            "holds")
        return self._arguments(out)


def _bind(tree, values):
    if isinstance(tree, _Ref):
        return values[tree.slot]
    if isinstance(tree, (list, tuple)):
        return type(tree)(_bind(t, values) for t in tree)
    if isinstance(tree, dict):
        return {k: _bind(v, values) for k, v in tree.items()}
    return tree


def _check(template, out, values):
    kind = template[0]
    if kind == "t":
        if not isinstance(out, Tensor) or tuple(out.shape) != template[2] \
                or out.dtype != template[3]:
            raise _Diverged(f"a step returned {_describe(out)} where the "
                            f"record has a tensor of shape {template[2]}")
        values[template[1]] = out
    elif kind == "v":
        same = type(out) is type(template[1]) and (
            out == template[1] or out != out and template[1] != template[1])
        if not same:
            raise _Diverged(f"a step returned {out!r} where the record has "
                            f"{template[1]!r}")
    elif kind == "d":
        if not isinstance(out, dict) or tuple(out) != template[1]:
            raise _Diverged("a step returned another dict")
        for t, v in zip(template[2], out.values()):
            _check(t, v, values)
    else:
        if type(out) is not kind or len(out) != len(template[1]):
            raise _Diverged(f"a step returned {_describe(out)} where the "
                            f"record has a {kind.__name__} of "
                            f"{len(template[1])}")
        for t, v in zip(template[1], out):
            _check(t, v, values)


def _describe(x):
    if isinstance(x, Tensor):
        return f"a tensor of shape {tuple(x.shape)}"
    return f"a {type(x).__name__}"


class _Program:
    """A sound record as a Python function of the inputs."""

    def __init__(self, trace):
        self.steps, self.result = trace.steps, trace.result

    def __call__(self, *inputs):
        values = {}
        for i, x in enumerate(inputs):
            values[i] = x
        for fn, args, kwargs, template in self.steps:
            out = fn(*_bind(args, values), **_bind(kwargs, values))
            _check(template, out, values)
        return _bind(self.result, values)


class Replayed:
    """value_and_grad(f, argnums, has_aux) of an R function f (an
    RCallable), replayed where a sound record of f for the arguments'
    signature exists. `transform(g)` makes the differentiated function of
    a Python function g (pycg.value_and_grad with the caller's options)."""

    def __init__(self, f, transform, compile=True, why_not=None):
        self.f, self.transform, self.compile = f, transform, compile
        self.eager = transform(_named(self._recording, f))
        self.entries = {}      # signature -> _Entry or the reason there is none
        self.last = None       # (signature, made by the last call)
        self.why_not = why_not   # (R's reason to record nothing)
        self._trace = None

    def __call__(self, *args, **kwargs):
        if kwargs or self.why_not:   # (R passes arguments by position)
            return self.eager(*args, **kwargs)
        key = _signature(args)
        entry = self.entries.get(key)
        self.last = (key, entry is None)
        if isinstance(entry, _Entry):
            try:
                return entry(args)
            except _Diverged as e:
                self.entries[key] = f"a replay diverged: {e}"
                self.last = (key, False)
        if entry is not None:
            return self.eager(*args)
        return self._record(key, args)

    def _record(self, key, args):
        trace = _Trace()
        _local.trace = trace
        self._trace = trace
        try:
            out = self.eager(*args)
        finally:
            _local.trace = None
            self._trace = None
        if trace.why_not is None and trace.result is None:
            trace.refuse("the R function was not called")
        self.entries[key] = trace.why_not or _Entry(
            self.transform(_named(_Program(trace), self.f)), self.compile)
        return out

    def _recording(self, *inputs):
        trace = self._trace
        if trace is None or trace.steps or trace.result is not None:
            return self.f(*inputs)   # (called again inside: not recorded)
        trace.begin(inputs)
        out = self.f(*inputs)
        trace.finish(out)
        return out

    def not_replayable(self, why):
        """The last call's record is not kept (R saw `why`)."""
        if self.last is not None and self.last[1]:
            self.entries[self.last[0]] = why

    def forget(self):
        """The R variables the function reads changed: no record holds."""
        self.entries.clear()

    def explain(self):
        """For each signature seen: how calls run, as lines of text."""
        if self.why_not:
            return [f"runs the R function each call: {self.why_not}"]
        if not self.entries:
            return ["no call yet"]
        return [f"{key[0]} {_show(key)}: " + (
            entry.how() if isinstance(entry, _Entry)
            else f"runs the R function each call: {entry}")
            for key, entry in self.entries.items()]


COMPILE_AFTER = 50   # eager replays of a record before it is compiled


class _Entry:
    """A program's differentiated function, run eagerly for its first
    COMPILE_AFTER calls (a graph's trace costs about as much as 100 eager
    replays of a small likelihood: a short fit is quicker without), then
    compiled by pycg.function where that succeeds: on tensorflow by XLA
    first (a small likelihood's value and gradient in a third of a plain
    graph's time), else as a graph."""

    def __init__(self, eager, compile):
        self.eager, self.calls = eager, 0
        backend = pycg.config.backend()
        self.ways = [(how, pycg.function(eager, jit_compile=jit))
                     for how, jit in _compiling(backend)] \
            if compile else []
        self.why_eager = None if self.ways else (
            f"the {backend} backend has no graphs" if compile
            else "compile = FALSE")

    def __call__(self, args):
        self.calls += 1
        if not self.ways or self.calls <= COMPILE_AFTER:
            return self.eager(*args)
        while self.ways:
            try:
                return self.ways[0][1](*args)
            except Exception as e:   # (a value read while tracing, ...)
                failed = e
            out = self.eager(*args)   # (raises where the error is the call's)
            self.ways.pop(0)
            self.why_eager = (f"it could not be compiled "
                              f"({type(failed).__name__}: {failed})")
            if not self.ways:
                return out
        return self.eager(*args)

    def how(self):
        if self.ways:
            return (f"replayed without R, compiled ({self.ways[0][0]}) from "
                    f"call {COMPILE_AFTER + 2} on (calls so far: "
                    f"{self.calls + 1})")
        return f"replayed without R, eagerly: {self.why_eager}"


# the ways pycg.function compiles on each backend, tried in order (it runs
# the others' eagerly)
def _compiling(backend):
    if backend == "tensorflow":
        return (("by XLA", True), ("a TensorFlow graph", False))
    return (("by jax.jit", False),) if backend == "jax" else ()


def _named(fn, like):
    """fn called by the name and with the signature of `like` (an
    RCallable), which error messages give."""
    def call(*args, **kwargs):
        return fn(*args, **kwargs)
    call.__name__ = call.__qualname__ = like.__name__
    signature = getattr(like, "__signature__", None)
    if signature is not None:
        call.__signature__ = signature
    return call


def _signature(args):
    """The backend, and each argument's shape and dtype (a tensor's) or
    type (a number's) and value (a string's, a bool's, None's)."""
    return (pycg.config.backend(),) + tuple(
        (tuple(a.shape), str(a.dtype)) if isinstance(a, Tensor)
        else (type(a).__name__,
              a if isinstance(a, (str, bool, type(None))) else None)
        for a in args)


def _show(key):
    parts = []
    for k in key[1:]:
        parts.append(f"{k[1]}[{', '.join(map(str, k[0]))}]"
                     if isinstance(k[0], tuple) else k[0])
    return "(" + ", ".join(parts) + ")"
