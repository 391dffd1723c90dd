"""pycg.to_torch: a pycg function or rule as a PyTorch function.

The result calls a ``torch.autograd.Function`` (the ``setup_context`` form,
with ``generate_vmap_rule``) whose forward runs `f` on pycg tensors that
wrap the torch inputs themselves (no copy), on a pycg tape, and whose
backward is pycg's backward of that tape: a ``pycg.custom_gradient`` rule
inside `f` is the gradient torch's autograd uses.

Where torch differentiates the backward itself (``create_graph=True``,
``gradgradcheck``, ``torch.func.grad`` and ``jacrev``, which run backwards
in grad mode), the backward is one more call of the same Function: the
VJP of the call as a pycg function of the inputs and the output
gradients, recorded by pycg around f's own tape, so that its backward
(the second order) is pycg's backward of the VJP: a rule whose output
enters the gradient, or a rule called inside another rule's gradient, is
differentiated by its rule, as the same rules written as
``torch.autograd.Function`` would be, and as pycg.grad(pycg.grad(f))
differentiates; third order and beyond recur the same way. Where torch
transforms the call (``vmap``) the forward's tape cannot serve (its
values belong to the transform's level): the backward records `f` again
from the saved inputs.
"""
import functools

from pycg import backends
from pycg.interop import _bridge
from pycg.interop._torch_call import _Call
from pycg.interop._torch_functorch import in_transform
from pycg.tensor import Tensor as _PycgTensor
from pycg.tensor import structure

def to_torch(f):
    """`f`, written with pycg, as a PyTorch function whose gradient is
    pycg's: use it under ``loss.backward()``, ``torch.autograd.grad`` (with
    ``create_graph=True`` for second order), ``gradcheck`` and
    ``gradgradcheck``, the ``torch.func`` transforms (``torch.func.grad``,
    ``torch.func.vmap``, ``torch.func.jacrev``,
    ``torch.func.functional_call``), ``torch.compile``, in an
    ``nn.Module`` trained with ``torch.optim`` and under
    ``DistributedDataParallel``. `f` runs on pycg's torch backend,
    whatever the backend set (pycg.config.set_backend) and for the calling
    thread only (other threads keep theirs), forward and backward; a
    pycg.Variable that `f` closes over keeps the storage of the backend it
    was made on (a NumPy array, say): `f` reads it as a torch tensor (a
    copy where that is another backend), a constant to torch, and what `f`
    assigns to it is stored back in that storage.

    torch tensors in the arguments (in nested lists/tuples/dicts, keyword
    arguments too) are inputs, differentiable where floating or complex
    (PyTorch's complex convention is pycg's, TensorFlow's; integer and
    bool tensors get no gradient); other leaves (Python numbers, None,
    strings, NumPy arrays, pycg tensors) reach `f` unchanged, as constants
    (a NumPy array as a copy made at the call, so that a backward that
    runs `f` again sees the values of the call; a
    ``pycg.custom_gradient`` function there takes a Python float as a
    tensor of the dtype of the tensors beside it, as torch would: 0.3
    beside a float64 input is float64's 0.3). A torch input changed in
    place between the call and the backward is an error, as for a tensor
    an autograd.Function saved: torch's own, or pycg's where torch.func's
    transforms skip that check.
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
    >>> x = torch.tensor(100.0, requires_grad=True)
    >>> pycg.to_torch(log1pexp)(x).backward()
    >>> float(x.grad)
    1.0

    A torch tensor that requires grad must reach `f` as an argument: one
    that `f` reads otherwise (a closed-over ``nn.Parameter``) is an error,
    since pycg's gradient could not reach it. Where torch differentiates
    the backward or transforms it (see the module's note), the backward
    runs `f` again from its inputs: there `f` must compute the same values
    again (no random draws or variable updates that a second run changes).
    ``torch.compile`` runs the function eagerly between graphs (pycg's
    Python tape is a graph break), so ``fullgraph=True`` is an error, and
    so is ``torch.jit.trace`` (TorchScript cannot replay or save it).
    torch's forward mode (``torch.func.jvp``, ``torch.func.jacfwd``,
    ``torch.func.hessian``, ``torch.autograd.forward_ad``) gets pycg's jvp
    of f (the Function's ``jvp``: a rule's VJP transposed, f run again from
    its inputs).
    """
    return _bridge.convert(SPEC, f, _TorchFunction)


def _foreign(f, torch):
    if isinstance(f, torch.nn.Module) or \
            type(f).__module__.split(".")[0] == "torch":
        return "PyTorch"
    return None


SPEC = _bridge.Spec(
    api="to_torch", module="torch", marker="__pycg_torch_source__",
    install="PyTorch is not installed ({e}); " + backends._NEEDS["torch"][1],
    foreign=_foreign)


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
        apply = _bridge_class(torch)

        # (torch.compile runs it eagerly, one graph break: dynamo cannot
        # trace pycg's Python tape, and tracing into it costs compile time;
        # the reason is what fullgraph=True reports)
        @torch.compiler.disable(reason=_FULLGRAPH.format(name=name))
        def run(args, kwargs):
            return _call(torch, apply, f, name, args, kwargs)
        run.__name__ = run.__qualname__ = f"to_torch({name})"
        self._run = run

    def __call__(self, *args, **kwargs):
        return self._run(args, kwargs)

    def __reduce__(self):
        return to_torch, (self.__pycg_torch_source__,)

    def __repr__(self):
        return f"<pycg.to_torch({self.__name__})>"


@functools.cache
def _bridge_class(torch):
    """apply(call, xs): the one autograd.Function every to_torch function
    calls, applied to a _Call (f and what is not a tensor) and the torch
    inputs: in its plain form (forward(ctx, ...): torch's apply binds no
    signature, a tenth of a small call's cost) outside torch.func's
    transforms, in its setup_context form (which they need) inside."""
    def backward(ctx, *dys):
        needs = ctx.needs_input_grad[1:]
        with backends.using("torch"):   # (torch's engine calls it)
            return (None,) + ctx.call.backward(
                ctx.tape, ctx.saved_tensors, dys, needs, ctx.keep, apply)

    def jvp(ctx, *tangents):
        with backends.using("torch"):   # (torch's forward mode calls it)
            return ctx.call.jvp(ctx.saved_tensors, tangents[1:])

    def setup(ctx, call, xs):
        ctx.call, ctx.tape = call, call.tape
        call.tape = None
        # (a leaf whose grad_dtype is not its dtype: torch's engine casts
        # its gradient by that setting, so pycg must not)
        ctx.keep = tuple(x.is_leaf and getattr(x, "grad_dtype", x.dtype)
                         != x.dtype for x in xs)
        ctx.save_for_backward(*xs)
        ctx.save_for_forward(*xs)

    class PycgFunction(torch.autograd.Function):
        @staticmethod
        def forward(ctx, call, *xs):
            out = call.forward(xs, True)
            setup(ctx, call, xs)
            return out

    class PycgFunctionInTransform(torch.autograd.Function):
        generate_vmap_rule = True

        @staticmethod
        def forward(call, *xs):
            # (a transform's level, vmap: its values cannot outlive it)
            return call.forward(xs, False)

        @staticmethod
        def setup_context(ctx, inputs, output):
            setup(ctx, inputs[0], inputs[1:])

    for cls in (PycgFunction, PycgFunctionInTransform):
        cls.backward, cls.jvp = staticmethod(backward), staticmethod(jvp)

    def apply(call, xs):
        with backends.using("torch"):
            if in_transform():
                return PycgFunctionInTransform.apply(call, *xs)
            return PycgFunction.apply(call, *xs)
    return apply


_FULLGRAPH = (
    "pycg.to_torch({name}) runs eagerly between compiled graphs (pycg's "
    "Python tape is one graph break), so torch.compile(fullgraph=True) "
    "cannot hold it; compile without fullgraph=True, or compile the parts "
    "before and after {name}")


def _call(torch, apply, f, name, args, kwargs):
    if torch.jit.is_tracing():
        raise RuntimeError(
            f"pycg.to_torch({name}): torch.jit.trace cannot record {name}: "
            f"it is a Python autograd.Function over pycg's tape, which a "
            f"TorchScript graph can neither replay nor save; use "
            f"torch.compile (without fullgraph=True: {name} is one graph "
            f"break) or run the module eagerly")
    Tensor = torch.Tensor
    if not kwargs and all(type(a) is Tensor for a in args):   # (the hot case)
        call = _Call(f, name, args, kwargs, args, range(len(args)))
        outs = apply(call, args)
    else:
        leaves = structure.flatten((args, kwargs))
        slots = [i for i, a in enumerate(leaves) if isinstance(a, Tensor)]
        call = _Call(f, name, args, kwargs, leaves, slots)
        outs = apply(call, [leaves[i] for i in slots])
    return outs[0] if type(call.structure) is _PycgTensor else \
        structure.unflatten(call.structure, outs)
