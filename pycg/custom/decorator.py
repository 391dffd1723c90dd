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
from pycg.core import recorder as core
from pycg.core import forward as core_forward
from pycg.core.recorder import tls
from pycg.core.forward import forward_lean
from pycg.custom.bind import Signature, bind_inputs, name_of
from pycg.custom.contracts import (_as_output, _split_result,
                                         _wrapped, check_gradient,
                                         match_gradients)
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
    state = {"signature": None, "name": None,
             "lean": None}  # decided on the first call

    @functools.wraps(f)
    def decorated(*args, **kwargs):
        lean = state["lean"]
        if lean is not None and lean.single and len(args) == 1 and \
                not kwargs and type(args[0]) is Tensor:
            if not tls.active:   # (one tensor, one parameter; not traced)
                if type(args[0]._value) in backends.active.types:
                    return _split_result(state["name"], f(args[0]))[0]
            elif tls.branch is None:
                out = forward_lean(f, args[0], lean)
                if type(out) is Tensor:
                    return out
                if out is not None:   # f ran: a variable read, or a tree
                    return _after_lean(state, args[0], *out)
        if tls.branch is not None and core_forward.in_branch():
            return core_forward.branch_call(decorated, [
                a for a in structure.flatten((args, kwargs))
                if isinstance(a, Tensor)], args, kwargs)
        route = _tensorflow_route(args, kwargs)
        if route is not None:   # TensorFlow differentiates: its op
            return core_forward.graph_call(decorated, args, kwargs,
                                           as_pycg=route == "graph")
        return _call(f, state, args, kwargs)

    decorated.__pycg_custom_gradient__ = True
    return decorated


# help(pycg.custom_gradient) shows the conventions (this module's tables)
if __doc__ and custom_gradient.__doc__:   # (None under python -OO)
    custom_gradient.__doc__ += "\n" + textwrap.indent(__doc__, "    ")


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


def _call(f, state, args, kwargs):
    if state["signature"] is None:
        state["name"], state["signature"] = name_of(f), Signature(f)
    name = state["name"]
    inputs = bind_inputs(name, state["signature"], args, kwargs)
    if not core.tls.active:  # nothing records: f's output is all that matters
        output, grad_fn = _split_result(
            name, f(*inputs.call_args, **inputs.call_kwargs))
        _decide(state, name)
        return output
    token = core_forward.forward_begin()
    failed = True
    try:
        result = f(*inputs.call_args, **inputs.call_kwargs)
        output, grad_fn = _split_result(name, result)
        failed = False
    finally:
        seen = core_forward.forward_end(token, failed)
    _decide(state, name)
    if not core.is_recording():
        return output
    return _record(name, state, inputs, output, grad_fn, seen)


def _after_lean(state, x, result, seen):
    """f(x) ran under forward_lean, which left its result to this: a
    variable read, or an output that is not one tensor."""
    output, grad_fn = _split_result(state["name"], result)
    inputs = bind_inputs(state["name"], state["signature"], (x,), {})
    return _record(state["name"], state, inputs, output, grad_fn, seen)


def _decide(state, name):
    if state["lean"] is None:
        state["lean"] = _LeanBackward(name, state["signature"])


def _record(name, state, inputs, output, grad_fn, seen):
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
    """The recorded backward of one custom_gradient call."""

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
        if returned is None:
            _returned_none(self.name, self.grad_fn)
        if type(returned) is Tensor and len(self.inputs.tensors) == 1 and \
                not self.variables:  # the common case, checked directly
            return [check_gradient(self.name, self.inputs.labels[0],
                                   returned, self.inputs.tensors[0])]
        grads, var_grads = self._split_variables(returned)
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

    def _split_variables(self, returned):
        if self.convention != VARIABLES or not self.variables:
            return returned, None
        if not isinstance(returned, (tuple, list)) or len(returned) != 2:
            raise TypeError(
                f"{self.name}: grad_fn takes `variables`, so it must return "
                f"a pair (grad_inputs, grad_variables); got "
                f"{type(returned).__name__}")
        grad_inputs, grad_vars = returned
        grad_vars = list(grad_vars) if isinstance(grad_vars, (list, tuple)) \
            else [grad_vars]
        if len(grad_vars) != len(self.variables):
            raise ValueError(
                f"{self.name}: grad_fn returned {len(grad_vars)} variable "
                f"gradients for {len(self.variables)} variables")
        return grad_inputs, dict(zip(map(id, self.variables), grad_vars))


class _LeanBackward:
    """The backward of every lean call of one function (one tensor input x,
    one tensor output, no variables read): the entry's params are that
    call's grad_fn. Same calls and checks as _Backward for that case; the
    backward loop calls `gradient` (see core.UNARY_BACKWARDS)."""

    broadcast = False

    def __init__(self, name, signature):
        self.name, self.signature = name, signature
        simple = signature.simple   # one parameter, one tensor: the lean path
        self.single = simple is not None and len(simple) == 1
        self.label = simple[0] if simple else None
        self.labels = [self.label]

    def __call__(self, ups, ins, outs, grad_fn, live):
        return (self.gradient(ups[0], ins[0], grad_fn),)

    def gradient(self, upstream, x, grad_fn):
        try:
            returned = grad_fn(x, upstream=upstream) if \
                convention_of(grad_fn) == UPSTREAM else grad_fn(upstream)
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
            return check_gradient(self.name, self.label, returned, x)
        if returned is None:
            _returned_none(self.name, grad_fn)
        inputs = bind_inputs(self.name, self.signature, (x,), {})
        return match_gradients(self.name, inputs, returned, None, [])[0]


def _returned_none(name, grad_fn):
    raise TypeError(
        f"{name}: its gradient function {name_of(grad_fn)!r} returned None; "
        f"did you forget `return`? (For no gradient to one input, return "
        f"None in that input's place in a tuple, as in `return (dx, None)`.)")


core.UNARY_BACKWARDS.add(_LeanBackward)
