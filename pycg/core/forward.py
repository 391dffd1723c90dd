"""What `custom_gradient` needs from the core around the forward of a user
function (`forward`): collect the variables read, pause a lone recording
tape, leave nothing of the forward recorded after an error; and how such a
function runs inside traced control flow."""
from pycg.tensor import structure
from pycg.core.atomic import whole
from pycg.core.recorder import saw_variable, state
from pycg.core.sigint import protected
from pycg.core.thread_state import collecting, forward_state, restore
from pycg.tensor.core import Tensor, Variable, _next_id


def forward(f, args, kwargs):
    """f(*args, **kwargs), while anything records or watches
    (state().active).

    A lone recording tape is paused (its backward never differentiates the
    forward's inner ops; with several tapes they stay recorded, for higher
    derivatives, and are dropped again if f raises). Returns (f's result,
    {id: variable} of the variables read, `first`, `marks`): `first`, where
    no tape recorded f's ops, the last id before f ran (a tensor with a
    later id is f's own, and may stand as the recorded output), else None;
    `marks`, for `drop` where the caller refuses the result.
    """
    t = state()
    recs = t.recorders
    alone = len(recs) == 1
    if alone:   # (paused: still active, collecting)
        marks, first = (), _next_id()
    else:
        marks, first = _marks(recs)
    seen = {}
    stack = collecting.stack
    depth = len(stack)
    try:   # (f's ops run under this call: early in the body, as in ops)
        stack.append(seen)
        restore(t._forward or forward_state(t))
        result = f(*args) if not kwargs else f(*args, **kwargs)
    except BaseException:
        whole(drop, marks)
        raise
    finally:   # (each step idempotent, finished when cut short by Ctrl-C)
        whole(_leave, t, stack, depth)
    if alone and seen and recs[0].watch_accessed:
        ids = recs[0].ids
        for v in seen.values():
            if v._id not in ids:
                recs[0].track(v)
    return result, seen, first, marks


def _marks(recs):
    """(where each of several recording tapes stands, the last id made
    where none records)."""
    return [(r, len(r.entries)) for r in recs], None if recs else _next_id()


@protected


def _leave(t, stack, depth):
    restore(t)
    del stack[depth:]


@protected


def drop(marks):
    """Drop what a forward recorded (its `marks`): it failed."""
    for r, n in marks:
        del r.entries[n:]


# ---- inside traced control flow ----------------------------------------------
_graph_call = []   # [fn(f, args, kwargs)]: registered by pycg.interop.tensorflow


def register_graph_call(fn):
    """pycg.interop.tensorflow hands over how to run a custom_gradient function as
    one TensorFlow op that carries its rule (tf.custom_gradient)."""
    _graph_call[:] = [fn]


def in_branch():
    """Whether a custom_gradient function is called right inside a traced
    branch (its probe records, and no tape of the branch's own)."""
    s = state()
    probe = s.branch
    return probe is not None and bool(s.recorders) and \
        s.recorders[-1] is probe


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
    state().branch.entries.append((None, tuple(tensors), (), None))
    return graph_call(f, args, kwargs, as_pycg=True)
