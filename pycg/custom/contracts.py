"""custom_gradient's contracts: what the decorated function returns, and
every gradient that grad_fn returns, checked against the input it belongs
to (see pycg.custom.bind for how a call's inputs are bound)."""
import numbers

import numpy as np

from pycg import backends
from pycg.tensor import structure
from pycg.core import recorder as core
from pycg._errors import Shape, TypeOf, Value, user_error
from pycg.custom.bind import becomes_tensor, name_of
from pycg.custom.calling import VARIABLES
from pycg.custom.kept_dtypes import kept
from pycg.tensor import Tensor, Variable, convert_to_tensor, is_differentiable


def match_gradients(name, inputs, returned, var_grads, variables):
    """One checked gradient per input tensor, then one per variable."""
    n = len(inputs.tensors)
    per_tensor = [None] * n
    var_grads = dict(var_grads or {})
    if isinstance(returned, dict):
        _from_dict(name, inputs, returned, per_tensor, var_grads)
    elif isinstance(returned, (list, tuple)):
        _from_sequence(name, inputs, list(returned), per_tensor)
    elif n == 1:
        per_tensor[0] = returned
    elif n - len(inputs.keyword) == 1:   # (keywords: constants, as in TF)
        per_tensor[_positional(inputs)[0]] = returned
    elif returned is not None or n == 0:
        _count_error(name, inputs, 1)
    out = [check_gradient(name, label, g, x)
           for label, g, x in zip(inputs.labels, per_tensor, inputs.tensors)]
    if variables:
        missing = [v for v in variables if id(v) not in var_grads]
        if missing:
            names = ", ".join(v.name or f"<Variable shape={v.shape}>"
                              for v in missing)
            raise ValueError(
                f"{name}: it reads trainable variable(s) {names} that are not "
                f"among its inputs, and grad_fn gives no gradient for them. "
                f"Either give grad_fn a `variables` parameter, as in "
                f"`def grad_fn(*upstream, variables=None)`, and return "
                f"(grad_inputs, grad_variables); or return a dict with an "
                f"entry keyed by each Variable, e.g. {{'x': dx, v: dv}}")
        out += [check_gradient(name, v.name or "variable", var_grads[id(v)], v)
                for v in variables]
    return out


def _from_dict(name, inputs, returned, per_tensor, var_grads):
    """A dict of gradients, keyed by parameter name or in the structure of
    the one dict input (see the custom_gradient module docstring)."""
    by_label = {label: (value, idx) for label, value, idx in inputs.params}
    plain = {}
    for key, g in returned.items():
        if isinstance(key, Variable):
            var_grads[id(key)] = g
        else:
            plain[key] = g
    by_name = all(k in by_label and _fits(by_label[k][0], g)
                  for k, g in plain.items())
    nested = _the_nested_dict_input(inputs)
    by_structure = nested is not None and \
        structure.same_structure(nested[1], plain)
    if by_name and by_structure and any(
            g is not None for g in plain.values()):
        raise ValueError(
            f"{name}: grad_fn returned a dict that reads two ways: keyed by "
            f"parameter name, and in the structure of input {nested[0]!r}; "
            f"return a tuple instead (one gradient per parameter)")
    if by_structure:
        label, value, idx = nested
        _fill(name, label, value, idx, plain, per_tensor)
        return
    for key, g in plain.items():
        if key not in by_label and g is None and key in inputs.declared:
            continue   # None for a parameter the call did not give
        if key not in by_label:
            hint = "" if nested is None else (
                f", nor a dict in the structure of input {nested[0]!r} "
                f"({_describe(nested[1])})")
            raise ValueError(
                f"{name}: grad_fn returned a gradient for {key!r}, which is "
                f"not a parameter; the parameters are "
                + ", ".join(repr(k) for k in by_label) + hint)
        value, idx = by_label[key]
        _fill(name, key, value, idx, g, per_tensor)


def _fits(value, g):
    if g is None:
        return True
    if structure.is_nested(value):
        return structure.same_structure(value, g)
    return not structure.is_nested(g)


def _the_nested_dict_input(inputs):
    """The only parameter holding tensors when it is a dict, else None."""
    holding = [p for p in inputs.params if p[2]]
    if len(holding) == 1 and isinstance(holding[0][1], dict):
        return holding[0]
    return None


def _fill(name, label, value, idx, g, per_tensor):
    """Put the gradient tree g for one argument into per_tensor."""
    if not structure.is_nested(value):
        if idx:
            per_tensor[idx[0]] = g
        return
    if g is None:
        return
    if not structure.same_structure(value, g):
        raise ValueError(
            f"{name}: gradient for {label!r} must have the structure of "
            f"{label!r} ({_describe(value)}), got {_describe(g)}")
    leaves = structure.flatten(g)
    arg_leaves = structure.flatten(value)
    k = 0
    for leaf, arg in zip(leaves, arg_leaves):
        if becomes_tensor(arg):
            per_tensor[idx[k]] = leaf
            k += 1


def _from_sequence(name, inputs, items, per_tensor):
    params = inputs.params
    if len(items) == len(params) and all(
            not structure.is_nested(v) or g is None or
            structure.same_structure(v, g)
            for (_, v, _), g in zip(params, items)):
        for (label, value, idx), g in zip(params, items):
            _fill(name, label, value, idx, g, per_tensor)
    elif len(items) == len(inputs.tensors):
        per_tensor[:] = items
    elif len(items) == inputs.n_leaves:
        for g, ti in zip(items, inputs.leaf_tensor):
            if ti is not None:
                per_tensor[ti] = g
    elif inputs.keyword and len(items) == len(_positional(inputs)):
        for g, ti in zip(items, _positional(inputs)):
            per_tensor[ti] = g
    else:
        _count_error(name, inputs, len(items))


def _positional(inputs):
    """The tensors not passed by keyword: tf.custom_gradient's inputs,
    where a gradient per keyword argument is not given (keywords are
    constants then)."""
    keyword = set(inputs.keyword)
    return [i for i in range(len(inputs.tensors)) if i not in keyword]


def _count_error(name, inputs, got):
    n = len(inputs.tensors)
    positional = _positional(inputs)
    also = "" if not inputs.keyword else (
        f", or {len(positional)} (one per positional input: "
        + ", ".join(repr(inputs.labels[i]) for i in positional)
        + "; the keyword arguments are then constants, as in TensorFlow)")
    raise ValueError(
        f"{name}: grad_fn returned {got} gradient{'s' * (got != 1)}, "
        f"expected {n} (one per input: "
        + ", ".join(repr(label) for label in inputs.labels) + ")" + also)


def _describe(tree):
    if isinstance(tree, dict):
        return "a dict with keys " + ", ".join(map(repr, tree))
    if isinstance(tree, (list, tuple)):
        return f"a {type(tree).__name__} of length {len(tree)}"
    return f"a {type(tree).__name__}"


def fits(K, g, v):
    """Whether backend value g stands as the gradient of v as it is (one
    type, one float dtype, one shape; a float scalar's type says both)."""
    t = type(g)
    return t is type(v) and (t in K.float_types or
                             t in K.types and K.grad_like(g, v))


def check_gradient(name, label, g, x):
    """g as the gradient of input x: converted, cast to x's dtype, or a
    clear error naming f (`name`) and the input (`label`)."""
    if type(g) is Tensor and fits(backends.active, g._value, x._value):
        return g
    if g is None or not is_differentiable(x.dtype):
        return None
    if isinstance(g, bool) or isinstance(g, str) or not isinstance(
            g, (Tensor, numbers.Number, np.ndarray, np.generic)):
        raise user_error(TypeError, "{name}: gradient for {label} is a "
                         "{type}; expected a tensor, a number or None",
                         name=name, label=Value(label), type=TypeOf(g))
    if not isinstance(g, Tensor):
        if isinstance(g, numbers.Number) and x.shape != ():
            raise user_error(ValueError, "{name}: gradient for {label} is a "
                             "number but {label} has shape {shape}; return "
                             "a tensor of that shape", name=name,
                             label=Value(label), shape=Shape(x.shape))
        g = convert_to_tensor(np.asarray(g), x.dtype)
    if g.shape != x.shape:
        raise user_error(ValueError, "{name}: gradient for {label} has shape "
                         "{got} but {label} has shape {shape}", name=name,
                         label=Value(label), got=Shape(g.shape),
                         shape=Shape(x.shape))
    if g.dtype != x.dtype:
        if not is_differentiable(g.dtype):
            raise TypeError(
                f"{name}: gradient for {label!r} has dtype {g.dtype}, "
                f"expected a floating dtype ({x.dtype})")
        if g.dtype.kind == "c" and np.dtype(x.dtype).kind != "c":
            raise TypeError(
                f"{name}: gradient for {label!r} has complex dtype "
                f"{g.dtype}, but {label!r} is real ({x.dtype}); return a "
                f"real gradient (ops.real(g) if the imaginary part is "
                f"meant to be dropped)")
        if kept(x):   # (the border's framework casts: kept_dtypes.py)
            return g
        g = core.apply("cast", backends.active.cast, (g,),
                       {"dtype": np.dtype(x.dtype)})
    return g


def _split_result(name, result):
    if not isinstance(result, (tuple, list)) or len(result) != 2:
        got = f"a {type(result).__name__}" + (
            f" of length {len(result)}" if isinstance(result, (tuple, list))
            else "")
        raise TypeError(
            f"{name}: a custom_gradient function must return a pair "
            f"(output, grad_fn), got {got}")
    output, grad_fn = result
    if not callable(grad_fn):
        raise TypeError(
            f"{name}: the second element returned must be the gradient "
            f"function grad_fn, a callable; got {type(grad_fn).__name__}")
    return output, grad_fn


def _as_output(name, o):
    if isinstance(o, Tensor):
        return o
    if isinstance(o, (numbers.Number, np.ndarray, np.generic)):
        return convert_to_tensor(o)
    raise TypeError(f"{name}: outputs must be tensors or numbers, got "
                    f"{type(o).__name__}")


def _wrapped(e, message):
    """The same exception type with `message` and `e`'s attributes (an
    RError's R classes), when the type allows it."""
    try:
        new = type(e)(message)
    except Exception:
        return RuntimeError(message)
    new.__dict__.update(vars(e))
    return new


def split_variables(name, convention, returned, variables):
    """(gradients of the inputs, {id(variable): gradient}) of what grad_fn
    returned, by the `variables` convention where it reads variables."""
    if convention != VARIABLES or not variables:
        return returned, None
    if not isinstance(returned, (tuple, list)) or len(returned) != 2:
        raise TypeError(
            f"{name}: grad_fn takes `variables`, so it must return "
            f"a pair (grad_inputs, grad_variables); got "
            f"{type(returned).__name__}")
    grad_inputs, grad_vars = returned
    grad_vars = list(grad_vars) if isinstance(grad_vars, (list, tuple)) \
        else [grad_vars]
    if len(grad_vars) != len(variables):
        raise ValueError(
            f"{name}: grad_fn returned {len(grad_vars)} variable "
            f"gradients for {len(variables)} variables")
    return grad_inputs, dict(zip(map(id, variables), grad_vars))


def returned_none(name, grad_fn):
    raise TypeError(
        f"{name}: its gradient function {name_of(grad_fn)!r} returned None; "
        f"did you forget `return`? (For no gradient to one input, return "
        f"None in that input's place in a tuple, as in `return (dx, None)`.)")
