"""The backward loop: the chain rule over a record (see pycg.core's
docstring for the entry shape). One reversed loop that asks each entry's
backward for its input gradients and adds them up: an entry of one input
and one output through `one_input` (a built-in unary rule, a custom
gradient's: the hot case of a scalar chain, with no tuples), any other
through the call."""
from pycg.core.recorder import (UNARY_BACKWARDS, _array, live_ids,
                                numerics_check, started, state, stopped)


def backward(entries, seeds, source_ids, live=None):
    """The chain rule, from `seeds` (id -> upstream) back to the sources;
    `live`: the ids reachable from the sources, when the caller knows."""
    token = object()   # the loop counts as recording (pycg.core.gc_policy)
    try:
        started(token)
        return _backward(entries, dict(seeds), source_ids,
                         *_loop_facts(entries, source_ids, live))
    finally:
        stopped(token)


def _loop_facts(entries, source_ids, live):
    """What the loop reads, decided before it runs (TensorFlow scans each
    frame's code up to its current call at every eager op: the loop's
    calls stay early in _backward): the live ids, the numerics check,
    whether the direct VJPs may run (a nested tape needs recorded ops)."""
    return (live_ids(entries, source_ids) if live is None else live,
            numerics_check(),
            not state().recorders)


def _backward(entries, grads, source_ids, live, check, direct_ok):
    get, pop = grads.get, grads.pop
    for fn, ins, outs, params in reversed(entries):
        if len(outs) == 1:   # the common case: one output, one upstream
            out = outs[0]
            oid = out._id
            up = get(oid) if oid in source_ids else pop(oid, None)
            if up is None:
                continue
            if type(fn) in UNARY_BACKWARDS and len(ins) == 1:
                x = ins[0]   # (a Rule, a custom gradient's Plan: no tuples)
                xid = x._id
                if xid not in live:
                    continue
                gx = fn.one_input(up, out, x, params, direct_ok)
                if gx is None:
                    continue
                if fn.broadcast:
                    gx = _unbroadcast(gx, x)
                if check is not None:
                    check(fn, 0, gx, ins, outs)
                prev = get(xid)
                grads[xid] = gx if prev is None else prev + gx
                continue
            ups = (up,)
        else:
            ups = [get(o._id) if o._id in source_ids else pop(o._id, None)
                   for o in outs]
            if all(u is None for u in ups):
                continue
        in_grads = fn(ups, ins, outs, params, live)   # one per input
        if len(in_grads) != len(ins):
            raise RuntimeError(
                f"pycg: the gradient rule of {_name(fn)!r} returned "
                f"{len(in_grads)} gradients for {len(ins)} inputs")
        broadcast = getattr(fn, "broadcast", False)
        for i, gx in enumerate(in_grads):
            if gx is None or (x := ins[i])._id not in live:
                continue
            if broadcast:
                gx = _unbroadcast(gx, x)
            if check is not None:
                check(fn, i, gx, ins, outs)
            xid = x._id
            prev = get(xid)
            grads[xid] = gx if prev is None else prev + gx
    return grads


def _name(fn):
    return getattr(fn, "name", None) or getattr(fn, "__name__", repr(fn))


def _unbroadcast(gx, x):
    """gx summed down to x's shape where broadcasting made it larger (with
    dimensions unknown while TensorFlow traces, decided at run time)."""
    shape = x._value.shape
    if gx._value.shape != shape or type(shape) is not tuple and \
            not isinstance(shape, tuple) and not shape.is_fully_defined():
        return _array["unbroadcast"](gx, x.shape, x)
    return gx
