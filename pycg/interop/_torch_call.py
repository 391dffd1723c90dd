"""One call of a pycg.to_torch function (pycg/interop/torch.py): f run on
pycg tensors that wrap the torch inputs, on a pycg tape, and the backward
of that tape, as the bridge's autograd.Function asks for them."""
import inspect
import sys

import numpy as np

from pycg import backends, ops
from pycg.core import backward as core_backward
from pycg.core import recorder as core
from pycg.custom import kept_dtypes
from pycg.interop import _bridge
from pycg.interop._outputs import checked
from pycg.tensor import Tensor, is_differentiable, structure


class _Call:
    """One call of a to_torch function: f, its arguments' structure and
    the leaves that are not torch inputs (a NumPy array among them copied:
    the backward may run f on them again, after the caller changed
    theirs); the torch inputs' versions at the call; the forward's tape on
    its way to the autograd context, and f's output structure."""

    __slots__ = ("f", "name", "tree", "leaves", "slots", "plain",
                 "versions", "tape", "structure", "outs_diff", "ins_diff",
                 "made")

    def __init__(self, f, name, args, kwargs, leaves, slots):
        self.f, self.name, self.tree = f, name, (args, kwargs)
        self.slots = slots
        # (f(*inputs): the arguments are the leaves, all torch tensors)
        self.plain = plain = leaves is args and not kwargs
        self.leaves = leaves if plain else [
            a.copy() if isinstance(a, np.ndarray) else a for a in leaves]
        self.versions = [_version(x) for x in args] if plain else [
            _version(leaves[i]) for i in slots]
        self.tape = self.structure = None
        self.made = ()   # the outputs' versions as forward made them

    def run(self, ins, tape, stage):
        """f on the pycg tensors `ins` (watched by `tape` where floating
        or complex), in place of the torch inputs: f's outputs as pycg
        tensors."""
        if self.plain:
            call_args, call_kwargs = ins, {}
        else:
            values = list(self.leaves)
            for i, t in zip(self.slots, ins):
                values[i] = t
            call_args, call_kwargs = structure.unflatten(self.tree, values)
        with backends.active.bridged(self.name, stage):
            out = tape.record(self.f, call_args, call_kwargs, ins)
        outs = [out] if type(out) is Tensor else checked(
            "to_torch", self.name, out, structure.flatten(out), (),
            "a torch tensor")
        if self.structure is None:
            self.structure = out
            self.outs_diff = [is_differentiable(o.dtype) for o in outs]
        return outs

    def forward(self, xs, keep):
        # (inputs detached: pycg sees no tensor that requires grad)
        tape = _Direct()
        ins = [Tensor(x.detach()) for x in xs]
        self.ins_diff = [is_differentiable(t.dtype) for t in ins]
        outs = self.run(ins, tape, "forward")
        self.tape = (tape, ins, outs) if keep else None
        made = tuple([_fresh(o._value) for o in outs])
        self.made = [(o, o._version) for o in made]   # (plain: torch's own)
        return made

    def backward(self, kept, xs, dys, needs, keep, apply):
        """The gradients of the inputs (None where torch asks none) from
        the output gradients `dys`. Where torch records the backward
        (create_graph, torch.func's grad and jacrev), it is one more
        call of the bridge (`apply`): the VJP of this call (_Vjp), whose
        own backward is pycg's backward of the VJP, so that torch's
        second derivative follows the rules' own gradients (a rule's
        output in the gradient, a rule called in another's gradient) as
        pycg's would."""
        self._check_versions()
        if sys.modules["torch"].is_grad_enabled():
            return self._recorded(xs, dys, needs, keep, apply)
        if kept is None or _moved(self.made):
            # (the forward's tape is gone, or an output was changed in
            # place, and with it what the tape's rules may read: f runs
            # again from its inputs, whose versions are checked, so the
            # gradient is the call's)
            tape = _Tape()
            ins = [Tensor(x) for x in xs]
            outs = self.run(ins, tape, "backward")
        else:
            tape, ins, outs = kept
        gs = self.vjp(tape, ins, outs, [None if dy is None else Tensor(dy)
                                        for dy in dys], needs, keep)
        return tuple(None if g is None else self._checked(g, x, i, keep[i])
                     for i, (g, x) in enumerate(zip(gs, xs)))

    def jvp(self, xs, tangents):
        """The tangents of f's outputs (J @ tangents; None for an output
        that is neither floating nor complex) at the torch inputs `xs`,
        the tangents of the inputs given (None where torch has none), by
        pycg's forward mode (_bridge.jvp: whatever pycg's jvp knows of f's
        rules)."""
        ins = [Tensor(x.detach()) for x in xs]
        moving = [i for i, (x, t) in enumerate(zip(ins, tangents))
                  if t is not None and is_differentiable(x.dtype)]

        def flat(*moved):
            full = list(ins)
            for i, m in zip(moving, moved):
                full[i] = m
            return self.run(full, _Untaped, "forward")
        if moving:
            touts = _bridge.jvp(flat, [ins[i] for i in moving],
                                [Tensor(tangents[i]) for i in moving])[1]
        else:
            touts = [ops.zeros_like(o) for o in flat()]
        return tuple(t._value if diff else None
                     for t, diff in zip(touts, self.outs_diff))

    def vjp(self, tape, ins, outs, dys, needs, keep):
        """pycg's gradients of f's inputs `ins` (one per input, None where
        not needed or unconnected) from `tape`, the output gradients `dys`
        (pycg tensors or None) given."""
        asked = [n and f for n, f in zip(needs, self.ins_diff)]
        wanted = [t for t, a in zip(ins, asked) if a]
        pairs = [(o, dy) for o, dy, diff
                 in zip(outs, dys, self.outs_diff) if diff and dy is not None]
        if not wanted or not pairs:
            gs = [None] * len(wanted)
        elif True in keep:
            with backends.active.bridged(self.name, "backward"), \
                    kept_dtypes.keeping([t for t, k in zip(ins, keep) if k]):
                gs = tape.gradient(pairs, wanted)
        else:
            with backends.active.bridged(self.name, "backward"):
                gs = tape.gradient(pairs, wanted)
        if len(gs) == len(ins):
            return gs
        found = iter(gs)
        return [next(found) if a else None for a in asked]

    def _recorded(self, xs, dys, needs, keep, apply):
        """The backward as a call of the bridge that torch records."""
        given = [j for j, (dy, diff) in enumerate(zip(dys, self.outs_diff))
                 if diff and dy is not None]
        wanted = [i for i, (x, n) in enumerate(zip(xs, needs))
                  if n and is_differentiable(Tensor(x).dtype)]
        if not given or not wanted:
            return (None,) * len(xs)
        vjp = _Vjp(self, needs, keep, given, wanted)
        args = list(xs) + [dys[j] for j in given]
        grads = [None] * len(xs)
        for i, g in zip(vjp.wanted, apply(_VjpCall(vjp, args), args)):
            if i not in vjp.unconnected:
                grads[i] = g
        return tuple(grads)

    def _check_versions(self):
        """torch's own check of a saved tensor, where torch's transforms
        (torch.func.vjp, grad) skip it: an input changed in place since
        the call would give the gradient at its new value."""
        if not _moved(self.versions):
            return
        for i, (base, then) in enumerate(self.versions):
            if base._version != then:
                raise RuntimeError(
                    f"pycg.to_torch({self.name}): its input "
                    f"{self._label(i)} was modified by an inplace operation "
                    f"after {self.name} ran (its version is {base._version}, "
                    f"{then} at the call), and its gradient needs the value "
                    f"it had then, which is gone, as torch says of a tensor "
                    f"an autograd.Function saved; change a clone "
                    f"(x.clone()) instead, or call {self.name} again after "
                    f"the change")

    def _checked(self, g, x, i, keep):
        """The value of pycg's gradient `g` of input i (torch's `x`), on
        x's device and, unless `keep`, in its dtype; else the error."""
        g = g._value
        if g.device != x.device or g.dtype != x.dtype and not keep:
            raise TypeError(
                f"pycg.to_torch({self.name}): the gradient {self.name} gave "
                f"its input {self._label(i)} is on {g.device} as "
                f"{_dtype(g)}, but that input is on {x.device} as "
                f"{_dtype(x)}; a rule must "
                f"return each gradient on its input's device, in its dtype "
                f"(.to(x.device) in torch, ops.cast in pycg)")
        return g

    def _label(self, i):
        """Input i's place in the call: `x` (f's parameter or keyword),
        `args[3]` (beyond f's parameters), with (leaf n) for a leaf of a
        nested argument."""
        args, kwargs = self.tree
        places = [(j, a) for j, a in enumerate(args)] + list(kwargs.items())
        slot, k, n = self.slots[i], 0, 0
        for j, (_, a) in enumerate(places):
            n = len(structure.flatten(a))
            if slot < k + n:
                place = places[j][0]
                break
            k += n
        label = place if isinstance(place, str) else f"args[{place}]"
        try:
            params = list(inspect.signature(self.f).parameters)
        except (TypeError, ValueError):
            params = []
        if isinstance(place, int) and place < len(params):
            label = params[place]
        return f"`{label}`" + ("" if n == 1 else f" (leaf {slot - k})")


class _Untaped:
    """f run unrecorded (pycg's jvp records it itself)."""

    @staticmethod
    def record(f, args, kwargs, ins):
        return f(*args, **kwargs) if kwargs else f(*args)


class _Tape:
    """f's record for one call's backward: a recorder of pycg's core,
    recording while f runs (a persistent GradientTape's work, without the
    checks of a user's calls: here the bridge alone calls it)."""

    __slots__ = ("rec",)

    def __init__(self):
        self.rec = core.Recorder()

    def record(self, f, args, kwargs, ins):
        """f(*args, **kwargs) recorded, the floating and complex `ins`
        tracked."""
        rec = self.rec
        core.push(rec)
        try:
            for t in ins:
                if is_differentiable(t.dtype):
                    rec.track(t)
            return f(*args, **kwargs) if kwargs else f(*args)
        finally:
            core.pop(rec)

    def gradient(self, pairs, wanted):
        """The gradients of the tensors `wanted` (None where
        unconnected) from (output, its upstream gradient) pairs."""
        rec = self.rec
        ids, seeds = rec.ids, {}
        for o, dy in pairs:
            if o._id in ids:
                prev = seeds.get(o._id)
                seeds[o._id] = dy if prev is None else prev + dy
        if not seeds:
            return [None] * len(wanted)
        sources = {t._id for t in wanted}
        grads = core_backward.backward(rec.entries, seeds, sources,
                                       ids if rec.roots <= sources else None)
        return [grads.get(t._id) for t in wanted]


class _Direct:
    """The forward's record where f is one custom_gradient function called
    on the inputs (to_torch of a rule, the common case): the call's tape
    entry, whose backward the backward asks itself, as pycg's backward
    loop would (no tape: a fifth of what a small call adds); for any
    other f, or while pycg.debug checks each gradient, a _Tape."""

    __slots__ = ("entry", "tape")

    def __init__(self):
        self.entry = self.tape = None

    def record(self, f, args, kwargs, ins):
        direct = getattr(f, "__pycg_direct__", None)
        got = None if direct is None or kwargs or \
            core.numerics_check() is not None else direct(args)
        if got is None:
            self.tape = _Tape()
            return self.tape.record(f, args, kwargs, ins)
        out, self.entry = got
        return out

    def gradient(self, pairs, wanted):
        if self.tape is not None:
            return self.tape.gradient(pairs, wanted)
        fn, ins, outs, params = self.entry
        if len(outs) == 1:   # (one output: its upstream is the one pair's)
            ups = [pairs[0][1]]
        else:
            given = {o._id: dy for o, dy in pairs}
            ups = [given.get(o._id) for o in outs]
        if len(ins) == 1:   # (one input: its gradient, by the loop's call)
            g = fn(ups, ins, outs, params, {ins[0]._id})[0]
            return [g if t is ins[0] else None for t in wanted]
        ins, outs = tuple(ins), tuple(outs)
        grads = {}
        for x, g in zip(ins, fn(ups, ins, outs, params,
                                {x._id for x in ins})):
            if g is not None:
                prev = grads.get(x._id)
                grads[x._id] = g if prev is None else prev + g
        return [grads.get(t._id) for t in wanted]


class _Vjp:
    """The VJP of one call of f, as a pycg function of (f's torch inputs,
    the gradients of f's floating and complex outputs that torch gave):
    the gradient of each input torch asks for (`wanted`; zeros where f's
    output does not depend on it: `unconnected`, for the backward to leave
    out), from
    a tape of f inside the tape that records this function, so that
    pycg's backward of it (this call's backward) differentiates the
    rules' gradients and their outputs by their own rules."""

    def __init__(self, call, needs, keep, given, wanted):
        self.call, self.needs, self.keep = call, needs, keep
        self.given, self.wanted = given, wanted
        self.__name__ = call.name
        self.unconnected = set()

    def __call__(self, *args):
        call = self.call
        n = len(call.slots)
        ins, dys = list(args[:n]), [None] * len(call.outs_diff)
        for j, dy in zip(self.given, args[n:]):
            dys[j] = dy
        tape = _Tape()
        outs = call.run(ins, tape, "backward")
        gs = call.vjp(tape, ins, outs, dys, self.needs, self.keep)
        out = []
        for i in self.wanted:
            g = gs[i]
            if g is None:
                self.unconnected.add(i)
                g = ops.zeros_like(ins[i])
            else:
                call._checked(g, ins[i]._value, i, self.keep[i])
            out.append(g)
        return tuple(out)


class _VjpCall(_Call):
    """A call of a _Vjp: its inputs named as the call's (f's inputs, then
    the gradients of its outputs)."""

    __slots__ = ()

    def __init__(self, vjp, args):
        args = tuple(args)
        super().__init__(vjp, vjp.call.name, args, {}, args,
                         range(len(args)))

    def _label(self, i):
        parent = self.f.call
        n = len(parent.slots)
        return parent._label(i) if i < n else \
            f"the gradient of its output {self.f.given[i - n]}"


def _moved(versions):
    """Whether a tensor of (tensor, version) pairs has a new version."""
    for base, then in versions:
        if base._version != then:
            return True
    return False


def _version(x):
    """(the tensor under torch.func's wrappers of x, its version)."""
    x = sys.modules["torch"].func.debug_unwrap(x)
    return x, x._version


def _dtype(value):
    return str(value.dtype).replace("torch.", "")


def _fresh(value):
    """An output torch may mark as its own: never a tensor pycg keeps
    (a cached scalar, a variable's store) nor an input itself; torch sets
    its autograd history on the object it gets."""
    if value.dim() == 0:
        return value.clone()
    return value.detach()
