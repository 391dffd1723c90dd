"""custom_gradient's binding: a call's arguments matched to f's
parameters, with the tensor leaves of each (labels for messages)."""
import inspect

import numpy as np

from pycg import structure
from pycg.tensor import Tensor, convert_to_tensor, is_float


def name_of(f):
    return getattr(f, "__name__", None) or type(f).__name__


class Signature:
    """f's signature; `simple` lists the names when every parameter is a
    plain positional one, so a positional call binds without inspect."""

    def __init__(self, f):
        try:
            self.sig = inspect.signature(f)
        except (TypeError, ValueError):
            self.sig = None
        params = self.sig.parameters.values() if self.sig else ()
        self.simple = [p.name for p in params] if self.sig and all(
            p.kind == p.POSITIONAL_OR_KEYWORD and p.default is p.empty
            for p in params) else None


class Inputs:
    """One call's arguments: how to call f, and its tensor leaves."""

    __slots__ = ("call_args", "call_kwargs", "positional", "tensors",
                 "labels", "params", "n_leaves", "leaf_tensor")

    def __init__(self):
        self.call_args, self.call_kwargs = [], {}
        self.positional = []
        self.tensors, self.labels = [], []
        self.params = []   # (parameter name, value tree, tensor indices)
        self.n_leaves = 0
        self.leaf_tensor = []  # for each leaf: index into tensors, or None

    @property
    def ids(self):
        return {t._id for t in self.tensors}


def _leaf(x):
    if isinstance(x, Tensor):
        return x
    if isinstance(x, float) or isinstance(x, (np.ndarray, np.generic)) and (
            x.dtype.kind in "iu" or is_float(x.dtype)):
        return convert_to_tensor(x)
    return x  # strings, ints, flags, None: passed through, no gradient


def _add(inputs, label, value, name):
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
        t = _leaf(leaf)
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


def bind_inputs(name, signature, args, kwargs):
    inputs = Inputs()
    sig = signature.sig
    if signature.simple is not None and not kwargs and \
            len(args) == len(signature.simple):
        for label, a in zip(signature.simple, args):
            v = _add(inputs, label, a, name)
            inputs.call_args.append(v)
        inputs.positional = inputs.call_args
        return inputs
    if sig is None:
        for i, a in enumerate(args):
            v = _add(inputs, f"args[{i}]", a, name)
            inputs.call_args.append(v)
            inputs.positional.append(v)
        for k, a in kwargs.items():
            inputs.call_kwargs[k] = _add(inputs, k, a, name)
        return inputs
    try:
        bound = sig.bind(*args, **kwargs)
    except TypeError as e:
        raise TypeError(f"{name}: {e}") from None
    for pname, p in sig.parameters.items():
        if pname not in bound.arguments:
            continue
        value = bound.arguments[pname]
        if p.kind == p.VAR_POSITIONAL:
            for i, a in enumerate(value):
                v = _add(inputs, f"{pname}[{i}]", a, name)
                inputs.call_args.append(v)
                inputs.positional.append(v)
        elif p.kind == p.VAR_KEYWORD:
            for k, a in value.items():
                inputs.call_kwargs[k] = _add(inputs, k, a, name)
        elif p.kind == p.KEYWORD_ONLY:
            inputs.call_kwargs[pname] = _add(inputs, pname, value, name)
        else:
            v = _add(inputs, pname, value, name)
            inputs.call_args.append(v)
            inputs.positional.append(v)
    return inputs
