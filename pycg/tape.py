"""GradientTape: record ops, then one backward loop.

Tapes are per thread. An op is recorded on every recording tape of the
current thread that tracks one of its inputs; its outputs become tracked.
Recorded order is a topological order, so the backward pass is a single
reversed loop. The backward pass runs ops too, so an enclosing tape that is
recording records it: nested tapes give higher derivatives.
"""
import contextlib
import threading
import warnings

from pycg import structure
from pycg.tensor import Tensor, Variable, is_float

# Set by pycg.ops at import (the tape never imports ops or a backend).
ones_like = zeros_like = unbroadcast = array_ops = None
# Set by pycg.debug: called as check(rule_name, input_index, grad, entry).
numerics_check = None


class _ThreadState(threading.local):
    def __init__(self):
        self.tapes = []      # recording tapes, innermost last
        self.watchers = []   # sets collecting variables read (custom_gradient)
        self.active = False  # tapes or watchers: the op fast path reads this


_tls = _ThreadState()


def _refresh():
    _tls.active = bool(_tls.tapes or _tls.watchers)


class Rule:
    """The VJP of a built-in op: one function per input, called as
    fn(upstream, output, *inputs, **params)."""

    __slots__ = ("name", "fns", "broadcast")

    def __init__(self, name, fns, broadcast=False):
        self.name, self.fns, self.broadcast = name, tuple(fns), broadcast


def _saw_variable(x):
    for tape in _tls.tapes:
        if tape._watch_accessed and x._id not in tape._ids:
            tape._track_variable(x)
    for seen in _tls.watchers:
        seen[x._id] = x


def record(rule, inputs, output, params=None):
    """Record a single-output op with a Rule (called only when active).
    Ops read Variables through ops._dispatch.as_tensor, which watches them,
    so the inputs here are plain tensors."""
    for tape in _tls.tapes:
        ids = tape._ids
        for x in inputs:
            if x._id in ids:
                tape._entries.append((rule, inputs, output, params))
                ids.add(output._id)
                break


def record_multi(backward, inputs, outputs):
    """Record an op with several outputs. backward(upstreams) gets one
    upstream per output (None where no gradient arrived) and returns one
    gradient (or None) per input."""
    for x in inputs:
        if x._trainable_var:
            _saw_variable(x)
    outputs = tuple(outputs)
    for tape in _tls.tapes:
        ids = tape._ids
        for x in inputs:
            if x._id in ids:
                tape._entries.append((backward, tuple(inputs), outputs, None))
                for o in outputs:
                    ids.add(o._id)
                break


def is_recording():
    return bool(_tls.tapes)


@contextlib.contextmanager
def watch_variables():
    """Collect the trainable variables read inside the block (id -> var)."""
    seen = {}
    _tls.watchers.append(seen)
    _refresh()
    try:
        yield seen
    finally:
        _tls.watchers.remove(seen)
        _refresh()


def _live_ids(entries, source_ids):
    """Ids reachable from the sources through recorded ops."""
    live = set(source_ids)
    for _, ins, out, _ in entries:
        for x in ins:
            if x._id in live:
                if type(out) is tuple:
                    live.update(o._id for o in out)
                else:
                    live.add(out._id)
                break
    return live


def backward(entries, seeds, source_ids):
    """The chain rule, from `seeds` (id -> upstream) back to the sources."""
    live = _live_ids(entries, source_ids)
    grads = dict(seeds)
    check = numerics_check
    for rule, ins, out, params in reversed(entries):
        if type(out) is tuple:
            ups = [_take(grads, o._id, source_ids) for o in out]
            if all(u is None for u in ups):
                continue
            in_grads = rule(ups)
        else:
            g = _take(grads, out._id, source_ids)
            if g is None:
                continue
            in_grads = [
                None if x._id not in live else
                fn(g, out, *ins, **params) if params else fn(g, out, *ins)
                for fn, x in zip(rule.fns, ins)]
            if rule.broadcast:
                in_grads = [gx if gx is None or gx._value.shape ==
                            x._value.shape else unbroadcast(gx, x.shape)
                            for gx, x in zip(in_grads, ins)]
        for i, (x, gx) in enumerate(zip(ins, in_grads)):
            if gx is None or x._id not in live:
                continue
            if check is not None:
                check(rule, i, gx, ins, out)
            prev = grads.get(x._id)
            grads[x._id] = gx if prev is None else prev + gx
    return grads


def _take(grads, oid, keep):
    return grads.get(oid) if oid in keep else grads.pop(oid, None)


class GradientTape:
    """Records operations for reverse-mode differentiation.

    >>> import pycg
    >>> x = pycg.constant(3.0)
    >>> with pycg.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = x * x
    >>> float(tape.gradient(y, x))
    6.0
    """

    def __init__(self, persistent=False, watch_accessed_variables=True):
        self._persistent = bool(persistent)
        self._watch_accessed = bool(watch_accessed_variables)
        self._ids = set()
        self._entries = []
        self._variables = {}
        self._state = "new"   # new -> recording -> exited; used when spent

    # ---- context ----------------------------------------------------------
    def __enter__(self):
        if self._state == "used":
            raise RuntimeError(
                "GradientTape: this non-persistent tape was already used by "
                "gradient(); create a new tape")
        _tls.tapes.append(self)
        _refresh()
        self._state = "recording"
        return self

    def __exit__(self, *exc):
        if self in _tls.tapes:
            _tls.tapes.remove(self)
            _refresh()
        if self._state == "recording":
            self._state = "exited"
        return False

    @contextlib.contextmanager
    def stop_recording(self):
        """Ops inside the block are not recorded on this tape."""
        if self not in _tls.tapes:
            raise RuntimeError(
                "GradientTape.stop_recording: the tape is not recording")
        i = _tls.tapes.index(self)
        _tls.tapes.remove(self)
        _refresh()
        try:
            yield
        finally:
            _tls.tapes.insert(i, self)
            _refresh()

    def reset(self):
        """Forget everything recorded and watched so far."""
        self._ids = set()
        self._entries = []
        self._variables = {}

    # ---- watching ---------------------------------------------------------
    def watch(self, tensor):
        """Track a tensor, a variable, or a nested list/tuple/dict of them."""
        if self._state != "recording":
            raise RuntimeError(
                "GradientTape.watch: the tape is not recording (its `with` "
                "block has exited or was never entered); call watch() inside "
                "`with pycg.GradientTape() as tape:`")
        for x in structure.flatten(tensor):
            if not isinstance(x, Tensor):
                raise TypeError(
                    f"GradientTape.watch: expected a pycg.Tensor or Variable "
                    f"(or a nested list/tuple/dict of them), got "
                    f"{type(x).__name__}; convert it first with "
                    f"pycg.convert_to_tensor")
            if not is_float(x.dtype):
                warnings.warn(
                    f"GradientTape.watch: a tensor of dtype {x.dtype} was "
                    f"watched; only floating tensors get gradients, so its "
                    f"gradient will be None", stacklevel=2)
                continue
            if isinstance(x, Variable):
                self._variables[x._id] = x
            self._ids.add(x._id)

    def _track_variable(self, v):
        self._ids.add(v._id)
        self._variables[v._id] = v

    def watched_variables(self):
        return tuple(self._variables.values())

    # ---- gradients --------------------------------------------------------
    def gradient(self, target, sources, output_gradients=None,
                 unconnected_gradients="none"):
        """d(sum of target)/d(sources), in the sources' structure."""
        self._check_usable("gradient")
        if unconnected_gradients not in ("none", "zero"):
            raise ValueError(
                f"GradientTape.gradient: unconnected_gradients must be "
                f"'none' or 'zero', got {unconnected_gradients!r}")
        targets = _tensors(target, "target")
        srcs = _tensors(sources, "sources")
        if output_gradients is None:
            ogs = [None] * len(targets)
        else:
            ogs = structure.flatten(output_gradients)
            if len(ogs) != len(targets):
                raise ValueError(
                    f"GradientTape.gradient: {len(ogs)} output_gradients for "
                    f"{len(targets)} targets")
        try:
            grads = self._run_backward(targets, ogs, srcs)
        finally:
            if not self._persistent:
                self._release()
        out = []
        for s in srcs:
            g = grads.get(s._id)
            if g is None and unconnected_gradients == "zero":
                g = zeros_like(s)
            out.append(g)
        return structure.unflatten(sources, out)

    def _run_backward(self, targets, ogs, srcs):
        from pycg.tensor import convert_to_tensor
        seeds = {}
        for t, og in zip(targets, ogs):
            if t._id not in self._ids or not is_float(t.dtype):
                continue
            if og is None:
                og = ones_like(t)
            else:
                og = convert_to_tensor(og, t.dtype)
                if og.shape != t.shape:
                    raise ValueError(
                        f"GradientTape.gradient: output_gradients entry has "
                        f"shape {og.shape} but its target has shape "
                        f"{t.shape}")
            prev = seeds.get(t._id)
            seeds[t._id] = og if prev is None else prev + og
        # only what this tape tracks can have a gradient (TensorFlow's rule:
        # an unwatched source, or a variable under watch_accessed_variables
        # =False, gets None even when it fed a recorded op)
        source_ids = {s._id for s in srcs
                      if s._id in self._ids and is_float(s.dtype)}
        paused = self in _tls.tapes
        if paused:
            i = _tls.tapes.index(self)
            _tls.tapes.remove(self)
            _refresh()
        try:
            return backward(self._entries, seeds, source_ids)
        finally:
            if paused:
                _tls.tapes.insert(i, self)
                _refresh()

    def jacobian(self, target, source, unconnected_gradients="none"):
        """The full Jacobian: shape target.shape + source.shape."""
        ops = array_ops
        self._check_usable("jacobian")
        (t,) = _tensors(target, "target")
        srcs = _tensors(source, "source")
        n = max(t.size, 1)
        rows = []
        try:
            for i in range(n):
                seed = ops.reshape(ops._one_hot_flat(i, n, t.dtype), t.shape)
                g = self._run_backward([t], [seed], srcs)
                rows.append([g.get(s._id) for s in srcs])
        finally:
            if not self._persistent:
                self._release()
        out = []
        for j, s in enumerate(srcs):
            col = [r[j] for r in rows]
            if all(c is None for c in col):
                out.append(None if unconnected_gradients == "none" else
                           ops.zeros(t.shape + s.shape, s.dtype))
                continue
            col = [zeros_like(s) if c is None else c for c in col]
            out.append(ops.reshape(ops.stack(col), t.shape + s.shape))
        return structure.unflatten(source, out)

    def explain(self, target, source):
        """Say in words why d target / d source is what it is."""
        from pycg._explain import explain
        return explain(self, target, source)

    def _check_usable(self, what):
        if self._state == "used":
            raise RuntimeError(
                f"GradientTape.{what} can only be called once on a "
                f"non-persistent tape; create the tape with "
                f"pycg.GradientTape(persistent=True) to call it more than "
                f"once")

    def _release(self):
        self._entries = []
        self._ids = set()
        self._state = "used"
        if self in _tls.tapes:
            _tls.tapes.remove(self)
            _refresh()


def _tensors(tree, what):
    leaves = structure.flatten(tree)
    for x in leaves:
        if not isinstance(x, Tensor):
            raise TypeError(
                f"GradientTape.gradient: every {what} must be a pycg.Tensor "
                f"or Variable, got {type(x).__name__}")
    return leaves
