"""Forward mode's core: tangents carried beside primals (pycg.jvp).

A `ForwardTrace` stands among the calling context's recording tapes (it
is a Recorder: ops record on it as on a tape, with no change to their fast
path), but keeps no entries: each entry an op records is answered at once
with its outputs' tangents, from its inputs' tangents (`tangents`, by id):

1. its op's own tangent rule (`TANGENTS`, filled by pycg.ops.rules.tangents)
   where the values are real floats;
2. an elementwise op's VJP rule applied to the tangents (`elementwise`,
   registered by pycg.ops): on real values of one dtype, an elementwise
   op's Jacobian is diagonal, its own transpose, so J t is the VJP of t;
3. else the entry's backward transposed on the spot (`transposed`): its
   VJP recorded at a zero cotangent and differentiated in that cotangent,
   the double-VJP trick for one entry. Every entry has a backward, so
   every op, a custom_gradient rule, a control-flow op, has a tangent; a
   pycg.custom_jvp call brings its own rule (`tangent_of` on its grad_fn).

With strong zeros on or a numerics check installed, every entry takes
way 3: the VJP's own semantics, as the backward loop applies them.

The rules run with this trace and every tape inside it set aside (their
ops are seen by the traces and tapes around it only: a nested pycg.jvp
never confuses its tangents with an outer one's, and a tape around the
trace differentiates the tangents: reverse over forward)."""
from collections.abc import Callable
from typing import Any

from pycg.core.backward import _backward, _loop_facts, strong_zeros_on
from pycg.core.recorder import (_TYPED, UNARY_BACKWARDS, Recorder, Rule,
                                _array, numerics_check)
from pycg.core.thread_state import _ThreadState, restore, state
from pycg.tensor import Tensor
from pycg.tensor.convert import is_differentiable

# rule name -> fn(tangents, output, *inputs, **params) -> the output's
# tangent (tangents: one per input, None where it has none)
TANGENTS: dict[str, Callable[..., Any]] = {}
_hooks: dict[str, Any] = {"elementwise": None, "by_value": None,
                          "real": frozenset(), "zero": None,
                          "transposed": frozenset()}


def deftangent(name, fn):
    """Register the tangent rule of op `name` (one output)."""
    if name in TANGENTS:
        raise ValueError(f"pycg: a tangent rule for {name!r} is registered "
                         f"twice")
    TANGENTS[name] = fn


def register(elementwise=None, by_value=None, real=None, zero=None,
             transposed=None):
    """pycg.ops hands over `elementwise(rule, tangents, output, inputs,
    params)` (the VJP rules of an elementwise op of several inputs
    applied to their tangents, or None where they do not apply) and
    `real`, the dtypes whose values the rules of 1 and 2 serve;
    pycg.custom its by_value flag (a threading.local with `.on`), set while
    a rule's VJP is transposed;
    `zero(y)`: a backend value of zeros of y's shape and dtype;
    `transposed`: names of elementwise ops whose VJP is transposed all the
    same."""
    if elementwise is not None:
        _hooks["elementwise"] = elementwise
    if by_value is not None:
        _hooks["by_value"] = by_value
    if real is not None:
        _hooks["real"] = real
    if zero is not None:
        _hooks["zero"] = zero
    if transposed is not None:
        _hooks["transposed"] = frozenset(transposed)


class _Answered:
    """A ForwardTrace's `entries`: what is appended is answered (its
    `append` is the trace's `arrive`, one call), not kept, so nothing is
    ever there to drop or clear."""

    __slots__ = ("append",)

    def __init__(self, trace):
        self.append = trace.arrive

    def __len__(self):
        return 0

    def __iter__(self):
        return iter(())

    def __delitem__(self, _):
        pass

    def clear(self):
        pass


class ForwardTrace(Recorder):
    """The tangents of one pycg.jvp: `seed` its primals, push it (as a
    tape's record), run f, pop it, read `tangent` of each output."""

    __slots__ = ("tangents", "plain", "_made")

    def __init__(self):
        super().__init__(watch_accessed=False)
        self.entries = _Answered(self)
        self.tangents = {}
        self.plain = not strong_zeros_on() and numerics_check() is None
        self._made = (None, None)

    def seed(self, x, t):
        self.track(x)
        self.tangents[x._id] = t

    def tangent(self, y):
        """y's tangent (zeros where nothing reached it)."""
        t = self.tangents.get(y._id)
        return _array["zeros_like"](y) if t is None else t

    def arrive(self, entry):
        """Answer one recorded entry: its outputs' tangents, where an input
        has one."""
        fn, ins, outs, params = entry
        get = self.tangents.get
        if len(ins) == 1:   # (the hot case: a unary op, one output)
            t = get(ins[0]._id)
            if t is None:
                return
            s = state()
            if type(fn) is Rule and self.plain and (
                    fn.forward or _way(fn)) is _UNARY and \
                    self._unary(fn, ins[0], t, outs[0], params, s):
                return
            ts = (t,)
        else:
            ts = [get(x._id) for x in ins]
            if all(t is None for t in ts):
                return
            s = state()
        inside = self._inside(s)
        restore(inside)
        try:
            touts = self._rule(fn, ins, outs, params, ts, inside)
        finally:
            restore(s)
        for o, t in zip(outs, touts):
            if t is not None:
                self.tangents[o._id] = t

    def _unary(self, fn, x, t, out, params, s):
        """An elementwise rule of one input on real values of one dtype:
        J t is its VJP of t, on values where nothing records around this
        trace and the rule has a direct VJP, else by its ops. False where
        the values are not so (a cast, complex: transposed then)."""
        tv, ov, xv = t._value, out._value, x._value
        if not (type(ov) is type(xv) and type(ov) in _TYPED) and (
                getattr(ov, "dtype", None) not in _hooks["real"] or
                xv.dtype != ov.dtype):
            return False
        if s.recorders[0] is self and fn.direct is not None and \
                not params and type(tv) is type(ov) and (
                    type(ov) in _TYPED or tv.dtype == ov.dtype):
            v = fn.direct(tv, ov, xv)
            if v is not None:
                self.tangents[out._id] = Tensor(v)
                return True
        inside = self._inside(s)
        restore(inside)
        try:
            jt = fn.one_input(t, out, x, params, not inside.recorders)
        finally:
            restore(s)
        if jt is not None:
            self.tangents[out._id] = jt
        return True

    def _inside(self, s):
        """The state the rules run in, from the calling state `s`: this
        trace and the tapes inside it aside (made once per state)."""
        made = self._made   # (one pair, one read: threads of one context)
        if made[0] is not s:
            recs = s.recorders
            outer = recs[:recs.index(self)] if self in recs else recs
            made = self._made = (s, _ThreadState(outer, s.watching,
                                                 s.branch))
        return made[1]

    def _rule(self, fn, ins, outs, params, ts, inside):
        if type(fn) is Rule and self.plain and len(outs) == 1:
            out = outs[0]
            way = fn.forward or _way(fn)   # (_UNARY: arrive's _unary)
            if (way is _TABLE or way is _ELEMENTWISE) and \
                    getattr(out._value, "dtype", None) in _hooks["real"]:
                if way is _TABLE:
                    rule = TANGENTS[fn.name]
                    return (rule(ts, out, *ins, **params) if params else
                            rule(ts, out, *ins),)
                t = _hooks["elementwise"](fn, ts, out, ins, params)
                if t is not None:
                    return (t,)
        own = tangent_of(fn, params)
        if own is not None:   # (a custom_jvp call: its rule)
            return own(ins, ts, outs)
        if self.plain and len(ins) == 1 and len(outs) == 1 and \
                type(fn) in UNARY_BACKWARDS and not fn.broadcast and \
                is_differentiable(outs[0].dtype):
            return (_one(fn, ins[0], outs[0], params, ts[0]),)
        return transposed(fn, ins, outs, params, ts)


# a rule's way in forward mode (Rule.forward, decided on its first use)
_TABLE, _UNARY, _ELEMENTWISE, _TRANSPOSE = "table", "unary", \
    "elementwise", "transpose"


def _way(rule):
    """Decide and keep `rule.forward`: its tangent rule, its VJP on the
    tangent (an elementwise op of one input, or of several), or its VJP
    transposed."""
    if rule.name in TANGENTS:
        way = _TABLE
    elif rule.elementwise and type(rule.fns) is tuple and \
            rule.name not in _hooks["transposed"]:
        way = _UNARY if len(rule.fns) == 1 else _ELEMENTWISE
    else:
        way = _TRANSPOSE
    rule.forward = way
    return way


def tangent_of(fn, params):
    """The forward rule a custom_jvp call's grad_fn carries (in the
    entry's params, or its bound call's backward), or None."""
    grad_fn = params[0] if type(params) is tuple and params else params
    if not callable(grad_fn):
        grad_fn = getattr(fn, "grad_fn", None)
    return getattr(grad_fn, "__pycg_tangent__", None)


def _by_value_on(rec, s, call, *args):
    """call(*args) with `rec` recording after the tapes of the calling
    state `s` and custom_gradient calls recorded by value (by_value)."""
    flag = _hooks["by_value"]
    before = flag.on
    restore(_ThreadState(s.recorders + (rec,), s.watching, s.branch))
    try:
        flag.on = True
        return call(*args)
    finally:
        flag.on = before
        restore(s)


def _one(fn, x, out, params, t):
    """transposed() for an entry of one input and one output whose backward
    has `one_input` (a unary rule, a custom gradient of one tensor): the
    same two steps with no loop around them; the tape of u reaches all it
    records, so its ids are the live ones."""
    u = Tensor(_hooks["zero"](out))
    rec = Recorder(watch_accessed=False)
    rec.ids.add(u._id)
    s = state()
    g = _by_value_on(rec, s, fn.one_input, u, out, x, params, False)
    if g is u:
        return t
    if type(g) is not Tensor or g._id not in rec.ids:
        return None
    entries = rec.entries
    if len(entries) == 1:   # (a VJP of one op on u: g = u * c, the most)
        jt = _through(entries[0], u, g, t)
        if jt is not None:
            return jt
    found = _backward(rec.entries, {g._id: t}, {u._id}, rec.ids, None,
                      not s.recorders, None)
    return found.get(u._id)


def _through(entry, u, g, t):
    """The one recorded op's VJP from g back to u, at cotangent t (a rule
    of fixed arity whose output is g, u of g's shape); None: the loop."""
    fn, ins, outs, params = entry
    if type(fn) is not Rule or type(fn.fns) is not tuple or outs[0] is not g:
        return None
    total = None
    for k, y in enumerate(ins):
        if y is u:
            term = fn.fns[k](t, g, *ins, **params) if params else \
                fn.fns[k](t, g, *ins)
            if term is None:
                return None
            total = term if total is None else total + term
    if total is None or fn.broadcast and total.shape != u.shape:
        return None
    return total


def transposed(fn, ins, outs, params, ts):
    """The entry's J t by its backward: the VJP at zero cotangents u,
    recorded by a tape of u alone, then that tape's backward from the VJP's
    gradients with the tangents as their cotangents (by value: a rule's
    gradient that declares its own rule is transposed as the values it
    returns, as pycg.jvp's double VJP always did)."""
    zero = _hooks["zero"]
    us = [Tensor(zero(o)) if is_differentiable(o.dtype) else None
          for o in outs]
    rec = Recorder(watch_accessed=False)
    seeds = {}
    for o, u in zip(outs, us):
        if u is not None:
            rec.track(u)
            seeds[o._id] = u
    sources = {x._id for x, t in zip(ins, ts) if t is not None}
    entries = [(fn, ins, outs, params)]
    grads = _by_value_on(rec, state(), lambda: _backward(   # (the loop's
        entries, seeds, sources, *_loop_facts(entries, sources, None)))
    # facts read inside: the VJP's ops recorded, not run on values)
    back = {}
    for x, t in zip(ins, ts):
        g = grads.get(x._id) if t is not None else None
        if type(g) is Tensor and x._id not in back:
            back[x._id] = (g, t)
    cots = {}
    for g, t in back.values():
        prev = cots.get(g._id)
        cots[g._id] = t if prev is None else prev + t
    if not cots:
        return [None] * len(outs)
    u_ids = {u._id for u in us if u is not None}
    found = _backward(rec.entries, cots, u_ids,
                      *_loop_facts(rec.entries, u_ids, None))
    return [found.get(u._id) if u is not None else None for u in us]
