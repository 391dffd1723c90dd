"""What `custom_gradient` needs from the core around the forward of a user
function: remember where each record ends, collect the variables read,
pause a lone recording tape (`forward_begin`, `forward_end`); and its lean
path, for one tensor input under one recording tape and nothing else
watching (`forward_lean`), which does the same and records the call
without the bookkeeping."""
from pycg import structure
from pycg.core.recorder import _refresh, saw_variable, tls
from pycg.tensor import Tensor, Variable, _next_id


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


# ---- inside traced control flow ----------------------------------------------
_graph_call = []   # [fn(f, args, kwargs)]: registered by pycg.interop_tf


def register_graph_call(fn):
    """pycg.interop_tf hands over how to run a custom_gradient function as
    one TensorFlow op that carries its rule (tf.custom_gradient)."""
    _graph_call[:] = [fn]


def set_branch(probe):
    """pycg.ops._traced runs a branch or loop body of a TensorFlow control
    flow op with `probe` recording (None after); returns the previous."""
    previous, tls.branch = tls.branch, probe
    return previous


def in_branch():
    """Whether a custom_gradient function is called right inside a traced
    branch (its probe records, and no tape of the branch's own)."""
    probe = tls.branch
    return probe is not None and bool(tls.recorders) and \
        tls.recorders[-1] is probe


def graph_call(f, args, kwargs, as_pycg=False):
    """f(*args, **kwargs) as one TensorFlow op carrying f's rule, for
    TensorFlow's own autodiff: its outputs as TensorFlow tensors (as pycg
    tensors with `as_pycg`)."""
    out = _graph_call[0](f, args, kwargs)
    return structure.unflatten(out, [Tensor(o) for o in
                                     structure.flatten(out)]) if as_pycg \
        else out


def branch_call(f, tensors, args, kwargs):
    """f(*args, **kwargs) as one TensorFlow op carrying f's rule, so that
    TensorFlow's gradient of the control flow op uses it (it would
    differentiate f's forward); `tensors`, f's tensor arguments, are noted
    on the probe as used by the branch (a trainable Variable as read)."""
    for t in tensors:
        if isinstance(t, Variable) and t.trainable:
            saw_variable(t)
    tls.branch.entries.append((None, tuple(tensors), (), None))
    return graph_call(f, args, kwargs, as_pycg=True)


# ---- the lean path ----------------------------------------------------------
def forward_lean(f, x, backward_fn):
    """f(x) when exactly one tape records and nothing else watches, with
    that tape paused (what forward_begin and forward_end do for that case),
    for an f returning (output tensor, grad_fn): recorded on the tape as
    one entry (backward_fn, (x,), (output,), grad_fn) if it tracks x; the
    output. None where this path does not apply (f has not run); a tuple
    (f's result, the variables read) where f's result or a variable read
    needs the general path."""
    t = tls
    recs, watchers = t.recorders, t.watchers
    if len(recs) != 1 or watchers:
        return None
    seen = {}
    watchers.append(seen)
    t.recorders = []
    t.recording = False   # (still active: the watcher)
    first = _next_id()    # (f's own tensors have later ids)
    try:
        result = f(x)
    finally:
        t.recorders = recs
        if watchers and watchers[-1] is seen:
            del watchers[-1]
        else:
            watchers.remove(seen)
        t.recording = True   # (what _refresh gives; active stayed True)
    rec = recs[0]
    if seen:
        if rec.watch_accessed:
            for v in seen.values():
                rec.track(v)
        return result, seen
    if type(result) is not tuple or len(result) != 2 or \
            type(result[0]) is not Tensor or not callable(result[1]):
        return result, seen
    output, grad_fn = result
    ids = rec.ids
    if output._id <= first or output._id in ids:
        output = Tensor(output._value)   # (not f's own: a fresh identity)
    if x._id in ids:
        rec.entries.append((backward_fn, (x,), (output,), grad_fn))
        ids.add(output._id)
    return output
