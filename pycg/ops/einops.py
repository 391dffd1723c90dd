"""rearrange (keras.ops name): einops-style reshape and transpose, as one
reshape, one transpose and one reshape (all differentiable)."""
import re

import numpy as np

from pycg.ops._dispatch import as_tensor
from pycg.ops.manipulation import reshape, transpose

_AXIS = re.compile(r"\w+|\([^()]*\)")


def _groups(side, pattern):
    tokens = _AXIS.findall(side)
    if "".join(tokens).replace(" ", "") != side.replace(" ", ""):
        raise ValueError(f"pycg.ops.rearrange: cannot read {side.strip()!r} "
                         f"in pattern {pattern!r} (use names and (groups))")
    return [t[1:-1].split() if t.startswith("(") else [t] for t in tokens]


def rearrange(tensor, pattern, **axes_lengths):
    """Reorder, merge and split axes by an einops pattern.

    >>> from pycg import ops
    >>> x = ops.zeros((2, 3, 4))
    >>> ops.rearrange(x, "b h w -> h (b w)").shape
    (3, 8)
    >>> ops.rearrange(x, "b h (w1 w) -> (b w1) h w", w1=2).shape
    (4, 3, 2)
    """
    x = as_tensor(tensor, "rearrange")
    if pattern.count("->") != 1:
        raise ValueError(f"pycg.ops.rearrange: pattern must have one '->', "
                         f"got {pattern!r}")
    left, right = pattern.split("->")
    ins, outs = _groups(left, pattern), _groups(right, pattern)
    if len(ins) != x.ndim:
        raise ValueError(f"pycg.ops.rearrange: pattern {pattern!r} names "
                         f"{len(ins)} axes, the tensor has shape {x.shape}")
    sizes = {k: int(v) for k, v in axes_lengths.items()}
    for group, n in zip(ins, x.shape):
        unknown = [a for a in group if a not in sizes]
        known = int(np.prod([sizes[a] for a in group if a in sizes]))
        if len(unknown) > 1:
            raise ValueError(f"pycg.ops.rearrange: pass the lengths of all "
                             f"but one of {unknown} as keyword arguments")
        if unknown:
            sizes[unknown[0]] = n // known if known else 0
        if int(np.prod([sizes[a] for a in group])) != n:
            raise ValueError(f"pycg.ops.rearrange: axes {group} of lengths "
                             f"{[sizes[a] for a in group]} do not make an "
                             f"axis of length {n}")
    flat_in = [a for g in ins for a in g]
    flat_out = [a for g in outs for a in g]
    if sorted(flat_in) != sorted(flat_out):
        raise ValueError(f"pycg.ops.rearrange: the two sides of {pattern!r} "
                         f"name different axes: {flat_in} and {flat_out}")
    x = reshape(x, [sizes[a] for a in flat_in])
    perm = [flat_in.index(a) for a in flat_out]
    if perm != sorted(perm):
        x = transpose(x, perm)
    return reshape(x, [int(np.prod([sizes[a] for a in g])) for g in outs])
