"""custom_gradient's binding: a call's arguments matched to f's
parameters, with the tensor leaves of each (labels for messages)."""
import inspect

import numpy as np

from pycg import backends
from pycg.tensor import structure
from pycg.tensor import Tensor, convert_to_tensor, is_float
from pycg.tensor.convert import python_float_dtype


def name_of(f):
    return getattr(f, "__name__", None) or type(f).__name__


class Signature:
    """f's signature, and how each shape of call binds to f's parameters:
    `slots`, decided once per shape by pycg.custom_gradient."""

    def __init__(self, f):
        try:
            self.sig = inspect.signature(f)
        except (TypeError, ValueError):
            self.sig = None

    @property
    def names(self):
        """The names of f's parameters (none where f has no signature)."""
        return tuple(self.sig.parameters) if self.sig is not None else ()

    def slots(self, name, n, keywords):
        """For a call of n positional arguments and the keywords named:
        per argument, in f's parameter order, (label, source, positional):
        source indexes the positional arguments or names a keyword;
        positional: whether grad_fn's `upstream` convention passes it
        positionally. A TypeError naming f where the call does not bind."""
        if self.sig is None:
            return [(f"args[{i}]", i, True) for i in range(n)] + \
                [(k, k, False) for k in keywords]
        try:
            bound = self.sig.bind(*map(_Source, range(n)),
                                  **{k: _Source(k) for k in keywords})
        except TypeError as e:
            raise TypeError(f"{name}: {e}") from None
        slots = []
        for pname, p in self.sig.parameters.items():
            if pname not in bound.arguments:
                continue
            value = bound.arguments[pname]
            if p.kind == p.VAR_POSITIONAL:
                slots += [(f"{pname}[{i}]", a.at, True)
                          for i, a in enumerate(value)]
            elif p.kind == p.VAR_KEYWORD:
                slots += [(k, a.at, False) for k, a in value.items()]
            else:
                slots.append((pname, value.at, p.kind != p.KEYWORD_ONLY))
        return slots


class _Source:
    """Where an argument of a call shape comes from (Signature.slots)."""

    __slots__ = ("at",)

    def __init__(self, at):
        self.at = at


class Inputs:
    """One call's arguments: how to call f, and its tensor leaves."""

    __slots__ = ("call_args", "call_kwargs", "positional", "tensors",
                 "labels", "params", "n_leaves", "leaf_tensor", "keyword",
                 "declared")

    def __init__(self):
        self.call_args, self.call_kwargs = [], {}
        self.positional = []
        self.tensors, self.labels = [], []
        self.params = []   # (parameter name, value tree, tensor indices)
        self.n_leaves = 0
        self.leaf_tensor = []  # for each leaf: index into tensors, or None
        self.keyword = []   # indices into tensors of those passed by keyword
        self.declared = ()   # the names of all f's parameters, given or not

    @property
    def ids(self):
        return {t._id for t in self.tensors}


def becomes_tensor(x):
    """Whether a leaf of a call's arguments is a tensor input of the rule:
    a tensor, a Python float, an integer or float array (NumPy's or the
    backend's); strings, ints, flags and None pass through."""
    if isinstance(x, Tensor) or type(x) is float:
        return True
    if isinstance(x, (np.ndarray, np.generic)):
        return x.dtype.kind in "iu" or is_float(x.dtype)
    K = backends.active   # (any other array the backend holds, as NumPy's)
    return type(x) in K.types and (K.dtype_of(x).kind in "iu" or
                                   is_float(K.dtype_of(x)))


def _leaf(x, floats):
    if isinstance(x, Tensor) or not becomes_tensor(x):
        return x
    # (a Python float weakly typed; a NumPy float64 keeps its dtype)
    return convert_to_tensor(x, floats if type(x) is float else None)


def _floats_dtype(args, kwargs):
    """The dtype a Python float among a call's arguments takes: that of
    the arrays beside it (python_float_dtype); None where none is a
    Python float."""
    leaves = structure.flatten((args, kwargs))
    if float not in map(type, leaves):
        return None
    K = backends.active
    return python_float_dtype([
        x.dtype if isinstance(x, (Tensor, np.ndarray, np.generic)) else
        K.dtype_of(x) if type(x) in K.types else None for x in leaves])


def _add(inputs, label, value, floats):
    if isinstance(value, Tensor):
        inputs.leaf_tensor.append(len(inputs.tensors))
        inputs.params.append((label, value, [len(inputs.tensors)]))
        inputs.labels.append(label)
        inputs.tensors.append(value)
        inputs.n_leaves += 1
        return value
    leaves = structure.flatten(value)
    conv, idx = [], []
    for i, leaf in enumerate(leaves):
        t = _leaf(leaf, floats)
        conv.append(t)
        if isinstance(t, Tensor):
            idx.append(len(inputs.tensors))
            inputs.leaf_tensor.append(len(inputs.tensors))
            inputs.labels.append(label if not structure.is_nested(value)
                                 else f"{label}[{i}]")
            inputs.tensors.append(t)
        else:
            inputs.leaf_tensor.append(None)
    inputs.n_leaves += len(leaves)
    new = structure.unflatten(value, conv)
    inputs.params.append((label, value, idx))
    return new


def bind_inputs(name, slots, args, kwargs, declared=()):
    """A call's arguments bound by `slots` (Signature.slots): f is called
    with the arguments as they came, numbers and arrays as tensors (a
    Python float in the dtype of the arrays beside it). `declared`: the
    names of f's parameters (Signature.names)."""
    inputs = Inputs()
    inputs.declared = declared
    floats = _floats_dtype(args, kwargs)
    call_args, call_kwargs = list(args), dict(kwargs)
    for label, at, positional in slots:
        if type(at) is int:
            v = call_args[at] = _add(inputs, label, args[at], floats)
        else:
            first = len(inputs.tensors)
            v = call_kwargs[at] = _add(inputs, label, kwargs[at], floats)
            inputs.keyword += range(first, len(inputs.tensors))
        if positional:
            inputs.positional.append(v)
    inputs.call_args, inputs.call_kwargs = call_args, call_kwargs
    return inputs
