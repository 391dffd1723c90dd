"""Forward mode in the JAX manner: jvp, one pass of f carrying tangents
beside the primals (pycg.core.tangents: each op's tangent rule, a
custom_jvp call's rule, a custom_gradient rule's VJP transposed; a
custom_jvp function's own rule where f is one), and jacfwd, one
linearization (a VJP and its transpose, the double-VJP trick) and a
backward pass of it per input element, in jacobian's layout."""
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from pycg import ops
from pycg.tensor import structure
from pycg.api._docs import documented
from pycg.api.functional import (_as_tensor, _assemble, _diff_arg, _name,
                                 _prepare, _skeleton, _split_aux)
from pycg.api.tape import GradientTape
from pycg.core.recorder import pop, push
from pycg.core.tangents import ForwardTrace
from pycg.custom.decorator import by_value
from pycg.tensor import convert_to_tensor, is_differentiable


@documented("f", "has_aux")
def jvp(f: Callable[..., Any], primals: Sequence[Any],
        tangents: Sequence[Any], has_aux: bool = False) -> tuple[Any, ...]:
    """(f(*primals), J @ tangents): forward mode, f run once with each
    tensor's tangent carried beside it (jax.jvp). Each op brings its
    tangent rule; a custom_jvp call its rule as it stands; a
    custom_gradient rule, and any op without a tangent rule, its VJP
    transposed where it runs (its linearisation at a zero gradient).

    Args:
        primals: The point: a tuple or list of f's arguments.
        tangents: The direction: the structure, shapes of primals.

    Returns:
        (output, tangent_out), or (output, tangent_out, aux) with has_aux.

    Example:
    >>> import pycg
    >>> y, t = pycg.jvp(lambda x: x * x, (3.0,), (1.0,))
    >>> float(y), float(t)
    (9.0, 6.0)
    """
    who = f"pycg.jvp({_name(f)})"
    if not isinstance(primals, (tuple, list)) or \
            not isinstance(tangents, (tuple, list)):
        raise TypeError(f"{who}: primals and tangents must be tuples or "
                        f"lists, got {type(primals).__name__} and "
                        f"{type(tangents).__name__}")
    if not structure.same_structure(tuple(primals), tuple(tangents)):
        raise TypeError(
            f"{who}: primals and tangents must have the same structure; "
            f"got primals {_skeleton(primals)} and tangents "
            f"{_skeleton(tangents)} (* is a leaf: a tensor, array or "
            f"number)")
    xs = [_diff_arg(p, who, i) for i, p in enumerate(primals)]
    flat_x = structure.flatten(xs)
    ts = [convert_to_tensor(t, x.dtype)
          for t, x in zip(structure.flatten(tangents), flat_x)]
    for t, x in zip(ts, flat_x):
        if t.shape != x.shape:
            raise ValueError(f"{who}: a tangent has shape {t.shape} but its "
                             f"primal has shape {x.shape}")
    direct = getattr(f, "__pycg_jvp_direct__", None)
    if direct is not None and not has_aux:   # (a custom_jvp: its rule)
        return direct(xs, structure.unflatten(xs, ts))
    out, aux, touts = _carried(f, xs, flat_x, ts, has_aux, who)
    result = (out, structure.unflatten(out, touts))
    return result + (aux,) if has_aux else result


def _carried(f, xs, flat_x, ts, has_aux, who):
    """(f(*xs), aux, the flat tangents of its output): f run once, each op
    carrying its outputs' tangents beside them (pycg.core.tangents)."""
    trace = ForwardTrace()
    for x, t in zip(flat_x, ts):
        trace.seed(x, t)
    try:
        push(trace)
        out, aux = _split_aux(f(*xs), has_aux, who)
    finally:
        pop(trace)
    flat = [_as_tensor(y) for y in structure.flatten(out)]
    return structure.unflatten(out, flat), aux, [trace.tangent(y)
                                                 for y in flat]


def _linearize(f, xs, has_aux, who):
    """(f(*xs), aux, apply): apply(flat tangents) is the flat J t, the
    derivative of one VJP in its cotangent (that VJP kept on a persistent
    tape, so that jacfwd's columns share one forward and one VJP: a
    backward pass each)."""
    flat_x = structure.flatten(xs)
    with GradientTape(persistent=True) as outer:
        with GradientTape() as inner:
            inner.watch(flat_x)
            out, aux = _split_aux(f(*xs), has_aux, who)
        flat = [_as_tensor(y) for y in structure.flatten(out)]
        us = [ops.zeros_like(y) for y in flat]
        outer.watch([u for u in us if is_differentiable(u.dtype)])
        with by_value():   # (the VJP's values, transposed: not a rule's
            # own rule for its gradient, nested custom gradients)
            gs = inner.gradient(flat, flat_x, output_gradients=us)

    def apply(ts):
        pairs = [(g, t) for g, t in zip(gs, ts) if g is not None]
        if not pairs:
            return [ops.zeros_like(y) for y in flat]
        return outer.gradient([g for g, _ in pairs], us,
                              output_gradients=[t for _, t in pairs],
                              unconnected_gradients="zero")
    return structure.unflatten(out, flat), aux, apply


@documented("f", "argnums", "has_aux")
def jacfwd(f: Callable[..., Any], argnums: int | Sequence[int] = 0,
           has_aux: bool = False) -> Callable[..., Any]:
    """The Jacobian by forward mode: f and one VJP of it once, then the
    VJP's derivative along each input element (a backward pass each; a
    custom_jvp f's rule once per element); the same layout as jacobian
    (pytrees in and out) (jax.jacfwd).

    Args:

    Returns:
        A function of f's arguments returning the Jacobian, or
        (jacobian, aux) with has_aux.
    """
    who = f"pycg.jacfwd({_name(f)})"

    def wrapped(*args, **kwargs):
        args, nums, sources = _prepare(args, argnums, who)

        def at(*srcs):
            full = list(args)
            for i, s in zip(nums, srcs):
                full[i] = s
            return f(*full, **kwargs)
        _direct(at, f, args, nums, kwargs)
        flat_src = structure.flatten(sources)
        out, aux, column = _columns(at, sources, has_aux, who)
        blocks = []
        for j, s in enumerate(flat_src):
            cols = []
            for i in range(s.size):
                basis = np.zeros(s.size, dtype=s.dtype)
                basis[i] = 1
                tangents = [ops.zeros_like(x) for x in flat_src]
                tangents[j] = convert_to_tensor(basis.reshape(s.shape))
                out, aux, col = column(tangents, out, aux)
                cols.append(col)
            blocks.append([_block(ops.stack([c[k] for c in cols], axis=-1),
                                  s) for k in range(len(cols[0]))])
        per_leaf = [[b[k] for b in blocks] for k in range(len(blocks[0]))]
        jac = _assemble(out, per_leaf, argnums, sources)
        return (jac, aux) if has_aux else jac
    return wrapped


def _columns(at, sources, has_aux, who):
    """(out, aux, column): column(flat tangents, out, aux) -> (out, aux,
    the flat J t): a custom_jvp's rule called for each (pycg.jvp's direct
    path), else one linearization whose derivative each column asks."""
    if getattr(at, "__pycg_jvp_direct__", None) is not None:
        def by_rule(ts, out, aux):
            res = jvp(at, sources, structure.unflatten(sources, ts), has_aux)
            return res[0], res[2] if has_aux else None, structure.flatten(
                res[1])
        return None, None, by_rule
    out, aux, apply = _linearize(at, sources, has_aux, who)
    return out, aux, lambda ts, o, a: (o, a, apply(ts))


def _direct(at, f, args, nums, kwargs):
    """`at` (f of the sources) calls a custom_jvp f's rule directly in
    jvp, the other arguments with no tangent."""
    direct = getattr(f, "__pycg_jvp_direct__", None)
    if direct is None or kwargs:
        return

    def at_direct(srcs, tangents):
        full, full_t = list(args), [None] * len(args)
        for i, s, t in zip(nums, srcs, tangents):
            full[i], full_t[i] = s, t
        return direct(full, full_t)
    at.__pycg_jvp_direct__ = at_direct


def _block(stacked, s):
    return ops.reshape(stacked, stacked.shape[:-1] + s.shape)
