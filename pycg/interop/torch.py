"""pycg.to_torch: a pycg function or rule as a PyTorch function.

The result calls a ``torch.autograd.Function`` (the ``setup_context`` form,
with ``generate_vmap_rule``) whose forward runs `f` on pycg tensors that
wrap the torch inputs themselves (no copy), on a pycg tape, and whose
backward is pycg's backward of that tape: a ``pycg.custom_gradient`` rule
inside `f` is the gradient torch's autograd uses.

Where torch differentiates the backward itself (``create_graph=True``,
``gradgradcheck``, ``torch.func.grad`` and ``jacrev``, which run backwards
in grad mode) or transforms it (``vmap``), the forward's tape cannot serve:
its values were made without torch's autograd (a ``Function``'s forward
runs in no-grad mode) or at another transform level. There the backward
records `f` again from the saved inputs, in grad mode, so that torch's
autograd records pycg's kernels (forward and rule): second derivatives
follow the rule's own derivative, as with to_tensorflow and to_jax.
"""
import functools
import inspect
import sys

from pycg import _imports, backends
from pycg.tensor import structure
from pycg.api.tape import GradientTape
from pycg.custom import kept_dtypes
from pycg.custom.bind import name_of
from pycg.interop._outputs import checked
from pycg.tensor import Tensor, is_float

_WHAT = ("a function written with pycg (pycg.ops, a pycg.custom_gradient "
         "rule, or an R rule from pycg.r)")


def to_torch(f):
    """`f`, written with pycg, as a PyTorch function whose gradient is
    pycg's: use it under ``loss.backward()``, ``torch.autograd.grad`` (with
    ``create_graph=True`` for second order), ``gradcheck`` and
    ``gradgradcheck``, the ``torch.func`` transforms (``grad``, ``vmap``,
    ``jacrev``, ``functional_call``), ``torch.compile``, in an
    ``nn.Module`` trained with ``torch.optim`` and under
    ``DistributedDataParallel``, with pycg's torch backend
    (``pycg.config.set_backend("torch")``).

    torch tensors in the arguments (in nested lists/tuples/dicts, keyword
    arguments too) are inputs, differentiable where floating (integer and
    bool tensors get no gradient); other leaves (Python numbers, None,
    strings, NumPy arrays, pycg tensors) reach `f` unchanged, as constants
    (a ``pycg.custom_gradient`` function there takes a Python float as a
    tensor of the dtype of the tensors beside it, as torch would: 0.3
    beside a float64 input is float64's 0.3).
    `f` returns a pycg tensor or a nested list/tuple/dict of them; the
    result has the same structure, of torch tensors.

    Args:
        f: A function written with pycg ops (a custom_gradient function
            among them).

    Returns:
        A PyTorch function with f's name; torch's autograd differentiates
        it by pycg's gradient (f's rules included).

    Differs:
        ``torch.autograd.Function`` asks for a forward, a setup_context, a
        backward and a vmap rule written in torch; here one pycg rule (in
        any published convention) is all of them.

    Example:
    >>> import pycg, torch
    >>> from pycg import ops
    >>> @pycg.custom_gradient
    ... def log1pexp(x):
    ...     e = ops.exp(x)
    ...     def grad(upstream):
    ...         return upstream * (1 - 1 / (1 + e))
    ...     return ops.log(1 + e), grad
    >>> previous = pycg.config.backend()
    >>> _ = pycg.config.set_backend("torch")
    >>> x = torch.tensor(100.0, requires_grad=True)
    >>> pycg.to_torch(log1pexp)(x).backward()
    >>> float(x.grad)
    1.0
    >>> _ = pycg.config.set_backend(previous)

    A torch tensor that requires grad must reach `f` as an argument: one
    that `f` reads otherwise (a closed-over ``nn.Parameter``) is an error,
    since pycg's gradient could not reach it. Where torch differentiates
    the backward or transforms it (see the module's note), the backward
    runs `f` again from its inputs: there `f` must compute the same values
    again (no random draws or variable updates that a second run changes).
    ``torch.compile`` runs the function eagerly between graphs (pycg's
    Python tape is a graph break), so ``fullgraph=True`` is an error, and
    so are ``torch.jit.trace`` (TorchScript cannot replay or save it) and
    torch's forward mode (``torch.func.jvp``, ``jacfwd``, ``hessian``:
    pycg's rules are reverse mode; ``jacrev(jacrev(f))`` is a Hessian).
    """
    if getattr(f, "__pycg_torch_source__", None) is not None:
        return f  # already converted
    if not callable(f):
        raise TypeError(f"pycg.to_torch: expected {_WHAT}, got "
                        f"{type(f).__name__}")
    name = name_of(f)
    torch = _torch(name)
    if isinstance(f, torch.nn.Module) or \
            type(f).__module__.split(".")[0] == "torch":
        raise TypeError(
            f"pycg.to_torch({name}): {name} is a PyTorch callable "
            f"({type(f).__name__}), not {_WHAT}; call it directly, it needs "
            f"no conversion")
    return _TorchFunction(f, name, torch)


class _TorchFunction:
    """What to_torch returns: calls f through the bridge, with f's name,
    module and docstring. It pickles (torch.save of a module that holds
    one, copy.deepcopy) as to_torch(f), f by reference, as
    ``Function.apply`` pickles: f must be picklable (a module-level
    function)."""

    def __init__(self, f, name, torch):
        functools.update_wrapper(self, f)
        del self.__wrapped__
        self.__pycg_torch_source__ = f
        bridge = _bridge_class(torch)

        # (torch.compile runs it eagerly, one graph break: dynamo cannot
        # trace pycg's Python tape, and tracing into it costs compile time;
        # the reason is what fullgraph=True reports)
        @torch.compiler.disable(reason=_FULLGRAPH.format(name=name))
        def run(args, kwargs):
            return _call(torch, bridge, f, name, args, kwargs)
        run.__name__ = run.__qualname__ = f"to_torch({name})"
        self._run = run

    def __call__(self, *args, **kwargs):
        return self._run(args, kwargs)

    def __reduce__(self):
        return to_torch, (self.__pycg_torch_source__,)

    def __repr__(self):
        return f"<pycg.to_torch({self.__name__})>"


def _torch(name):
    try:
        return _imports.import_module("torch")
    except _imports.ShadowedModuleError:
        raise
    except ImportError as e:
        raise ImportError(
            f"pycg.to_torch({name}): PyTorch is not installed ({e}); "
            f"{backends._NEEDS['torch'][1]}") from None


@functools.cache
def _bridge_class(torch):
    """The one autograd.Function every to_torch function calls; its first
    argument (a _Call) carries f and what is not a tensor."""
    functorch = torch._C._functorch

    class PycgFunction(torch.autograd.Function):
        generate_vmap_rule = True

        @staticmethod
        def forward(call, *xs):
            # (a transform's level, vmap: its values cannot outlive it)
            keep = functorch.peek_interpreter_stack() is None
            return call.forward(xs, keep)

        @staticmethod
        def setup_context(ctx, inputs, output):
            call = inputs[0]
            ctx.call, ctx.tape = call, call.tape
            call.tape = None
            # (a leaf whose grad_dtype is not its dtype: torch's engine
            # casts its gradient by that setting, so pycg must not)
            ctx.keep = tuple(x.is_leaf and getattr(x, "grad_dtype", x.dtype)
                             != x.dtype for x in inputs[1:])
            ctx.save_for_backward(*inputs[1:])

        @staticmethod
        def backward(ctx, *dys):
            needs = ctx.needs_input_grad[1:]
            return (None,) + ctx.call.backward(ctx.tape, ctx.saved_tensors,
                                               dys, needs, ctx.keep)

        @staticmethod
        def jvp(ctx, *tangents):
            raise NotImplementedError(_forward_mode(ctx.call.name))

    return PycgFunction


_FULLGRAPH = (
    "pycg.to_torch({name}) runs eagerly between compiled graphs (pycg's "
    "Python tape is one graph break), so torch.compile(fullgraph=True) "
    "cannot hold it; compile without fullgraph=True, or compile the parts "
    "before and after {name}")


def _forward_mode(name):
    return (
        f"pycg.to_torch({name}): torch's forward mode (torch.func.jvp, "
        f"jacfwd, hessian, forward_ad's dual tensors) needs a forward-mode "
        f"rule (the autograd.Function's jvp) of {name}, which pycg.to_torch "
        f"does not give: pycg's rules are reverse mode. Use reverse mode: "
        f"torch.func.jacrev (jacrev(jacrev({name})) for a Hessian) or "
        f"torch.autograd.functional.hessian")


def _call(torch, bridge, f, name, args, kwargs):
    if torch.jit.is_tracing():
        raise RuntimeError(
            f"pycg.to_torch({name}): torch.jit.trace cannot record {name}: "
            f"it is a Python autograd.Function over pycg's tape, which a "
            f"TorchScript graph can neither replay nor save; use "
            f"torch.compile (without fullgraph=True: {name} is one graph "
            f"break) or run the module eagerly")
    if backends.active.name != "torch":
        raise RuntimeError(
            f"pycg.to_torch({name}): pycg's backend is "
            f"{backends.active.name!r}, so pycg tensors cannot hold torch "
            f"tensors; call pycg.config.set_backend('torch') (or set "
            f"PYCG_BACKEND=torch) before calling {name}")
    leaves = structure.flatten((args, kwargs))
    slots = [i for i, a in enumerate(leaves) if isinstance(a, torch.Tensor)]
    call = _Call(f, name, args, kwargs, leaves, slots)
    outs = bridge.apply(call, *[leaves[i] for i in slots])
    return structure.unflatten(call.structure, outs)


class _Call:
    """One call of a to_torch function: f, its arguments' structure and
    the leaves that are not torch inputs; the forward's tape on its way to
    the autograd context, and f's output structure."""

    __slots__ = ("f", "name", "tree", "leaves", "slots", "tape",
                 "structure", "floats")

    def __init__(self, f, name, args, kwargs, leaves, slots):
        self.f, self.name, self.tree = f, name, (args, kwargs)
        self.leaves, self.slots = leaves, slots
        self.tape = self.structure = None

    def run(self, xs, tape, stage):
        """f on pycg tensors wrapping xs (watched by `tape` where
        floating): (those tensors, f's outputs as pycg tensors)."""
        ins = [Tensor(x) for x in xs]
        values = list(self.leaves)
        for i, t in zip(self.slots, ins):
            values[i] = t
        call_args, call_kwargs = structure.unflatten(self.tree, values)
        K = backends.active
        with K.bridged(self.name, stage), tape:
            for t in ins:
                if is_float(t.dtype):
                    tape.watch(t)
            out = self.f(*call_args, **call_kwargs)
        outs = checked("to_torch", self.name, out, structure.flatten(out),
                       (), "a torch tensor")
        if self.structure is None:
            self.structure = out
            self.floats = [is_float(o.dtype) for o in outs]
        return ins, outs

    def forward(self, xs, keep):
        # (inputs detached: pycg sees no tensor that requires grad)
        tape = GradientTape(persistent=True)
        ins, outs = self.run([x.detach() for x in xs], tape, "forward")
        self.tape = (tape, ins, outs) if keep else None
        return tuple(_fresh(o._value) for o in outs)

    def backward(self, kept, xs, dys, needs, keep):
        if kept is None or sys.modules["torch"].is_grad_enabled():
            # (torch records this backward, or the forward's tape is gone)
            tape = GradientTape(persistent=True)
            ins, outs = self.run(xs, tape, "backward")
        else:
            tape, ins, outs = kept
        wanted = [t for t, x, n in zip(ins, xs, needs)
                  if n and is_float(t.dtype)]
        pairs = [(o, Tensor(dy)) for o, dy, floating
                 in zip(outs, dys, self.floats) if floating and dy is not None]
        with backends.active.bridged(self.name, "backward"), \
                kept_dtypes.keeping([t for t, k in zip(ins, keep) if k]):
            gs = tape.gradient([o for o, _ in pairs], wanted,
                               output_gradients=[u for _, u in pairs]) \
                if wanted and pairs else [None] * len(wanted)
        found = iter(gs)
        return tuple(self._checked(next(found), x, i, keep[i])
                     if n and is_float(t.dtype) else None
                     for i, (t, x, n) in enumerate(zip(ins, xs, needs)))

    def _checked(self, g, x, i, keep):
        if g is None:
            return None
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


def _dtype(value):
    return str(value.dtype).replace("torch.", "")


def _fresh(value):
    """An output torch may mark as its own: never a tensor pycg keeps
    (a cached scalar, a variable's store) nor an input itself; torch sets
    its autograd history on the object it gets."""
    if value.dim() == 0:
        return value.clone()
    return value.detach()
