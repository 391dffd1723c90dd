"""The backward loop: the chain rule over a record (see pycg.core's
docstring for the entry shape). One reversed loop; a built-in unary op's
rule is inlined (the hot case of a scalar chain), everything else is
asked for its input gradients through the entry's backward function."""
from pycg.core.recorder import (UNARY_BACKWARDS, Rule, _array, _numerics_check,
                       live_ids, on_recording, tls)
from pycg.tensor import Tensor


def backward(entries, seeds, source_ids, live=None):
    """The chain rule, from `seeds` (id -> upstream) back to the sources;
    `live`: the ids reachable from the sources, when the caller knows."""
    for fn in on_recording:   # the loop counts as recording (pycg.core_gc)
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
    typed = _array["typed"]   # (same type: same dtype, no reads)
    for fn, ins, outs, params in reversed(entries):
        x = None   # (set where one input's gradient is computed inline)
        if len(outs) == 1:   # the common case: one output, one upstream
            oid = outs[0]._id
            up = get(oid) if oid in source_ids else pop(oid, None)
            if up is None:
                continue
            if type(fn) is Rule and fn._one is not None and not params:
                # a built-in unary op, inline (Rule.__call__'s hot case)
                x, gx, broadcast = ins[0], None, fn.broadcast
                if x._id not in live:
                    continue
                direct = fn.direct
                if direct is not None and direct_ok:
                    gv, ov = up._value, outs[0]._value
                    if type(gv) is type(ov) and (type(gv) in typed or
                                                 gv.dtype is ov.dtype):
                        value = direct(gv, ov, x._value)
                        if value is not None:
                            gx = Tensor(value)
                if gx is None:
                    gx = fn._one(up, outs[0], x)
            elif type(fn) in UNARY_BACKWARDS:   # one input, one output
                x, broadcast = ins[0], False
                if x._id not in live:
                    continue
                gx = fn.gradient(up, x, params)
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
