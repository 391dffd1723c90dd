"""The backward loop: the chain rule over a record (see pycg.core's
docstring for the entry shape). One reversed loop that asks each entry's
backward for its input gradients and adds them up: an entry of one input
and one output through `one_input` (a built-in unary rule, a custom
gradient's: the hot case of a scalar chain, with no tuples), any other
through the call.

Strong zeros (the R package's rule; off by default, where pycg answers as
TensorFlow does): inside `with strong_zeros():`, a position whose value is
NaN (R's NA, or computed from one) and whose upstream is exactly 0 never
reached the result (a NaN that reaches it makes it NaN), so it contributes
exactly 0 whatever its partial derivative. The loop applies it to the rules
of elementwise ops (the core's `reached`, before broadcasting is undone);
the rules of matmul and of max, min and prod over an axis ask
`strong_zeros_on()` themselves. Without it, 0 * NaN is NaN: a likelihood
that leaves out its missing observations (R's `sum(ll, na.rm = TRUE)`,
`ll[!is.na(y)]`) gets an all-NaN gradient. A 0 upstream at a finite or
infinite value (exp(1000) under log, whose 1 / inf is 0) keeps
TensorFlow's 0 * inf = NaN.
"""
import contextvars

from pycg.core.atomic import WholeExit
from pycg.core.recorder import (UNARY_BACKWARDS, _array, live_ids,
                                numerics_check, started, state, stopped)
from pycg.core.sigint import protected

_STRONG = contextvars.ContextVar("pycg_strong_zeros", default=False)
strong_zeros_on = _STRONG.get   # the calling context's rule: a bool


class strong_zeros(WholeExit):
    """``with strong_zeros():`` the gradients computed in the calling
    thread or task treat a NaN value whose upstream is exactly 0 as not
    reached (`on=False`: as TensorFlow does, pycg's default); the exit puts back
    the rule as it was. pycg.r's calls from R run inside it."""

    __slots__ = ("on", "token")

    def __init__(self, on=True):
        self.on, self.token = bool(on), None

    @protected
    def __enter__(self):
        self.token = _STRONG.set(self.on)
        return self

    @protected
    def _leave(self):
        if self.token is not None:
            _STRONG.reset(self.token)
            self.token = None


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
    whether the direct VJPs may run (a nested tape needs recorded ops),
    and `reached` where strong zeros are on."""
    direct_ok = not state().recorders
    return (live_ids(entries, source_ids) if live is None else live,
            numerics_check(), direct_ok,
            _array["reached"][direct_ok] if _STRONG.get() else None)


def _backward(entries, grads, source_ids, live, check, direct_ok, reached):
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
                if fn.broadcast or check is not None or reached is not None:
                    gx = _finish(fn, up, out, x, gx, ins, outs, check, reached)
                prev = get(xid)
                grads[xid] = gx if prev is None else prev + gx
                continue
            ups = (up,)
        else:
            ups = [get(o._id) if o._id in source_ids else pop(o._id, None)
                   for o in outs]
            if all(u is None for u in ups):
                continue
        _entry(fn, ups, ins, outs, params, live, grads, check, reached)
    return grads


def _finish(fn, up, out, x, gx, ins, outs, check, reached):
    """A one-input entry's gradient gx of x: strong zeros, broadcasting
    undone, the numerics check."""
    if reached is not None and fn.elementwise:
        gx = reached(up, out, gx)
    if fn.broadcast:
        gx = _unbroadcast(gx, x)
    if check is not None:
        check(fn, 0, gx, ins, outs)
    return gx


def _entry(fn, ups, ins, outs, params, live, grads, check, reached):
    """An entry's gradients of several inputs (or outputs), accumulated."""
    in_grads = fn(ups, ins, outs, params, live)   # one per input
    if len(in_grads) != len(ins):
        raise RuntimeError(
            f"pycg: the gradient rule of {_name(fn)!r} returned "
            f"{len(in_grads)} gradients for {len(ins)} inputs")
    broadcast = getattr(fn, "broadcast", False)
    strong = reached is not None and getattr(fn, "elementwise", False)
    get = grads.get
    for i, gx in enumerate(in_grads):
        if gx is None or (x := ins[i])._id not in live:
            continue
        if strong:
            gx = reached(ups[0], outs[0], gx)
        if broadcast:
            gx = _unbroadcast(gx, x)
        if check is not None:
            check(fn, i, gx, ins, outs)
        xid = x._id
        prev = get(xid)
        grads[xid] = gx if prev is None else prev + gx


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
