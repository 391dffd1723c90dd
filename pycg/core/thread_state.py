"""One thread's recording state: the tapes recording, the variables being
watched, the probe of a traced branch. `state()` reads it (the op fast
path: `.active`, `.recorders`); pycg.core.recorder and pycg.core.forward
change it, through `own()`."""
import contextvars


class _ThreadState:
    """One thread's recording state (read it with `state()`)."""

    __slots__ = ("recorders", "watchers", "active", "branch")

    def __init__(self, recorders, watchers):
        self.recorders = recorders  # recording tapes' records, innermost
        # last (an op records where it is not empty; a paused tape: [])
        self.watchers = watchers  # dicts collecting variables read
        self.active = False  # recorders or watchers: the op fast path reads it
        self.branch = None   # the probe of a traced branch (core.forward)


# A context variable, not a threading.local: its read costs half as much
# (about 45 against 105 ns), and ops read it once each. A new thread starts
# with an empty context, so with _IDLE (read only: tuples) until `own`.
_IDLE = _ThreadState((), ())
_STATE = contextvars.ContextVar("pycg_recording", default=_IDLE)
state = _STATE.get   # the calling thread's state; change it through functions


def own():
    """The calling thread's state, made its own before the first change."""
    s = _STATE.get()
    if s is _IDLE:
        s = _ThreadState([], [])
        _STATE.set(s)
    return s
