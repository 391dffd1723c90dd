"""The backward loop: the chain rule over a record (see pycg.core's
docstring for the entry shape). One reversed loop that asks each entry's
backward for its input gradients: an entry of one input and one output
through `one_input` (a built-in unary rule, a custom gradient's: the hot
case of a scalar chain, with no tuples), any other through the call."""
from pycg.core.recorder import (UNARY_BACKWARDS, _array, _numerics_check,
                                live_ids, on_recording, tls)


def backward(entries, seeds, source_ids, live=None):
    """The chain rule, from `seeds` (id -> upstream) back to the sources;
    `live`: the ids reachable from the sources, when the caller knows."""
    for fn in on_recording:   # the loop counts as recording (pycg.core.gc_policy)
        fn(1)
    try:
        return _backward(entries, seeds, source_ids, live)
    finally:
        for fn in on_recording:
            fn(-1)


def _backward(entries, seeds, source_ids, live):
    if live is None:
        live = live_ids(entries, source_ids)
    grads = dict(seeds)
    check = _numerics_check[0] if _numerics_check else None
    get, pop = grads.get, grads.pop
    direct_ok = not tls.recording   # (a nested tape needs recorded ops)
    for fn, ins, outs, params in reversed(entries):
        x = None   # (set where one input's gradient is computed inline)
        if len(outs) == 1:   # the common case: one output, one upstream
            out = outs[0]
            oid = out._id
            up = get(oid) if oid in source_ids else pop(oid, None)
            if up is None:
                continue
            if type(fn) in UNARY_BACKWARDS and len(ins) == 1:
                x = ins[0]   # (a Rule, a custom gradient's Plan)
                if x._id not in live:
                    continue
                gx = fn.one_input(up, out, x, params, direct_ok)
                broadcast = fn.broadcast
            else:
                ups = (up,)
        else:
            ups = [get(o._id) if o._id in source_ids else pop(o._id, None)
                   for o in outs]
            if all(u is None for u in ups):
                continue
        if x is None:   # the entry's own backward, for all its inputs
            in_grads = fn(ups, ins, outs, params, live)
            broadcast = getattr(fn, "broadcast", False)
            if len(ins) != 1 or len(in_grads) != 1:
                _accumulate(fn, ins, outs, in_grads, live, grads, check,
                            broadcast)
                continue
            gx, x = in_grads[0], ins[0]
            if x._id not in live:
                continue
        if gx is None:   # (one input: the inline cases and the one above)
            continue
        if broadcast:
            gx = _unbroadcast(gx, x)
        if check is not None:
            check(fn, 0, gx, ins, outs)
        xid = x._id
        prev = get(xid)
        grads[xid] = gx if prev is None else prev + gx
    return grads


def _accumulate(fn, ins, outs, in_grads, live, grads, check, broadcast):
    """Add an entry's gradients for several inputs into `grads`."""
    if len(in_grads) != len(ins):
        raise RuntimeError(
            f"pycg: the gradient rule of {_name(fn)!r} returned "
            f"{len(in_grads)} gradients for {len(ins)} inputs")
    for i, (x, gx) in enumerate(zip(ins, in_grads)):
        if gx is None or x._id not in live:
            continue
        if broadcast:
            gx = _unbroadcast(gx, x)
        if check is not None:
            check(fn, i, gx, ins, outs)
        xid = x._id
        prev = grads.get(xid)
        grads[xid] = gx if prev is None else prev + gx


def _name(fn):
    return getattr(fn, "name", None) or getattr(fn, "__name__", repr(fn))


def _unbroadcast(gx, x):
    """gx summed down to x's shape where broadcasting made it larger (with
    dimensions unknown while TensorFlow traces, decided at run time)."""
    shape = x._value.shape
    if gx._value.shape != shape or type(shape) is not tuple and \
            not shape.is_fully_defined():
        return _array["unbroadcast"](gx, x.shape, x)
    return gx
