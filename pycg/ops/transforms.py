"""Function transforms with keras.ops names: jvp (forward-mode derivatives)
and vectorize (a function of elements or core blocks, mapped over the
others). Both are built from differentiable ops, so they compose with
GradientTape."""
import re

import numpy as np

from pycg._errors import Op, Shape, user_error
from pycg.core import recorder as core
from pycg.core import backward as core_backward
from pycg.ops._machinery.dispatch import as_tensor
from pycg.ops.creation import ones_like, zeros_like
from pycg.ops.manipulation import broadcast_to, getitem, reshape, stack

__all__ = ("jvp", "vectorize")


def jvp(fun, primals, tangents, has_aux=False):
    """(fun(*primals), the directional derivative along `tangents`), plus
    aux if `has_aux` (fun then returns (output, aux)). Computed as the
    derivative of a VJP with respect to its cotangent, so it needs no
    forward-mode rules.

    Args:
        fun: The function of the primals.
        primals: The point: a tuple or list of inputs.
        tangents: The direction: one tangent per primal.
        has_aux: fun returns (output, aux); aux is passed back undifferentiated.

    Returns:
        A pair (outputs, tangent outputs), or a triple with aux.

    Differs:
        Computed as the derivative of a VJP (no forward rules), so it runs
        through custom gradients too (JAX refuses jvp of a custom_vjp
        function).

    Example:
        >>> from pycg import ops
        >>> out, dout = ops.jvp(ops.sin, (0.0,), (2.0,))
        >>> float(dout)  # cos(0) * 2
        2.0
    """
    if not isinstance(primals, (tuple, list)) or not isinstance(
            tangents, (tuple, list)) or len(primals) != len(tangents):
        raise ValueError("pycg.ops.jvp: primals and tangents must be tuples "
                         "of one length, one tangent per primal")
    xs = [as_tensor(p, "jvp") for p in primals]
    ts = [as_tensor(t, "jvp") for t in tangents]
    for x, t in zip(xs, ts):
        if x.shape != t.shape:
            raise user_error(ValueError, "{op}: a tangent of shape {t} for a "
                             "primal of shape {x}", op=Op("jvp"),
                             t=Shape(t.shape), x=Shape(x.shape))
    # two records straight on the core (ops sit below GradientTape): the
    # inner one differentiates fun, the outer one that VJP in its cotangent
    outer, inner = core.Recorder(), core.Recorder()
    try:   # (each push inside the try that pops it: whole against Ctrl-C)
        core.push(outer)
        try:
            core.push(inner)
            for x in xs:
                inner.track(x)
            res = fun(*xs)
        finally:
            core.pop(inner)
        out, aux = res if has_aux else (res, None)
        flat = list(out) if isinstance(out, (tuple, list)) else [out]
        us = [zeros_like(o) for o in flat]
        for u in us:
            outer.track(u)
        from pycg.custom.decorator import by_value
        with by_value():   # (the VJP's values: as pycg.jvp)
            gs = _gradients(inner, flat, us, xs)
        total = sum(_dot(g, t) for g, t in zip(gs, ts))
    finally:
        core.pop(outer)
    douts = _gradients(outer, [total], [ones_like(total)], us)
    dout = type(out)(douts) if isinstance(out, (tuple, list)) else douts[0]
    return (out, dout, aux) if has_aux else (out, dout)


def _gradients(rec, targets, seeds, sources):
    """Gradients of `targets` (with `seeds`) on record `rec`, zeros where
    a source is unconnected."""
    start = {}
    for t, s in zip(targets, seeds):
        if t._id in rec.ids:
            start[t._id] = s if t._id not in start else start[t._id] + s
    grads = core_backward.backward(rec.entries, start, {x._id for x in sources})
    return [grads.get(x._id) if grads.get(x._id) is not None
            else zeros_like(x) for x in sources]


def _dot(a, b):
    from pycg.ops.reduction import sum
    return sum(a * b)


_CORE = re.compile(r"\(([^()]*)\)")


def _parse(signature):
    try:
        ins, outs = signature.replace(" ", "").split("->")
        return ([tuple(filter(None, d.split(","))) for d in
                 _CORE.findall(ins)],
                [tuple(filter(None, d.split(","))) for d in
                 _CORE.findall(outs)])
    except ValueError:
        raise ValueError(f"pycg.ops.vectorize: signature must look like "
                         f"'(n),(n)->()', got {signature!r}") from None


def vectorize(pyfunc, *, excluded=None, signature=None):
    """pyfunc mapped over the broadcast batch of its tensor arguments
    (elementwise, or over blocks named by a NumPy `signature` such as
    '(n),(n)->()'); arguments in `excluded` pass through unchanged.

    Args:
        pyfunc: The function of scalars (or of blocks, with signature).
        excluded: Positions or names of arguments passed through unchanged.
        signature: A NumPy gufunc signature such as '(n),(n)->()' (None:
            elementwise).

    Returns:
        A function: the vectorized pyfunc.

    Example:
        >>> from pycg import ops
        >>> dot = ops.vectorize(lambda a, b: ops.sum(a * b),
        ...                     signature="(n),(n)->()")
        >>> x = ops.convert_to_tensor([1.0, 2.0, 3.0])
        >>> dot(ops.ones((2, 3)), x).numpy().tolist()
        [6.0, 6.0]
    """
    excluded = set(excluded or ())
    core = _parse(signature) if signature else None

    def mapped(*args):
        idx = [i for i in range(len(args)) if i not in excluded]
        xs = [as_tensor(args[i], "vectorize") for i in idx]
        ranks = [len(c) for c in core[0]] if core else [0] * len(xs)
        if len(ranks) != len(xs):
            raise ValueError(f"pycg.ops.vectorize: signature {signature!r} "
                             f"names {len(ranks)} inputs, got {len(xs)}")
        batch = np.broadcast_shapes(*[x.shape[:x.ndim - r]
                                      for x, r in zip(xs, ranks)])
        xs = [broadcast_to(x, batch + x.shape[x.ndim - r:])
              for x, r in zip(xs, ranks)]
        results = []
        for pos in np.ndindex(batch):
            call = list(args)
            for i, x in zip(idx, xs):
                call[i] = getitem(x, pos) if pos else x
            results.append(pyfunc(*call))
        if isinstance(results[0], (tuple, list)):
            return tuple(_assemble([r[k] for r in results], batch)
                         for k in range(len(results[0])))
        return _assemble(results, batch)
    mapped.__name__ = getattr(pyfunc, "__name__", "vectorized")
    return mapped


def _assemble(results, batch):
    parts = [as_tensor(r, "vectorize") for r in results]
    if not batch:
        return parts[0]
    return reshape(stack(parts), batch + parts[0].shape)
