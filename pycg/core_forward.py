"""What `custom_gradient` needs from the core around the forward of a user
function: remember where each record ends, collect the variables read,
pause a lone recording tape (`forward_begin`, `forward_end`); and its lean
path, for one tensor input under one recording tape and nothing else
watching (`forward_lean`, `record_on`), which does the
same without the bookkeeping."""
from pycg.core import _refresh, tls


def forward_begin():
    """Before a custom_gradient forward runs: remember where each record
    ends, collect the variables read, and pause a lone recording tape (its
    backward never differentiates the forward's inner ops; with several
    tapes they stay recorded, for higher derivatives)."""
    recs = tls.recorders
    marks = [(r, len(r.entries)) for r in recs]
    seen = {}
    tls.watchers.append(seen)
    alone = recs[0] if len(recs) == 1 else None
    if alone is not None:
        tls.recorders = []
    _refresh()
    return marks, seen, alone


def forward_end(token, failed):
    """After the forward: drop its partial record if it failed, resume a
    paused tape (which tracks the variables read); the variables read."""
    marks, seen, alone = token
    if failed:
        for r, n in marks:
            del r.entries[n:]
    if alone is not None:
        tls.recorders = [alone]
    tls.watchers.remove(seen)
    _refresh()
    if alone is not None and alone.watch_accessed:
        for v in seen.values():
            alone.track(v)
    return seen


# ---- the lean path ----------------------------------------------------------
def forward_lean(f, x):
    """f(x) when exactly one tape records and nothing else watches, with
    that tape paused (what forward_begin and forward_end do for that case):
    (the tape's recorder, f's result, the variables read); else None."""
    recs = tls.recorders
    if len(recs) != 1 or tls.watchers:
        return None
    rec = recs[0]
    seen = {}
    watchers = tls.watchers
    watchers.append(seen)
    tls.recorders = []
    tls.recording = False   # (still active: the watcher)
    try:
        result = f(x)
    finally:
        tls.recorders = recs
        watchers.remove(seen)
        tls.recording = tls.active = True   # (what _refresh gives here)
    if seen and rec.watch_accessed:
        for v in seen.values():
            rec.track(v)
    return rec, result, seen


def record_on(rec, backward_fn, x, output, params):
    """Record a one-input, one-output entry on `rec` if it tracks x."""
    if x._id in rec.ids:
        rec.entries.append((backward_fn, (x,), (output,), params))
        rec.ids.add(output._id)
