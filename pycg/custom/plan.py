"""A custom_gradient function's call plan (one per shape of call: which
parameter each argument binds) and the backward of its tape entries: the
plan itself where every argument is a tensor, else the call's _Backward
(how grad_fn is called, and what it returns read, for any call)."""
from pycg import backends
from pycg.tensor import structure
from pycg.core import recorder as core
from pycg.custom.bind import bind_inputs
from pycg.custom.contracts import (_as_output, _wrapped, fits,
                                   match_gradients, returned_none,
                                   split_variables)
from pycg.custom.calling import (TENSORFLOW, UPSTREAM, VARIABLES,
                                     convention_of)
from pycg.tensor import Tensor


class Plan:
    """How one shape of call (positional count, keyword names) of a
    custom_gradient function runs, decided on its first call: which
    parameter each argument binds (`slots`). A call whose arguments are
    all tensors of the active backend, with one tensor output, needs no
    binding: it is recorded as one entry (plan, its tensors, (output,),
    grad_fn) whose backward is the plan (the loop calls `one_input` for
    one tensor, see core.UNARY_BACKWARDS); where it read variables, they
    follow its tensors and params is (grad_fn, the variables). Any other
    call is bound and records its own _Backward."""

    broadcast = elementwise = False   # (read by the backward loop)

    def __init__(self, name, signature, n, slots):
        self.name, self.signature, self.n, self.slots = name, signature, n, \
            slots
        self.ats = tuple(at for _, at, _ in slots)   # where each argument is
        self.at = self.ats[0] if len(slots) == 1 else None
        self.in_order = self.ats == tuple(range(n))   # f(*args), in order
        self.positional = [i for i, s in enumerate(slots) if s[2]]
        self.labels = [label for label, _, _ in slots]

    def tensors(self, args, kwargs):
        """The arguments of a call of several, in f's parameter order, where
        all are tensors of the active backend; else None."""
        xs = args if self.in_order else tuple([
            args[at] if type(at) is int else kwargs[at] for at in self.ats])
        types = backends.active.types
        for x in xs:
            if type(x) is not Tensor or type(x._value) not in types:
                return None
        return xs or None

    def __call__(self, ups, ins, outs, params, live):
        if len(ins) == 1:   # (params: grad_fn)
            return (self.one_input(ups[0], outs[0], ins[0], params, True),)
        if type(params) is tuple:   # (grad_fn, the variables it read)
            grad_fn, variables = params
        else:
            grad_fn, variables = params, ()
        convention = convention_of(grad_fn)
        try:   # (the plain call inline: the hot case)
            returned = grad_fn(ups[0]) if convention == TENSORFLOW else \
                self._returned(grad_fn, convention, ups[0], ins, variables)
        except Exception as e:
            raise _raised(self.name, e) from e
        grads = returned if type(returned) is tuple and not variables else \
            _paired(returned, len(ins), len(variables)) if \
            variables and convention == VARIABLES else None
        if grads is not None and len(grads) == len(ins) and \
                _all_stand(grads, ins):
            return grads
        return self._read(grad_fn, returned, ins[:len(ins) - len(variables)],
                          outs[0], list(variables), convention)

    def one_input(self, upstream, output, x, grad_fn, direct_ok):
        convention = convention_of(grad_fn)
        try:   # (the plain call inline: a call less, 2% of the whole)
            returned = grad_fn(upstream) if convention == TENSORFLOW else \
                self._returned(grad_fn, convention, upstream, (x,), ())
        except Exception as e:
            raise _raised(self.name, e) from e
        if type(returned) is Tensor and \
                fits(backends.active, returned._value, x._value):
            return returned
        return self._read(grad_fn, returned, (x,), output)[0]

    def _returned(self, grad_fn, convention, upstream, ins, variables):
        """What grad_fn returns, called by its convention (the caller
        names what it raises)."""
        if convention == UPSTREAM:
            return grad_fn(*[ins[i] for i in self.positional],
                           upstream=upstream)
        if variables and convention == VARIABLES:
            return grad_fn(upstream, variables=list(variables))
        return grad_fn(upstream)

    def _read(self, grad_fn, returned, ins, output, variables=(),
              convention=None):
        """What grad_fn returned, checked and read as for any call."""
        if returned is None:
            returned_none(self.name, grad_fn)
        args, kwargs = [None] * self.n, {}
        for at, x in zip(self.ats, ins):
            if type(at) is int:
                args[at] = x
            else:
                kwargs[at] = x
        inputs = bind_inputs(self.name, self.slots, args, kwargs,
                             self.signature.names)
        return _Backward(self.name, convention or convention_of(grad_fn),
                         grad_fn, inputs, output, [output],
                         list(variables)).read(returned)


def _raised(name, e):
    """What grad_fn raised (`e`), as raised by f (`name`)."""
    return _wrapped(e, f"{name}: its gradient function raised "
                       f"{type(e).__name__}: {e}")


def _all_stand(grads, ins):
    """Whether each of grads is None or stands as its input's gradient as
    it is."""
    K = backends.active
    for g, x in zip(grads, ins):
        if g is not None and (type(g) is not Tensor or not fits(
                K, g._value, x._value)):
            return False
    return True


def _paired(returned, n, n_variables):
    """The gradients of a call that read variables (its last inputs) where
    grad_fn returned TensorFlow's pair (input gradients, variable
    gradients), as one list; else None."""
    if type(returned) not in (tuple, list) or len(returned) != 2 or \
            type(returned[1]) not in (tuple, list):
        return None
    given = returned[0]
    grads = [given] if n - n_variables == 1 else list(given) if \
        type(given) in (tuple, list) else []
    return grads + list(returned[1])   # (a variable read: a float, trainable)


def record_call(name, inputs, output, grad_fn, seen):
    result, entry = call_entry(name, inputs, output, grad_fn, seen)
    core.record_multi(*entry[:3])
    return result


def call_entry(name, inputs, output, grad_fn, seen):
    """(the output of a bound call, as recorded; its tape entry)."""
    if type(output) is Tensor:
        outs = [Tensor(output._value)]
    else:
        outs = [Tensor(_as_output(name, o)._value)
                for o in structure.flatten(output)]
    variables = [v for v in seen.values() if v._id not in inputs.ids] \
        if seen else []
    rule = _Backward(name, convention_of(grad_fn), grad_fn, inputs, output,
                     outs, variables)
    return outs[0] if type(output) is Tensor else \
        structure.unflatten(output, outs), \
        (rule, inputs.tensors + variables, outs, None)


class _Backward:
    """The recorded backward of one custom_gradient call (any call but the
    one-tensor case of Plan)."""

    broadcast = elementwise = False   # (read by the backward loop)

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
            raise _raised(self.name, e) from e
        return self.read(returned)

    def read(self, returned):
        """The checked gradients, one per input, of what grad_fn returned."""
        if returned is None:
            returned_none(self.name, self.grad_fn)
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


core.UNARY_BACKWARDS.add(Plan)
