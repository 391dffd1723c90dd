"""A linear map with its own transpose, as a JAX primitive: the one piece
of JAX's extension API pycg.to_jax's forward rule uses, in one place.

`linear(forward, transpose, res, lin)` is `forward(*res, *lin)`, linear
in `lin`; JAX's reverse mode transposes it by calling
`transpose(*res, *cts)` (pycg's VJP with the user's rule, exactly, even
a rule that is not linear in its upstream gradient), and the transpose of
that is `forward` again. JAX's own ``jax.custom_derivatives.linear_call``
does the first order but has no batching rule (jax.jacfwd, jax.hessian,
jax.vmap of jax.jvp fail) and refuses a tangent of its residuals (second
order: jax.hessian is jacfwd of jacrev), so pycg keeps its own primitive
with the rules:

- jvp: the residuals' tangents go through JAX's derivative of the map in
  its residuals (`forward`'s or `transpose`'s own ops: the rule's own
  second derivative), the linear inputs' through the primitive again;
- transpose: the primitive with `forward` and `transpose` swapped;
- batching: the batched arguments moved to axis 0, the linear ones
  broadcast there, both maps vmapped;
- lowering: the map itself (jit).

It reads jax.extend.core.Primitive and the rule tables of
jax.interpreters.ad, batching and mlir: a JAX that moves them fails here,
loudly, by name, and so does tests/test_to_jax_linear_call.py."""
import sys
import threading

_API = ("jax.extend.core.Primitive, jax.interpreters.ad (primitive_jvps, "
        "primitive_transposes, Zero, is_undefined_primal), "
        "jax.interpreters.batching.primitive_batchers, "
        "jax.interpreters.mlir (register_lowering, lower_fun)")

_PRIMITIVE = []   # [the primitive], made on the first forward rule
_LOCK = threading.Lock()   # (held while it is made: one primitive)


def linear(forward, transpose, res, lin, out_avals):
    """forward(*res, *lin) (a list of arrays of `out_avals`: (shape, dtype)
    pairs), whose transpose in `lin` is transpose(*res, *cts). (The shapes
    are given, not found by tracing the maps: a rule may branch in Python
    on its inputs' values, which an abstract trace cannot.)"""
    p, jnp = _primitive(), sys.modules["jax"].numpy
    res, lin = [jnp.asarray(a) for a in res], [jnp.asarray(a) for a in lin]
    return p.bind(*res, *lin, forward=forward, transpose=transpose,
                  num_res=len(res), out_avals=_avals(out_avals))


def _avals(pairs):
    import numpy as np
    return tuple((tuple(int(n) for n in s), np.dtype(d)) for s, d in pairs)


def _primitive():
    if not _PRIMITIVE:
        with _LOCK:
            if not _PRIMITIVE:
                _PRIMITIVE.append(_register())
    return _PRIMITIVE[0]


def _jax_api():
    jax = sys.modules["jax"]
    try:
        from jax.extend.core import Primitive
        from jax.interpreters import ad, batching, mlir
        tables = (ad.primitive_jvps, ad.primitive_transposes, ad.Zero,
                  ad.is_undefined_primal, batching.primitive_batchers,
                  mlir.register_lowering,
                  mlir.lower_fun)
    except (ImportError, AttributeError) as e:
        raise RuntimeError(
            f"pycg.to_jax: this JAX ({jax.__version__}) lacks part of "
            f"{_API} ({e}), which pycg.to_jax's forward mode (jax.jvp, "
            f"jax.jacfwd, jax.hessian of a pycg rule) registers its linear "
            f"map with; pycg needs a JAX that has them (0.4.30 to 0.10 "
            f"do): install one, or report the JAX version to pycg") \
            from None
    return jax, Primitive, ad, batching, mlir, tables


def _register():
    jax, Primitive, ad, batching, mlir, _ = _jax_api()
    p = Primitive("pycg_linear_map")
    p.multiple_results = True

    def impl(*args, forward, transpose, num_res, out_avals):
        return list(forward(*map(jax.numpy.asarray, args)))

    def abstract(*avals, forward, transpose, num_res, out_avals):
        return [jax.core.ShapedArray(s, d) for s, d in out_avals]

    p.def_impl(impl)
    p.def_abstract_eval(abstract)
    ad.primitive_jvps[p] = _jvp_rule(jax, p, ad)
    ad.primitive_transposes[p] = _transpose_rule(jax, p, ad)
    batching.primitive_batchers[p] = _batch_rule(jax, p, batching)
    mlir.register_lowering(p, mlir.lower_fun(impl, multiple_results=True))
    return p


def _jvp_rule(jax, p, ad):
    def jvp(primals, tangents, *, forward, transpose, num_res, out_avals):
        params = dict(forward=forward, transpose=transpose, num_res=num_res,
                      out_avals=out_avals)
        res, lin = primals[:num_res], primals[num_res:]
        dres, dlin = tangents[:num_res], tangents[num_res:]
        out = p.bind(*primals, **params)
        dlin = [jax.numpy.zeros_like(x) if type(t) is ad.Zero
                else t for x, t in zip(lin, dlin)]
        tout = p.bind(*res, *dlin, **params)
        moving = [i for i, t in enumerate(dres) if type(t) is not ad.Zero]
        if moving:   # (the map's own derivative in its residuals)
            def of_res(*m):
                full = list(res)
                for i, v in zip(moving, m):
                    full[i] = v
                return list(forward(*full, *lin))
            extra = jax.jvp(of_res, [res[i] for i in moving],
                            [dres[i] for i in moving])[1]
            tout = [a + b for a, b in zip(tout, extra)]
        return out, tout
    return jvp


def _transpose_rule(jax, p, ad):
    def transpose_rule(cts, *args, forward, transpose, num_res, out_avals):
        res, lin = args[:num_res], args[num_res:]
        if any(ad.is_undefined_primal(r) for r in res):
            raise NotImplementedError(
                "pycg.to_jax: a transpose in the residuals of the rule's "
                "linear map (the rule's inputs)")
        cts = [jax.numpy.zeros(s, d) if type(c) is ad.Zero else c
               for c, (s, d) in zip(cts, out_avals)]
        lin_avals = _avals((x.aval.shape, x.aval.dtype) for x in lin)
        got = p.bind(*res, *cts, forward=transpose, transpose=forward,
                     num_res=num_res, out_avals=lin_avals)
        return [None] * num_res + list(got)
    return transpose_rule


def _batch_rule(jax, p, batching):
    def batch(args, dims, *, forward, transpose, num_res, out_avals):
        size = next(a.shape[d] for a, d in zip(args, dims)
                    if d is not None)
        res, lin = list(args[:num_res]), list(args[num_res:])
        rdims = [None if d is None else 0 for d in
                 dims[:num_res]]
        res = [a if d is None else jax.numpy.moveaxis(
            a, d, 0) for a, d in zip(res, dims[:num_res])]
        lin = [jax.numpy.broadcast_to(a, (size,) + jax.numpy.shape(a))
               if d is None else jax.numpy.moveaxis(a, d, 0)
               for a, d in zip(lin, dims[num_res:])]
        bf = _vmapped(jax, forward, rdims)
        bt = _vmapped(jax, transpose, rdims)
        out = p.bind(*res, *lin, forward=bf, transpose=bt, num_res=num_res,
                     out_avals=tuple(((size,) + s, d) for s, d in out_avals))
        return out, [0] * len(out)
    return batch


def _vmapped(jax, fun, rdims):
    """fun over a batch: the residuals' axes `rdims`, every linear argument
    (the tangents, or the cotangents once transposed: as many as the map's
    outputs) batched on axis 0."""
    def batched(*args):
        axes = list(rdims) + [0] * (len(args) - len(rdims))
        return list(jax.vmap(lambda *a: list(fun(*a)), in_axes=axes,
                             out_axes=0)(*args))
    return batched
