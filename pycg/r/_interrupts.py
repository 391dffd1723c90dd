"""Ctrl-C in a Python process that embeds R (pycg.r): whoever runs takes it.

Loading reticulate in the embedded R installs, at the C level, a SIGINT
handler of its own: it sets R's `R_interrupts_pending` and asks Python for
an interrupt. R code then stops at its next check, as in R. Python code
gets reticulate's Python-level handler, which asks R (through an R call)
whether the interrupt is still pending; with reticulate 1.28 that R call
runs inside reticulate's InterruptsSuspendedScope, which hides the flag,
so the answer is always "no": the interrupt is lost, R's flag stays set,
and the next R call is interrupted in its place.

`install()` keeps reticulate's C handler (R code stays interruptible) and
puts `_on_sigint` in place of its Python-level handler. `_on_sigint` reads
R's two flags directly and decides by where Python runs:

* in plain Python code, with no R code of pycg.r's below (`IN_R` is 0): the
  interrupt is Python's. R's flag is cleared and KeyboardInterrupt raised;
* in Python code that R called (a pycg.r call is in progress): Python takes
  the interrupt while R's flag is still set; when it is clear, R took it,
  and the bridge raises KeyboardInterrupt for it;
* inside R's event processing (rpy2's callbacks, where an exception would
  be swallowed), or while R holds interrupts back (`R_interrupts_suspended`,
  under which reticulate also hides the flag): R's turn. A watcher thread
  asks Python again once R's interrupts are back, if the flag is still set.
"""
import ctypes
import os
import signal
import threading
import time
import _thread

from pycg.core import sigint
from pycg.core.sigint import protected

IN_R = [0]   # calls into R through the bridge in progress (R/bridge.R)
_RPY2_CALLBACKS = "rpy2.rinterface_lib.callbacks"
_following = []  # [True] while a _watch thread runs
_flags = []  # [R_interrupts_pending, R_interrupts_suspended] as ctypes ints


class r_running:
    """``with r_running(hold):`` around a call from Python into R: counted
    in `IN_R`. With `hold`, where this Python embeds R, R's interrupts are
    held back as R's own suspendInterrupts() would (the R code called
    allows them around the user's code, and R's own steps around it cannot
    be cut short: an interrupt there would unwind through reticulate's C++
    frames as "(Unknown exception occurred)"). One left pending is
    Python's after. Whole against Ctrl-C: what it changes is read first and
    put back as it was (not counted down), whatever was cut short."""

    __slots__ = ("held", "saved", "depth")

    def __init__(self, hold=False):
        self.held = hold and bool(_flags)
        self.depth = IN_R[0]
        self.saved = _flags[1].value if self.held else None

    @protected

    def __enter__(self):
        try:
            IN_R[0] = self.depth + 1
            if self.held:
                _flags[1].value = 1
            return self
        except BaseException:
            self._leave()
            raise

    @protected

    def __exit__(self, *exc):
        try:
            self._leave()
        except BaseException:
            self._leave()
            raise
        if self.held and not self.saved and _flags[0].value:
            _follow_up()
        return False

    @protected

    def _leave(self):
        if self.held:
            _flags[1].value = self.saved
        IN_R[0] = self.depth


def _on_sigint(signum, frame):
    pending, suspended = _flags
    if sigint.in_protected(frame):   # (in one of pycg's state changes:
        sigint.hand_back()            # asked again once it has ended)
        return
    if suspended.value or _in_r_callback(frame):
        _follow_up()   # R's turn now; Python's, if R leaves it pending
        return
    if IN_R[0] and not pending.value:
        return   # R took it: the bridge raises KeyboardInterrupt
    pending.value = 0
    raise KeyboardInterrupt


def _in_r_callback(frame):
    """Whether Python runs here as a callback of R (rpy2's; an exception
    raised there would be swallowed, and R looks at its flag next)."""
    while frame is not None:
        if frame.f_globals.get("__name__") == _RPY2_CALLBACKS:
            return True
        frame = frame.f_back
    return False


def _follow_up():
    """Until R's flags tell: ask Python again for the interrupt if it is
    still pending once R's interrupts are no longer suspended, drop it if
    R took it."""
    if _following:
        return
    _following.append(True)
    threading.Thread(target=_watch, daemon=True).start()


def _watch():
    pending, suspended = _flags
    try:
        while True:
            time.sleep(0.002)
            if not suspended.value:
                if pending.value:
                    _thread.interrupt_main(signal.SIGINT)
                return
    finally:
        _following.clear()


def install(libr):
    """Put `_on_sigint` in place of reticulate's Python-level SIGINT
    handler, keeping the C-level one; `libr` is R's shared library. Only
    the main thread may set a Python signal handler (elsewhere,
    reticulate's stays), and only where the C handler is reticulate's."""
    if os.name != "posix" or \
            threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGINT) in (
                signal.SIG_IGN, signal.SIG_DFL, None):
        return
    _flags[:] = [ctypes.c_int.in_dll(libr, "R_interrupts_pending"),
                 ctypes.c_int.in_dll(libr, "R_interrupts_suspended")]
    libc = ctypes.CDLL(None, use_errno=True)
    c_handler = ctypes.create_string_buffer(512)   # a struct sigaction
    if libc.sigaction(signal.SIGINT, None, c_handler) != 0:
        return
    signal.signal(signal.SIGINT, _on_sigint)
    libc.sigaction(signal.SIGINT, c_handler, None)
