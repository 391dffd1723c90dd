"""The recording core: what a tape records, and the backward loop.

Below `pycg.ops` and above `pycg.tensor`; it never imports a backend or an
op. Everything above reaches it by the functions here:

- `Rule`, `RULES`, `defvjp`, `defvjp_each`: the VJP table of built-in ops;
- `apply`, `apply_nograd`, `record`, `record_one`, `record_multi`: run a
  kernel and record it on every recording tape that tracks one of its
  inputs;
- `carries_gradient`: whether a recording tape differentiates through a
  tensor (the R border refuses to turn such a tensor into R numbers);
- `Recorder`: one tape's record; `push`, `pop`, `resume` and `Aside`
  manage the stack of recording tapes of the calling thread or task (a
  context's, pycg.core.thread_state), each whole against Ctrl-C;
- (pycg.core.forward: what `custom_gradient` needs around a forward);
- (pycg.core.backward: `backward`, the chain rule over a record).

Every tape entry has one shape, ``(backward, inputs, outputs, params)``:
``outputs`` is a tuple and ``backward(upstreams, inputs, outputs, params,
live)`` returns one gradient (or None) per input. Recorded order is a
topological order, so the backward pass is a single reversed loop.
"""
import contextvars
import functools
import itertools

from pycg.core.atomic import WholeExit, whole
from pycg.core.sigint import protected
from pycg.core.thread_state import collecting, put, restore, state
from pycg.tensor import Tensor, Variable
from pycg.tensor.convert import is_differentiable


# ---- the VJP table ----------------------------------------------------------
class Rule:
    """The VJP of a built-in op: one function per input, called as
    fn(upstream, output, *inputs, **params). `elementwise`: each input's
    gradient at a position comes from the upstream at that position alone
    (before broadcasting is undone; set by register_array_ops)."""

    __slots__ = ("name", "fns", "broadcast", "_one", "direct", "elementwise",
                 "forward")

    def __init__(self, name, fns, broadcast=False):
        self.name, self.fns, self.broadcast = name, tuple(fns), broadcast
        self._one = self.fns[0] if len(self.fns) == 1 else None
        self.direct = None   # see register_array_ops
        self.elementwise = False
        self.forward = None   # its way in forward mode (pycg.core.tangents)

    def __call__(self, ups, ins, outs, params, live):
        g, out = ups[0], outs[0]
        if len(ins) == 1:
            x = ins[0]
            return (self.one_input(g, out, x, params, not state().recorders)
                    if x._id in live else None,)
        if params:
            return [fn(g, out, *ins, **params) if x._id in live else None
                    for fn, x in zip(self.fns, ins)]
        return [fn(g, out, *ins) if x._id in live else None
                for fn, x in zip(self.fns, ins)]

    def one_input(self, g, out, x, params, direct_ok):
        """The gradient of an entry of one input (the hot case of a chain;
        __call__ and the backward loop both take it): the direct VJP on
        backend values where `direct_ok` (nothing records: a nested tape
        needs the rule's recorded ops), else the rule."""
        direct = self.direct
        if direct is not None and direct_ok and not params:
            gv, ov = g._value, out._value
            t = type(gv)   # (a type in _TYPED says its dtype: no reads)
            if t is type(ov) and (t in _TYPED or gv.dtype is ov.dtype):
                value = direct(gv, ov, x._value)
                if value is not None:
                    return Tensor(value)
        one = self._one or next(iter(self.fns))   # (several inputs, one given)
        return one(g, out, x, **params) if params else one(g, out, x)


_TYPED = set()   # value types whose type says their dtype (NumPy's scalars)


RULES = {}


def defvjp(name, *fns, broadcast=False):
    """Register the VJP of op `name`: one function per input, each called
    as fn(upstream, output, *inputs, **params). `None` marks an input that
    never gets a gradient. `broadcast=True` lets the backward loop undo
    NumPy broadcasting of the inputs."""
    if name in RULES:
        raise ValueError(f"pycg: a VJP for {name!r} is registered twice")
    fns = tuple(fn if fn is not None else _no_grad for fn in fns)
    RULES[name] = Rule(name, fns, broadcast)


def defvjp_each(name, fn):
    """Register the VJP of an op with any number of inputs: fn(i, upstream,
    output, *inputs, **params) gives the gradient for input i."""
    defvjp(name)
    RULES[name].fns = _PerInput(fn)


class _PerInput:
    """fns of a variadic rule: zipped with the inputs, one per input."""

    def __init__(self, fn):
        self.fn = fn

    def __iter__(self):
        return (functools.partial(self.fn, i) for i in itertools.count())


def _no_grad(*_, **__):
    return None


# ---- array helpers the backward loop needs (registered by pycg.ops) ---------
_array = {}


def register_array_ops(ones_like, zeros_like, unbroadcast, direct=(),
                       typed=frozenset(), reached=None, elementwise=()):
    """pycg.ops hands the core the array functions it needs, and `direct`:
    for some unary rules, the same VJP on backend values, (g, ans, x) ->
    value or None (use the rule), used while nothing records; `typed`:
    value types whose type alone says their dtype (NumPy's scalars);
    `reached`: two functions (g, ans, gx) -> gx, and 0 where the output ans
    is NaN and the upstream g exactly 0 (strong zeros, pycg.core.backward),
    for the rules of the ops in `elementwise`: recorded, and on backend
    values (nothing records)."""
    _array.update(ones_like=ones_like, zeros_like=zeros_like,
                  unbroadcast=unbroadcast, reached=reached)
    _TYPED.clear()
    _TYPED.update(typed)
    for name, fn in dict(direct).items():
        RULES[name].direct = fn
    for name in elementwise:
        if name in RULES:
            RULES[name].elementwise = True


def zeros_like(x):
    return _array["zeros_like"](x)


# ---- recording ---------------------------------------------------------------
class Recorder:
    """One tape's record: the tracked ids, the entries, and the variables
    it watches. `roots`: the ids tracked by `track` (the others are outputs
    of recorded entries), so that sources including every root reach all
    of `ids` (the backward loop then needs no live_ids)."""

    __slots__ = ("ids", "entries", "variables", "watch_accessed", "roots")

    def __init__(self, watch_accessed=True):
        self.ids, self.entries, self.variables = set(), [], {}
        self.watch_accessed, self.roots = watch_accessed, set()

    def track(self, x):
        self.ids.add(x._id)
        self.roots.add(x._id)
        if isinstance(x, Variable):
            self.variables[x._id] = x


on_recording = []   # fn(token, True / False) as `token` (a tape's record, a
# backward loop) starts / stops recording (pycg.core.gc_policy)
# classes of entry backwards with a method one_input(upstream, output, x,
# params, direct_ok) -> gradient or None (direct_ok: nothing records): for
# their entries of one input and one output, the loop calls that, with no
# tuples (Rule's, a custom gradient's)
UNARY_BACKWARDS = {Rule}


# ---- changes of recording state, whole against Ctrl-C ------------------------
# Each step below is idempotent and its state change a single store
# (pycg.core.atomic): cut short by an asynchronous exception (Ctrl-C), a
# beginning is undone (`push`: as before the call), an end is finished
# (`pop`, `resume`, `stopped`: as after it). A caller begins inside the
# `try` whose `finally` ends.
@protected
def started(token):
    """`token` records (for pycg.core.gc_policy); cut short: undone."""
    try:
        for fn in on_recording:
            fn(token, True)
    except BaseException:
        stopped(token)
        raise


@protected


def stopped(token):
    """`token` records no more (again is nothing); cut short: finished."""
    whole(_stopped, token)


@protected


def _stopped(token):
    for fn in on_recording:
        fn(token, False)


@protected


def push(recorder, index=None):
    """`recorder` records in the calling context (at `index` of its tapes,
    last by default; already recording: nothing). Cut short: undone."""
    try:
        _put_in(recorder, index)
        started(recorder)
    except BaseException:
        pop(recorder)
        raise


@protected


def resume(recorder, index):
    """`recorder`, paused by `pop` at `index`, records again. Cut short:
    finished."""
    whole(_put_in, recorder, index)


@protected


def _put_in(recorder, index):
    s = state()
    if recorder not in s.recorders:
        recs = list(s.recorders)
        recs.insert(len(recs) if index is None else index, recorder)
        put(tuple(recs), s.watching, s.branch)


@protected


def pop(recorder, pause=False):
    """Stop `recorder` recording in the calling context (from another
    context, or again: nothing but the GC's count); returns its former
    position, or None. With `pause`, it still counts as recording (to be
    `resume`d). Cut short: finished."""
    return whole(_pop, recorder, pause)


@protected


def _pop(recorder, pause):
    s = state()
    i = None
    if recorder in s.recorders:
        i = s.recorders.index(recorder)
        put(s.recorders[:i] + s.recorders[i + 1:], s.watching, s.branch)
    if not pause:
        _stopped(recorder)
    return i


def position(recorder):
    """Where `recorder` stands among the calling context's recording tapes,
    or None."""
    recs = state().recorders
    return recs.index(recorder) if recorder in recs else None


class Aside(WholeExit):
    """``with Aside(tapes, probe, branch):`` the calling context's `tapes`
    stop recording and `probe` (a Recorder, or None) records in their
    place, with `branch` as the traced branch's probe (pycg.core.forward);
    the exit puts back the state exactly as it was. Entering and leaving
    are each one state change (whole against Ctrl-C)."""

    __slots__ = ("tapes", "probe", "branch", "before")

    def __init__(self, tapes, probe=None, branch=False):
        self.tapes, self.probe, self.branch = tapes, probe, branch
        self.before = None

    @protected
    def __enter__(self):
        try:
            s = self.before = state()
            if self.probe is not None:
                started(self.probe)
            recs = tuple(r for r in s.recorders if r not in self.tapes)
            if self.probe is not None:
                recs += (self.probe,)
            put(recs, s.watching,
                s.branch if self.branch is False else self.branch)
            return self
        except BaseException:
            self.__exit__()
            raise

    @protected
    def _leave(self):
        if self.before is not None:
            restore(self.before)
        if self.probe is not None:
            _stopped(self.probe)


def is_recording(recorder=None):
    recorders = state().recorders
    return recorder in recorders if recorder else bool(recorders)


def carries_gradient(x):
    """Whether a tape recording in the calling context differentiates
    through tensor `x`: `x` is floating or complex, and a recording tape
    tracks it (or, a trainable variable, would track it when read). Its
    value leaving pycg as plain numbers (the R border) would then lose
    that gradient. Inside a custom_gradient forward nothing does: its rule
    gives the gradient, whatever the forward does with values."""
    s = state()
    if not s.recorders or s.watching or not is_differentiable(x.dtype):
        return False
    xid, variable = x._id, x._trainable_var
    return any(xid in rec.ids or (variable and rec.watch_accessed)
               for rec in s.recorders)


def saw_variable(v):
    """A trainable variable was read: watching tapes track it."""
    s = state()
    for rec in s.recorders:
        if rec.watch_accessed and v._id not in rec.ids:
            rec.track(v)
    if s.watching:   # (the forwards running on this thread collect it)
        for seen in collecting.stack:
            seen[v._id] = v


def apply(name, kernel, inputs, params=None):
    """Run kernel(*values, **params) and record it under rule `name`."""
    vals = [x._value for x in inputs]
    out = Tensor(kernel(*vals, **params) if params else kernel(*vals))
    recorders = state().recorders
    if recorders:
        record(recorders, RULES[name], inputs, out, params)
    return out


def apply_nograd(kernel, inputs, params=None):
    vals = [x._value for x in inputs]
    return Tensor(kernel(*vals, **params) if params else kernel(*vals))


def record(recorders, rule, inputs, output, params=None):
    """Record a single-output op on each of `recorders` (state().recorders,
    read once by the caller) that tracks one of its inputs (plain tensors: ops
    read Variables through saw_variable first)."""
    for rec in recorders:
        ids = rec.ids
        for x in inputs:
            if x._id in ids:
                rec.entries.append((rule, inputs, (output,), params))
                ids.add(output._id)
                break


def record_one(recorders, backward_fn, x, output, params=None):
    """record() for an entry of one input and one output (the hot case of
    a chain: a unary op, a custom gradient of one tensor)."""
    xid = x._id
    for rec in recorders:
        if xid in rec.ids:
            rec.entries.append((backward_fn, (x,), (output,), params))
            rec.ids.add(output._id)


def record_multi(backward_fn, inputs, outputs):
    """Record an op with several outputs; backward_fn has the entry shape
    (see the module docstring)."""
    for x in inputs:
        if x._trainable_var:
            saw_variable(x)
    inputs, outputs = tuple(inputs), tuple(outputs)
    for rec in state().recorders:
        ids = rec.ids
        for x in inputs:
            if x._id in ids:
                rec.entries.append((backward_fn, inputs, outputs, None))
                ids.update(o._id for o in outputs)
                break


# ---- the backward pass -------------------------------------------------------
# at most one check(rule, i, grad, inputs, outputs), per thread and task
_NUMERICS = contextvars.ContextVar("pycg_numerics_check", default=None)
numerics_check = _NUMERICS.get   # the calling context's check, or None


def set_numerics_check(check):
    """Install `check` (or None) for every gradient computed in the calling
    thread or task (a context variable); returns the previous."""
    previous = _NUMERICS.get()
    _NUMERICS.set(check)
    return previous


def live_ids(entries, source_ids):
    """Ids reachable from the sources through recorded ops."""
    live = set(source_ids)
    add = live.add
    for _, ins, outs, _ in entries:
        for x in ins:
            if x._id in live:   # (one output: an add, 3x a set's update)
                if len(outs) == 1:
                    add(outs[0]._id)
                else:
                    live.update([o._id for o in outs])
                break
    return live
