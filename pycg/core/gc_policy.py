"""Python's cyclic GC and a deep tape.

A recording tape holds a few GC-tracked objects per op, and every full
collection while it grows scans them, and everything else alive (a loaded
TensorFlow is about a million objects): a 100,000-op chain spent most of
its time there. While any thread records or runs
the backward loop:

- full collections are considered 100x less often (the third threshold,
  gen-1 collections between full ones, set 100x its value past the
  current count): they wait, in effect,
  for a moment when nothing records; young collections run as usual, so
  short-lived garbage goes as quickly as before;
- after a full collection, `gc.freeze()`: its survivors are all live (it
  just ran), so later collections skip them and scan only what is new.

When the last thread stops, both are undone: the objects are
unfrozen and the threshold restored (unless the user changed it
meanwhile). Nothing is frozen if the user froze objects of their own
(`gc.get_freeze_count()`); collection is never switched off.
"""
import gc
import threading

RAISE = 100
_lock = threading.Lock()
_state = {"threads": 0, "froze": False, "saved": None, "set": None}


def _after_collection(phase, info):
    if phase != "stop" or info.get("generation") != 2:
        return
    with _lock:
        if _state["threads"] and not _state["froze"] and \
                gc.get_freeze_count() == 0:
            gc.freeze()
            _state["froze"] = True


def recording(delta):
    """core.on_recording: a thread starts (+1) or stops (-1) recording."""
    with _lock:
        n = _state["threads"] = max(0, _state["threads"] + delta)
        if n == 1 and delta > 0:
            gc.callbacks.append(_after_collection)
            saved = gc.get_threshold()
            # (relative to the gen-1 collections already counted: that count
            # keeps growing while full collections are put off as too soon)
            raised = saved[:2] + (gc.get_count()[2] + saved[2] * RAISE,) \
                if len(saved) == 3 else saved
            gc.set_threshold(*raised)
            _state["saved"], _state["set"] = saved, gc.get_threshold()
        elif n == 0:
            if _after_collection in gc.callbacks:
                gc.callbacks.remove(_after_collection)
            if _state["froze"]:
                gc.unfreeze()
                _state["froze"] = False
            if _state["saved"] is not None and \
                    gc.get_threshold() == _state["set"]:
                gc.set_threshold(*_state["saved"])
            _state["saved"] = _state["set"] = None
