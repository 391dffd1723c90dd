"""The recording state of one thread, asyncio task or copied context: the
tapes recording, how many custom_gradient forwards collect the variables
read, the probe of a traced branch. `state()` reads it (the op fast path:
`.active`, `.recorders`); pycg.core.recorder and pycg.core.forward change
it, through `put` and `forward_state`.

A state is never changed in place: each change is a new state set in the
calling context (a context variable). So a context copied from another (an
asyncio task, asyncio.to_thread, contextvars.copy_context().run) starts
with what recorded there when it was copied, as any context variable, and
what it starts or stops stays its own: a tape entered in one task never
records another task's ops. A new thread starts with an empty context.

A forward runs synchronously on its thread: the dicts that collect the
variables it reads are a stack of that thread's (`collecting`), and the
state it runs in is made once per state (`forward_state`)."""
import contextvars
import threading


class _ThreadState:
    """One context's recording state (read it with `state()`)."""

    __slots__ = ("recorders", "watching", "active", "branch", "_forward")

    def __init__(self, recorders=(), watching=0, branch=None):
        self.recorders = recorders  # recording tapes' records, innermost
        # last, a tuple (an op records where it is not empty; paused: ())
        self.watching = watching   # forwards collecting variables read
        self.active = bool(recorders) or watching > 0  # the fast path's
        self.branch = branch   # the probe of a traced branch (core.forward)
        self._forward = None   # forward_state's, made once


# A context variable, not a threading.local: its read costs half as much
# (about 45 against 105 ns), and ops read it once each.
_IDLE = _ThreadState()   # (never changed in place, as no state is)
_STATE = contextvars.ContextVar("pycg_recording",
                                default=_IDLE)  # noqa: B039
state = _STATE.get   # the calling context's state


def put(recorders, watching, branch):
    """Make a new state the calling context's; returns it."""
    s = _ThreadState(recorders, watching, branch)
    _STATE.set(s)
    return s


restore = _STATE.set   # restore(s): an earlier state of this context again


def forward_state(s):
    """The state a custom_gradient forward runs in, from `s`: a lone
    recording tape paused, one more forward collecting."""
    f = s._forward
    if f is None:   # (two threads may both make it: equal states)
        f = s._forward = _ThreadState(
            () if len(s.recorders) == 1 else s.recorders, s.watching + 1,
            s.branch)
    return f


class _Collecting(threading.local):
    def __init__(self):
        self.stack = []   # {id: variable} per forward running, innermost last


collecting = _Collecting()
