"""The recording state of one thread, asyncio task or copied context: the
tapes recording, the variables being watched, the probe of a traced
branch. `state()` reads it (the op fast path: `.active`, `.recorders`);
pycg.core.recorder and pycg.core.forward change it, through `put`.

A state is never changed in place: each change is a new state set in the
calling context (a context variable). So a context copied from another (an
asyncio task, asyncio.to_thread, contextvars.copy_context().run) starts
with what recorded there when it was copied, as any context variable, and
what it starts or stops stays its own: a tape entered in one task never
records another task's ops. A new thread starts with an empty context."""
import contextvars


class _ThreadState:
    """One context's recording state (read it with `state()`)."""

    __slots__ = ("recorders", "watchers", "active", "branch")

    def __init__(self, recorders=(), watchers=(), branch=None):
        self.recorders = recorders  # recording tapes' records, innermost
        # last, a tuple (an op records where it is not empty; paused: ())
        self.watchers = watchers  # dicts collecting variables read, a tuple
        self.active = bool(recorders) or bool(watchers)  # the fast path's
        self.branch = branch   # the probe of a traced branch (core.forward)


# A context variable, not a threading.local: its read costs half as much
# (about 45 against 105 ns), and ops read it once each.
_IDLE = _ThreadState()   # (never changed in place, as no state is)
_STATE = contextvars.ContextVar("pycg_recording",
                                default=_IDLE)  # noqa: B039
state = _STATE.get   # the calling context's state


def put(recorders, watchers, branch):
    """Make a new state the calling context's; returns it."""
    s = _ThreadState(recorders, watchers, branch)
    _STATE.set(s)
    return s


restore = _STATE.set   # restore(s): an earlier state of this context again
