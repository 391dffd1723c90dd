"""Ctrl-C waits for the end of pycg's state changes.

Python raises KeyboardInterrupt where the main thread checks for signals:
at the entry of a function, a loop's jump back, after a call into C. A
state change of several steps can be cut there, and so can the entry of
the function that would finish it (a `with` block's `__exit__`, the pop it
calls): no `try` in Python can hold that. So the steps of
pycg.core.recorder, pycg.core.gc_policy, pycg.core.atomic, the compiled
calls' locks and the `__exit__`s that call them are marked `protected`
(their code objects, a set: nothing runs on the hot path), and SIGINT's
handler is pycg's (`_on_sigint`, set by `arm()` when pycg is imported in
the main thread, in place of Python's default handler only): a Ctrl-C
that lands inside a protected frame is handed back a moment later (a
thread asks again with _thread.interrupt_main after half a millisecond,
and the handler, which reads only its own thread's frames, hands it back
again while they are protected), any
other one raises KeyboardInterrupt at once, as Python's own handler does.
pycg.r's handler asks `in_protected` too. A handler of the user's own is
left alone (pycg's steps then rely on their own `except`s,
pycg.core.atomic, which hold but at a function's entry); so is one set
after pycg's: asyncio.run, which sets its own only in place of Python's
default, then raises KeyboardInterrupt where the loop is, as before
Python 3.11 (docs/troubleshooting.md).
"""
import signal
import threading
import time
import _thread

PROTECTED = set()   # code objects in which a KeyboardInterrupt waits
_waiting = []   # [True] while a thread waits to hand an interrupt back


def protected(fn):
    """Mark `fn` (a function, or a class's __enter__/__exit__ through it)
    as a step a Ctrl-C waits for; returns fn unchanged."""
    PROTECTED.add(fn.__code__)
    return fn


def in_protected(frame):
    """Whether `frame` or a frame it was called from is protected."""
    while frame is not None:
        if frame.f_code in PROTECTED:
            return True
        frame = frame.f_back
    return False


def _on_sigint(signum, frame):
    if in_protected(frame):
        hand_back()
        return
    raise KeyboardInterrupt


def hand_back():
    """Ask for the interrupt again once the main thread has left every
    protected frame (from a thread of its own)."""
    if _waiting:
        return
    _waiting.append(True)
    threading.Thread(target=_watch, daemon=True).start()


def _watch():
    # (asks again a moment later; the main thread's handler looks at its own
    # frames and hands it back again while they are protected: walking the
    # main thread's frames from this one, while it runs, crashed CPython
    # 3.11 at times, a segmentation fault in f_back)
    try:
        time.sleep(0.0005)
    finally:
        _waiting.clear()
    _thread.interrupt_main(signal.SIGINT)


def pending():
    """Whether an interrupt is waiting to be handed back."""
    return bool(_waiting)


def arm():
    """Make pycg's handler SIGINT's, in place of Python's default one only
    (pycg.ops, at import); only the main thread may set a handler."""
    if threading.current_thread() is not threading.main_thread():
        return
    try:
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            signal.signal(signal.SIGINT, _on_sigint)
    except (ValueError, OSError):   # (an interpreter that has no signals)
        pass
