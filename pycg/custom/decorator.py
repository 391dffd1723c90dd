"""custom_gradient: a function with its own gradient rule, in every
published calling convention (TensorFlow, Keras 3, JAX, keras3 for R).

How `grad_fn` is called is decided from its own signature, for each
`grad_fn` (one decorated function may return grad functions of different
styles):

=======================================  ====================================
grad_fn's signature                      pycg calls it as
=======================================  ====================================
``upstream`` after ``*args``, keyword-    ``grad_fn(*inputs, upstream=dy)``
only, or after other parameters (Keras:   (the forward inputs positionally,
``(*args, upstream=None)``, PyTorch-      dy one tensor, or a tuple for
style ``(*args, upstream)``, R            several outputs)
``function(x, upstream)``)

has a parameter named ``variables``       ``grad_fn(*dys, variables=[...])``,
(TensorFlow with variables)               returns ``(grad_inputs, grad_vars)``

anything else (TensorFlow, JAX, and       ``grad_fn(*dys)``, one dy per
``def grad(upstream)``)                   flattened output
=======================================  ====================================

``**kwargs`` never counts as taking ``upstream`` or ``variables``.
``None`` for one input (inside a tuple, list or dict) means no gradient for
it; ``None`` as grad_fn's whole result is an error (a forgotten ``return``).
How the returned gradients are read:

=======================================  ====================================
grad_fn returns                          read as
=======================================  ====================================
one value                                the gradient of the one input

a tuple or list                          one per parameter (each in its
                                         input's structure), or one per
                                         tensor leaf (flat)

a dict whose keys are parameter names    by name; a Variable key gives that
(and Variables), each value in its       variable's gradient
parameter's structure

a dict in the structure of the one       by structure (TensorFlow's nest
input that is a dict (``inputs`` =       rules): ``{"a": da, "b": db}``
``{"a": a, "b": b}``)

a dict that reads both ways              an error: return a tuple instead

one value, or a tuple or list with one   the gradients of the inputs passed
per input passed positionally, where f   positionally; keyword arguments are
was called with keyword arguments        constants, with no gradient
                                         (tf.custom_gradient's eager rule);
                                         one per input, keywords included,
                                         is read as above (JAX's rule)
=======================================  ====================================
 Forward ops inside ``f`` stay on the
tape, so a ``grad_fn`` written with pycg ops has a true gradient of its own.

Where TensorFlow differentiates instead of pycg (the function called on
TensorFlow values under a ``tf.GradientTape``, in a ``tf.function`` or a
Keras model's step; or inside ``ops.cond``, ``ops.while_loop`` and the other
traced control flow in ``pycg.function``), the call becomes one
``tf.custom_gradient`` op carrying the rule, as ``pycg.to_tensorflow`` makes.
"""
import contextlib
import functools
import sys
import textwrap
import threading
from collections.abc import Callable
from typing import Any

from pycg import backends
from pycg.tensor import structure
from pycg._errors import Api, user_error
from pycg.core import forward as core_forward
from pycg.core import tangents as core_tangents
from pycg.core.forward import drop, forward
from pycg.core.recorder import record, record_one, state
from pycg.custom.bind import Signature, bind_inputs, name_of
from pycg.custom.contracts import _split_result
from pycg.custom.plan import Plan, call_entry, record_call
from pycg.custom.calling import DECORATOR_ARGS
from pycg.tensor import Tensor
from pycg.tensor.convert import jax_tracer


class _ByValue(threading.local):
    on = False   # (a class default: the hot path's read never misses)


_by_value = _ByValue()   # .on: rules record their ops (by_value)
core_tangents.register(by_value=_by_value)   # (a rule's VJP transposed)


@contextlib.contextmanager
def by_value(on=True):
    """``with by_value():`` a custom_gradient function called in the block,
    while a tape records, is recorded by the ops of its forward, not by its
    rule, where those ops reach its output; elsewhere (a forward that
    leaves pycg: NumPy, R) by its rule as ever. pycg.jvp runs its first
    VJP so: the derivative of that VJP in its cotangent is then the
    derivative of the values the rules return (a rule's gradient, itself
    a custom_gradient function, may declare another derivative in the
    cotangent, as TensorFlow's nested custom gradients do; J t is the
    VJP's values transposed, not that). ``by_value(False)``: calls in the
    block are recorded by their rule again (pycg.custom_jvp's calls: a
    forward rule is J itself, and is kept)."""
    before = _by_value.on
    _by_value.on = on
    try:
        yield
    finally:
        _by_value.on = before


def _record_by_value(f, plan, x, xs, args, kwargs, s):
    """f's output with f's ops recorded on the recording tapes (by_value),
    or, where they do not reach it from a tracked input, its rule; None
    for the usual path (a call that binds arguments, reads variables or
    returns several tensors that its ops do not reach)."""
    ins = (x,) if xs is None else tuple(xs)
    ids = [rec.ids for rec in s.recorders]
    if not any(t._id in i for t in ins for i in ids):
        return None   # (nothing tracked flows in: the usual path)
    result = f(*args) if not kwargs else f(*args, **kwargs)
    output, grad_fn = _split_result(plan.name, result)
    leaves = structure.flatten(output)
    if leaves and all(type(t) is Tensor and any(t._id in i for i in ids)
                      for t in leaves):
        return output   # (its ops recorded: the values' derivative)
    if type(output) is not Tensor:
        return None   # (the usual path runs f again: rare, not the hot one)
    output = Tensor(output._value)
    record(s.recorders, plan, ins, output, grad_fn)
    return output


# (complex by count: `decorated` is the fast path of every call, one frame
# with its plan cache inline)
def custom_gradient(f: Callable[..., Any]) -> Callable[..., Any]:  # noqa: C901
    """Decorate ``f(*args) -> (output, grad_fn)`` to give it a custom gradient.

    >>> import pycg
    >>> from pycg import ops
    >>> @pycg.custom_gradient
    ... def log1pexp(x):
    ...     e = ops.exp(x)
    ...     def grad(upstream):
    ...         return upstream * (1 - 1 / (1 + e))
    ...     return ops.log(1 + e), grad
    >>> float(pycg.grad(log1pexp)(100.0))
    1.0
    """
    if not callable(f):
        raise TypeError(f"pycg.custom_gradient: expected a function, got "
                        f"{type(f).__name__}")
    plans: dict[Any, Plan] = {}   # call shape -> its Plan, on its first call

    @functools.wraps(f)
    def decorated(*args, **kwargs):  # noqa: C901 (the fast path: one frame)
        plan = plans.get((len(args), *kwargs) if kwargs else len(args))
        if plan is None:
            plan = _plan(f, plans, args, kwargs)
        at, inputs = plan.at, None
        if at is not None:   # one argument (the hot case)
            xs, x = None, args[at] if type(at) is int else kwargs[at]
        else:
            xs = x = plan.tensors(args, kwargs)
        s = state()
        active = s.active
        if xs is None and type(x) is not Tensor or (
                s.branch is not None if active else xs is None and
                type(x._value) not in backends.active.types):
            routed, inputs = _route(decorated, plan, args, kwargs)
            if inputs is None:   # TensorFlow differentiates: its op
                return routed
            x, args, kwargs = None, inputs.call_args, inputs.call_kwargs
        if not active:   # nothing records: f's output is all that matters
            return _split_result(plan.name, f(*args, **kwargs))[0]
        if inputs is None and _by_value.on:
            done = _record_by_value(f, plan, x if xs is None else None, xs,
                                    args, kwargs, s)
            if done is not None:
                return done
        result, seen, first, marks = forward(f, args, kwargs)
        if type(result) is tuple and len(result) == 2 and \
                callable(result[1]):
            output, grad_fn = result
        else:
            try:
                output, grad_fn = _split_result(plan.name, result)
            except BaseException:
                drop(marks)
                raise
        recorders = s.recorders   # (record* record where one tracks x)
        if inputs is None and type(output) is Tensor:   # (no binding)
            if first is None or output._id <= first:
                output = Tensor(output._value)   # (not f's own: a new id)
            if seen:   # variables read: inputs after the call's tensors
                variables = tuple(seen.values())
                record(recorders, plan, ((x,) if xs is None else xs) +
                       variables, output, (grad_fn, variables))
            elif xs is None:
                record_one(recorders, plan, x, output, grad_fn)
            else:
                record(recorders, plan, xs, output, grad_fn)
            return output
        if not recorders:
            return output
        if inputs is None:
            inputs = bind_inputs(plan.name, plan.slots, args, kwargs,
                                 plan.signature.names)
        return record_call(plan.name, inputs, output, grad_fn, seen)

    def direct(args):
        return _direct(f, plans, args)

    decorated.__pycg_custom_gradient__ = True  # type: ignore[attr-defined]
    decorated.__pycg_direct__ = direct  # type: ignore[attr-defined]
    return decorated


def _direct(f, plans, args):
    """One call of the custom_gradient function f on `args`, all tensors
    of the active backend, passed positionally, while nothing of pycg
    records or traces and a bridge alone differentiates it (pycg.to_torch
    of a rule): (its output, its tape entry (backward, inputs, outputs,
    params), as the call would record it), for the bridge to ask the
    entry's backward itself, with no tape; None, with nothing run, for
    any other call."""
    s = state()
    if s.active or s.branch is not None:
        return None
    types = backends.active.types
    for a in args:
        if type(a) is not Tensor or type(a._value) not in types:
            return None
    plan = plans.get(len(args))
    if plan is None:
        plan = _plan(f, plans, args, {})
    xs = (args[plan.at],) if plan.at is not None else plan.tensors(args, {})
    result, seen, first, marks = forward(f, args, {})
    output, grad_fn = result if type(result) is tuple and \
        len(result) == 2 and callable(result[1]) else \
        _split_result(plan.name, result)
    if type(output) is not Tensor or xs is None:
        inputs = bind_inputs(plan.name, plan.slots, args, {},
                             plan.signature.names)
        return call_entry(plan.name, inputs, output, grad_fn, seen)
    if first is None or output._id <= first:
        output = Tensor(output._value)   # (not f's own: a new id)
    if seen:
        variables = tuple(seen.values())
        return output, (plan, xs + variables, (output,), (grad_fn, variables))
    return output, (plan, xs, (output,), grad_fn)


# help(pycg.custom_gradient) shows the conventions (this module's tables)
if __doc__ and custom_gradient.__doc__:   # (None under python -OO)
    custom_gradient.__doc__ += DECORATOR_ARGS + textwrap.indent(__doc__, "    ")


def _plan(f, plans, args, kwargs):
    """The plan of a new shape of call (f's signature read once)."""
    first = next(iter(plans.values()), None)
    name = first.name if first else name_of(f)
    signature = first.signature if first else Signature(f)
    plan = Plan(name, signature, len(args),
                 signature.slots(name, len(args), tuple(kwargs)))
    if len(plans) < 64:
        plans[(len(args), *kwargs) if kwargs else len(args)] = plan
    return plan


def _route(decorated, plan, args, kwargs):
    """A call whose arguments are not all tensors of the active backend, or
    made inside traced control flow: (its result, None) where TensorFlow
    differentiates it (one op carrying the rule), else (None, its bound
    inputs)."""
    if state().branch is not None and core_forward.in_branch():
        return core_forward.branch_call(decorated, [
            a for a in structure.flatten((args, kwargs))
            if isinstance(a, Tensor)], args, kwargs), None
    route = _tensorflow_route(args, kwargs)
    if route is not None:
        return core_forward.graph_call(decorated, args, kwargs,
                                       as_pycg=route == "graph"), None
    _refuse_jax_tracers(plan.name, args, kwargs)
    _refuse_tensorflow_values(plan.name, args, kwargs)
    return None, bind_inputs(plan.name, plan.slots, args, kwargs,
                             plan.signature.names)


def _tensorflow_route(args, kwargs):
    """Where TensorFlow, not a pycg tape, differentiates the call, so that
    it must be one TensorFlow op carrying the rule: "values" where
    TensorFlow values arrive while TensorFlow records or traces (a
    tf.GradientTape, a tf.function, a Keras model); "graph" where pycg
    tensors are traced into a graph with no pycg tape recording
    (pycg.function, whose graph a tf.GradientTape may differentiate)."""
    K = backends.active
    if K.name != "tensorflow":
        return None
    leaves = structure.flatten((args, kwargs))
    if any(not isinstance(a, Tensor) and K.foreign(a) for a in leaves):
        return "values" if K.tensorflow_differentiates() else None
    if not state().active and any(isinstance(a, Tensor) and
                              type(a._value) not in K.types for a in leaves):
        return "graph"
    return None


def _refuse_jax_tracers(name, args, kwargs):
    """A TypeError where a JAX tracer arrives as it is (the function called
    under jax.grad, jax.jit or jax.vmap without pycg.to_jax): JAX would
    differentiate the forward and never see the rule."""
    if "jax" in sys.modules and any(
            jax_tracer(a) for a in structure.flatten((args, kwargs))):
        on_jax = backends.active.name == "jax"
        raise user_error(
            TypeError, "{name}: this {api} function was called on a JAX "
            "tracer (inside jax.grad, jax.jit or jax.vmap), where JAX would "
            "differentiate its forward, not its rule; convert it with "
            "{to_jax}({name})" + ("" if on_jax else " and use the jax "
                                  "backend ({set_backend})"),
            name=name, api=Api("custom_gradient"), to_jax=Api("to_jax"),
            set_backend=Api("config.set_backend('jax')"))


def _refuse_tensorflow_values(name, args, kwargs):
    """A TypeError where TensorFlow values arrive while TensorFlow records
    or traces and the backend is not tensorflow (where they would be one
    tf.custom_gradient op): TensorFlow would differentiate the forward and
    never see the rule."""
    if "tensorflow" not in sys.modules or backends.active.name == "tensorflow":
        return
    tf_backend = backends.load("tensorflow")
    if any(not isinstance(a, Tensor) and tf_backend.foreign(a)
           for a in structure.flatten((args, kwargs))) and \
            tf_backend.tensorflow_differentiates():
        raise user_error(
            TypeError, "{name}: this {api} function was called on TensorFlow "
            "values while TensorFlow records (a tf.GradientTape, a "
            "tf.function or a Keras model's step) and pycg's backend is "
            "{backend}, where TensorFlow would differentiate its forward, "
            "not its rule; use the tensorflow backend ({set_backend}), "
            "where such a call is one op carrying the rule, or convert it "
            "with {to_tensorflow}({name}) there", name=name,
            api=Api("custom_gradient"), backend=repr(backends.active.name),
            set_backend=Api("config.set_backend('tensorflow')"),
            to_tensorflow=Api("to_tensorflow"))
