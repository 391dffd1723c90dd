"""Python's cyclic GC and a deep tape.

A recording tape holds a few GC-tracked objects per op, and every full
collection while it grows scans them, and everything else alive (a loaded
TensorFlow is about a million objects): a 100,000-op chain spent most of
its time there. While anything records or runs the backward loop:

- full collections are considered 100x less often (the third threshold,
  gen-1 collections between full ones, set 100x its value past the
  current count): they wait, in effect,
  for a moment when nothing records; young collections run as usual, so
  short-lived garbage goes as quickly as before;
- after a full collection, `gc.freeze()`: its survivors are all live (it
  just ran), so later collections skip them and scan only what is new.

When nothing records any more, both are undone: the objects are
unfrozen and the threshold restored (unless the user changed it
meanwhile). Nothing is frozen if the user froze objects of their own
(`gc.get_freeze_count()`); collection is never switched off.

What records is a table, not a count: `opened(token)` and `closed(token)`
(a tape's record, a backward loop) each set one entry and then bring the
GC in line with the whole table (`_sync`), so either may be repeated: a
step cut short by an asynchronous exception (Ctrl-C) is finished by
running it again, as pycg.core.recorder does. A token closed from another
thread than opened it is closed all the same, and the entries of a thread
that has ended do not count (a tape left open in a dead thread, a
generator's tape its thread never closed): the table is pruned at every
step and after every collection.
"""
import gc
import threading

from pycg.core.sigint import protected

RAISE = 100
_lock = threading.Lock()
_open = {}   # token -> the thread that opened it
_state = {"froze": False, "saved": None, "set": None}


@protected


def note(token, recording):
    """core.on_recording: `token` starts (True) or stops (False)."""
    if recording:
        opened(token)
    else:
        closed(token)


@protected


def opened(token):
    """`token` starts recording, in the calling thread."""
    _open[token] = threading.current_thread()
    _sync()


@protected


def closed(token):
    """`token` stops recording (from any thread; again is nothing)."""
    _open.pop(token, None)
    _sync()


def recording():
    """Whether anything records now (a live thread's open token)."""
    for token, thread in list(_open.items()):
        if not thread.is_alive():
            _open.pop(token, None)
    return bool(_open)


@protected


def _sync():
    """Bring the GC in line with the table: raised while anything records,
    as the user left it when nothing does. Each step is written before it
    is taken, so a call cut short leaves what the next call completes."""
    with _lock:
        if recording():
            if _state["saved"] is None:
                _raise()
        elif _state["saved"] is not None or _state["froze"] or \
                _after_collection in gc.callbacks:
            _restore()


@protected


def _raise():
    saved = gc.get_threshold()
    # (relative to the gen-1 collections already counted: that count keeps
    # growing while full collections are put off as too soon)
    raised = saved[:2] + (gc.get_count()[2] + saved[2] * RAISE,) \
        if len(saved) == 3 else saved
    _state["saved"], _state["set"] = saved, raised
    if _after_collection not in gc.callbacks:
        gc.callbacks.append(_after_collection)
    gc.set_threshold(*raised)


@protected


def _restore(during_collection=False):
    # (the collector is calling its callbacks: the next _sync removes it)
    if not during_collection and _after_collection in gc.callbacks:
        gc.callbacks.remove(_after_collection)
    if _state["froze"]:
        gc.unfreeze()
        _state["froze"] = False
    if _state["saved"] is not None and gc.get_threshold() == _state["set"]:
        gc.set_threshold(*_state["saved"])
    _state["saved"] = _state["set"] = None


@protected


def _after_collection(phase, info):
    if phase != "stop":
        return
    # (a collection can run inside _sync, which holds the lock: skip then)
    if not _lock.acquire(blocking=False):
        return
    try:
        if not recording():
            if _state["saved"] is not None or _state["froze"]:
                _restore(during_collection=True)
        elif info.get("generation") == 2 and not _state["froze"] and \
                gc.get_freeze_count() == 0:
            gc.freeze()
            _state["froze"] = True
    finally:
        _lock.release()
