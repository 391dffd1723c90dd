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
=======================================  ====================================
 Forward ops inside ``f`` stay on the
tape, so a ``grad_fn`` written with pycg ops has a true gradient of its own.

Where TensorFlow differentiates instead of pycg (the function called on
TensorFlow values under a ``tf.GradientTape``, in a ``tf.function`` or a
Keras model's step; or inside ``ops.cond``, ``ops.while_loop`` and the other
traced control flow in ``pycg.function``), the call becomes one
``tf.custom_gradient`` op carrying the rule, as ``pycg.to_tensorflow`` makes.
"""
import functools
import textwrap

from pycg import backends, structure
from pycg.core import forward as core_forward
from pycg.core import recorder as core
from pycg.core.recorder import tls
from pycg.custom.bind import Signature, bind_inputs, name_of
from pycg.custom.contracts import (_as_output, _split_result, _wrapped,
                                   check_gradient, match_gradients,
                                   returned_none, split_variables)
from pycg.custom.conventions import (UPSTREAM, VARIABLES,
                                              convention_of)
from pycg.tensor import Tensor


def custom_gradient(f):
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
    plans = {}   # call shape -> its _Plan, decided on its first call

    @functools.wraps(f)
    def decorated(*args, **kwargs):
        plan = plans.get((len(args), *kwargs) if kwargs else len(args))
        if plan is None:
            plan = _plan(f, plans, args, kwargs)
        at, inputs = plan.at, None
        x = None if at is None else args[at] if type(at) is int else \
            kwargs[at]
        active = tls.active
        if type(x) is not Tensor or (tls.branch is not None if active else
                                     type(x._value) not in
                                     backends.active.types):
            routed, inputs = _route(decorated, plan, args, kwargs)
            if inputs is None:   # TensorFlow differentiates: its op
                return routed
            x, args, kwargs = None, inputs.call_args, inputs.call_kwargs
        if not active:   # nothing records: f's output is all that matters
            return _split_result(plan.name, f(*args, **kwargs))[0]
        result, seen, first, marks = core_forward.forward(f, args, kwargs)
        if type(result) is tuple and len(result) == 2 and \
                callable(result[1]):
            output, grad_fn = result
        else:
            try:
                output, grad_fn = _split_result(plan.name, result)
            except BaseException:
                core_forward.drop(marks)
                raise
        if inputs is None and type(output) is Tensor and not seen:
            if first is None or output._id <= first:
                output = Tensor(output._value)   # (not f's own: a new id)
            core.record_one(plan, x, output, grad_fn)   # (if a tape records)
            return output
        if not tls.recording:
            return output
        if inputs is None:
            inputs = bind_inputs(plan.name, plan.slots, args, kwargs)
        return _record(plan.name, inputs, output, grad_fn, seen)

    decorated.__pycg_custom_gradient__ = True
    return decorated


# help(pycg.custom_gradient) shows the conventions (this module's tables)
if __doc__ and custom_gradient.__doc__:   # (None under python -OO)
    custom_gradient.__doc__ += "\n" + textwrap.indent(__doc__, "    ")


def _plan(f, plans, args, kwargs):
    """The plan of a new shape of call (f's signature read once)."""
    first = next(iter(plans.values()), None)
    name = first.name if first else name_of(f)
    signature = first.signature if first else Signature(f)
    plan = _Plan(name, signature,
                 signature.slots(name, len(args), tuple(kwargs)))
    if len(plans) < 64:
        plans[(len(args), *kwargs) if kwargs else len(args)] = plan
    return plan


def _route(decorated, plan, args, kwargs):
    """A call that is not one tensor of the active backend: (its result,
    None) where TensorFlow differentiates it (one op carrying the rule),
    else (None, its bound inputs)."""
    if tls.branch is not None and core_forward.in_branch():
        return core_forward.branch_call(decorated, [
            a for a in structure.flatten((args, kwargs))
            if isinstance(a, Tensor)], args, kwargs), None
    route = _tensorflow_route(args, kwargs)
    if route is not None:
        return core_forward.graph_call(decorated, args, kwargs,
                                       as_pycg=route == "graph"), None
    return None, bind_inputs(plan.name, plan.slots, args, kwargs)


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
    if not tls.active and any(isinstance(a, Tensor) and
                              type(a._value) not in K.types for a in leaves):
        return "graph"
    return None


class _Plan:
    """How one shape of call (positional count, keyword names) of a
    custom_gradient function runs, decided on its first call: which
    parameter each argument binds (`slots`); for a call of one argument,
    where it is (`at`). A call whose one argument is a tensor of the
    active backend and whose output is one tensor, with no variable read,
    needs no binding and is recorded as one entry (plan, (x,), (output,),
    grad_fn), for which the plan is the backward (the loop calls
    `one_input`, see core.UNARY_BACKWARDS); any other call is bound and
    records its own _Backward."""

    broadcast = False   # (read by the backward loop)

    def __init__(self, name, signature, slots):
        self.name, self.signature, self.slots = name, signature, slots
        one = slots[0] if len(slots) == 1 else None
        self.at = one[1] if one else None   # where the one argument is
        self.positional = one is not None and one[2]
        self.labels = [label for label, _, _ in slots]

    def __call__(self, ups, ins, outs, grad_fn, live):
        return (self.one_input(ups[0], outs[0], ins[0], grad_fn),)

    def one_input(self, upstream, output, x, grad_fn):
        try:
            if convention_of(grad_fn) != UPSTREAM:
                returned = grad_fn(upstream)
            elif self.positional:
                returned = grad_fn(x, upstream=upstream)
            else:
                returned = grad_fn(upstream=upstream)
        except Exception as e:
            raise _wrapped(e, f"{self.name}: its gradient function raised "
                              f"{type(e).__name__}: {e}") from e
        if type(returned) is Tensor:   # check_gradient's first test:
            K = backends.active
            g, v = returned._value, x._value
            t = type(g)   # (a float scalar's type is its dtype, shape ())
            if t is type(v) and (t in K.float_types or
                                 t in K.types and K.grad_like(g, v)):
                return returned
        elif returned is None:
            returned_none(self.name, grad_fn)
        inputs = bind_inputs(self.name, self.slots, *(
            ((x,), {}) if type(self.at) is int else ((), {self.at: x})))
        return _Backward(self.name, convention_of(grad_fn), grad_fn, inputs,
                         output, [output], []).read(returned)[0]


def _record(name, inputs, output, grad_fn, seen):
    if type(output) is Tensor:
        outs = [Tensor(output._value)]
    else:
        outs = [Tensor(_as_output(name, o)._value)
                for o in structure.flatten(output)]
    variables = [v for v in seen.values() if v._id not in inputs.ids] \
        if seen else []
    rule = _Backward(name, convention_of(grad_fn), grad_fn, inputs, output,
                     outs, variables)
    core.record_multi(rule, inputs.tensors + variables, outs)
    return outs[0] if type(output) is Tensor else \
        structure.unflatten(output, outs)


class _Backward:
    """The recorded backward of one custom_gradient call (any call but the
    one-tensor case of _Plan)."""

    broadcast = False   # (read by the backward loop)

    def __init__(self, name, convention, grad_fn, inputs, output, outs,
                 variables):
        self.name, self.convention, self.grad_fn = name, convention, grad_fn
        self.inputs, self.output, self.outs = inputs, output, outs
        self.variables = variables

    @property
    def labels(self):
        return self.inputs.labels

    def __call__(self, ups, ins, outs, params, live):
        if any(u is None for u in ups):
            ups = [u if u is not None else core.zeros_like(o)
                   for u, o in zip(ups, self.outs)]
        try:
            returned = self._invoke(ups)
        except Exception as e:
            raise _wrapped(e, f"{self.name}: its gradient function raised "
                              f"{type(e).__name__}: {e}") from e
        return self.read(returned)

    def read(self, returned):
        """The checked gradients, one per input, of what grad_fn returned."""
        if returned is None:
            returned_none(self.name, self.grad_fn)
        if type(returned) is Tensor and len(self.inputs.tensors) == 1 and \
                not self.variables:  # the common case, checked directly
            return [check_gradient(self.name, self.inputs.labels[0],
                                   returned, self.inputs.tensors[0])]
        grads, var_grads = split_variables(self.name, self.convention,
                                           returned, self.variables)
        return match_gradients(self.name, self.inputs, grads, var_grads,
                               self.variables)

    def _invoke(self, ups):
        g = self.grad_fn
        if self.convention == UPSTREAM:
            up = ups[0] if not structure.is_nested(self.output) else \
                structure.unflatten(self.output, ups)
            return g(*self.inputs.positional, upstream=up)
        if self.convention == VARIABLES and self.variables:
            return g(*ups, variables=list(self.variables))
        return g(*ups)


core.UNARY_BACKWARDS.add(_Plan)
