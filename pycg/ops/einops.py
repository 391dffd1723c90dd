"""rearrange (keras.ops name): einops-style reshape and transpose, as one
reshape, one transpose and one reshape (all differentiable)."""
import re

import numpy as np

from pycg._errors import Arg, Op, Shape, Value, user_error
from pycg.ops._machinery.dispatch import as_tensor
from pycg.ops.manipulation import reshape, transpose

__all__ = ("rearrange",)

_AXIS = re.compile(r"\w+|\([^()]*\)")


def _error(template, pattern, **facts):
    """A ValueError of rearrange about its `pattern` argument."""
    return user_error(ValueError, "{op}: " + template, op=Op("rearrange"),
                      arg=Arg("pattern"), pattern=Value(pattern), **facts)


def _groups(side, pattern):
    tokens = _AXIS.findall(side)
    if "".join(tokens).replace(" ", "") != side.replace(" ", ""):
        raise _error("cannot read {side} in {arg} {pattern} (use names and "
                     "(groups))", side=Value(side.strip()), pattern=pattern)
    return [t[1:-1].split() if t.startswith("(") else [t] for t in tokens]


def rearrange(tensor, pattern, **axes_lengths):
    """Reorder, merge and split axes by an einops pattern.

    Args:
        tensor: The input tensor.
        pattern: An einops pattern, 'b h w -> h (b w)'.
        **axes_lengths: The lengths of axes that the pattern splits, by name
            (w1=2).

    Returns:
        A tensor of tensor's dtype with the axes the pattern names on its right
        side.

    Example:
        >>> from pycg import ops
        >>> x = ops.zeros((2, 3, 4))
        >>> ops.rearrange(x, "b h w -> h (b w)").shape
        (3, 8)
        >>> ops.rearrange(x, "b h (w1 w) -> (b w1) h w", w1=2).shape
        (4, 3, 2)
    """
    x = as_tensor(tensor, "rearrange")
    if pattern.count("->") != 1:
        raise _error("{arg} must have one '->', got {pattern}",
                     pattern=pattern)
    left, right = pattern.split("->")
    ins, outs = _groups(left, pattern), _groups(right, pattern)
    if len(ins) != x.ndim:
        raise _error("{arg} {pattern} names {n} axes, the tensor has shape "
                     "{shape}", pattern=pattern, n=len(ins),
                     shape=Shape(x.shape))
    sizes = {k: int(v) for k, v in axes_lengths.items()}
    for group, n in zip(ins, x.shape):
        unknown = [a for a in group if a not in sizes]
        known = int(np.prod([sizes[a] for a in group if a in sizes]))
        if len(unknown) > 1:
            raise _error("pass the lengths of all but one of {unknown} by "
                         "name", pattern, unknown=Value(unknown))
        if unknown:
            sizes[unknown[0]] = n // known if known else 0
        if int(np.prod([sizes[a] for a in group])) != n:
            raise _error("axes {group} of lengths {lengths} do not make an "
                         "axis of length {n}", pattern, group=Value(group), n=n,
                         lengths=Value([sizes[a] for a in group]))
    flat_in = [a for g in ins for a in g]
    flat_out = [a for g in outs for a in g]
    if sorted(flat_in) != sorted(flat_out):
        raise _error("the two sides of {pattern} name different axes: "
                     "{left} and {right}", pattern=pattern,
                     left=Value(flat_in), right=Value(flat_out))
    x = reshape(x, [sizes[a] for a in flat_in])
    perm = [flat_in.index(a) for a in flat_out]
    if perm != sorted(perm):
        x = transpose(x, perm)
    return reshape(x, [int(np.prod([sizes[a] for a in g])) for g in outs])
