"""pycg.custom_jvp: a function with its own forward-mode rule, in JAX's API
(jax.custom_jvp: defjvp, defjvps, nondiff_argnums).

A custom_jvp function is a pycg.custom_gradient function underneath: its
forward is f, and its gradient rule is the JVP rule transposed (the VJP of
t -> tangent_out with respect to the tangents, by a tape over the rule), so
that every place a custom gradient goes, a custom_jvp function goes too:
GradientTape, pycg.grad/vjp/jacobian/hessian, pycg.function on every
backend, ops.cond/while_loop/scan, pycg.to_tensorflow/to_jax/to_torch's
reverse mode. pycg.jvp and pycg.jacfwd of a custom_jvp function call its
rule directly, and so does a pycg.jvp of a larger function that calls it
(pycg.core.tangents: the call's tangent is the rule's, linear or not, as
in jax.jvp).
"""
import functools
import inspect
from collections.abc import Callable, Sequence
from typing import Any

from pycg import ops
from pycg.tensor import structure
from pycg.api._jvp_rule import (call_rule, differentiable, known_output,
                                 on_tangents, transpose)
from pycg.custom.decorator import by_value, custom_gradient
from pycg.tensor import Tensor


class custom_jvp:
    """Give ``fun`` a forward-mode rule (jax.custom_jvp).

    Decorate ``fun(*args)``; define its rule with ``@fun.defjvp`` on
    ``fun_jvp(primals, tangents) -> (primal_out, tangent_out)`` (primals and
    tangents are tuples, one entry per argument, each in its argument's
    structure), or with ``fun.defjvps(*per_argument_jvps)``, one
    ``jvp(t, primal_out, *primals)`` per argument (None: no dependence).

    The rule serves both modes: pycg.jvp and pycg.jacfwd use it as J t;
    reverse mode (GradientTape, pycg.grad, pycg.vjp, pycg.function) uses it
    transposed, which needs tangent_out linear in the tangents (as JAX
    requires). What is checked, and how:

    ==================================  ==================================
    the rule returns                    pycg (each a TypeError, JAX's text)
    ==================================  ==================================
    not a pair                          refused, naming rule and function
    halves of different structures      refused
    a tangent of another shape/dtype    refused (a number or array
                                        becomes a tensor of the primal's
                                        dtype; None for an output without
                                        tangent: an integer)
    primal_out unlike fun's output      refused where fun ran too (reverse
    (structure, shapes, dtypes)         mode)
    tangent_out not linear in the       a ValueError wherever the rule is
    tangents                            transposed (reverse mode: tapes,
                                        pycg.grad, pycg.vjp, jacfwd's
                                        linearization): at tangents of ones,
                                        <u, tangent_out> must equal
                                        <J^T u, ones> (an offset or a
                                        power of the tangents breaks it);
                                        checked at every transposition
                                        where values are concrete and real
                                        floats (not inside a traced graph,
                                        not complex, not bfloat16).
                                        pycg.jvp calls the rule as it
                                        is, linear or not (as JAX), of the
                                        function itself or of a larger
                                        function that calls it
    ==================================  ==================================

    Arguments without a tangent (integer tensors, strings, flags,
    functions) get None in ``tangents``. ``nondiff_argnums``: positions
    passed to the rule first, as ``fun_jvp(*nondiff_args, primals,
    tangents)``, with no gradient (functions, static values).

    Transposing a rule costs one call of it under a tape and one backward
    pass over it (about ten times a custom_gradient's backward for a
    scalar rule; bench/jvp.py). In a first-order VJP, the rule's call of
    ``fun`` on its own primals (JAX's idiom ``return f(x), ...``) returns
    the forward's output; a call of a custom_jvp function on the tangents
    (a linear ``f(t)``) is transposed by that function's own ops, as JAX
    transposes it.

    Args:
        fun: The function.
        nondiff_argnums: Positions of arguments that are not
            differentiated.
        nondiff_argnames: The same, by parameter name.

    Example:
    >>> import pycg
    >>> from pycg import ops
    >>> @pycg.custom_jvp
    ... def log1pexp(x):
    ...     return ops.log(1 + ops.exp(x))
    >>> @log1pexp.defjvp
    ... def log1pexp_jvp(primals, tangents):
    ...     (x,), (t,) = primals, tangents
    ...     return log1pexp(x), t * ops.sigmoid(x)
    >>> y, t = pycg.jvp(log1pexp, (100.0,), (1.0,))
    >>> float(t), float(pycg.grad(log1pexp)(100.0))
    (1.0, 1.0)
    """

    def __init__(self, fun: Callable[..., Any],
                 nondiff_argnums: Sequence[int] = (),
                 nondiff_argnames: Sequence[str] = ()) -> None:
        if not callable(fun):
            raise TypeError(f"pycg.custom_jvp: expected a function, got "
                            f"{type(fun).__name__}")
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.nondiff_argnums = tuple(nondiff_argnums) + _positions(
            fun, nondiff_argnames)
        self.jvp: Callable[..., Any] | None = None
        self.__name__ = getattr(fun, "__name__", type(fun).__name__)
        self._recorded = custom_gradient(_forward(self))
        try:
            self._signature: inspect.Signature | None = inspect.signature(
                fun) if not isinstance(fun, functools.partial) else None
        except (TypeError, ValueError):
            self._signature = None
        self._n = _plain_count(self._signature)

    @property
    def rule_name(self) -> str:
        return getattr(self.jvp, "__name__", type(self.jvp).__name__)

    def defjvp(self, jvp: Callable[..., Any],
               symbolic_zeros: bool = False) -> Callable[..., Any]:
        """Define the rule ``jvp(*nondiff_args, primals, tangents) ->
        (primal_out, tangent_out)``; returns it (so it decorates)."""
        if symbolic_zeros:
            raise NotImplementedError(
                f"pycg.custom_jvp({self.__name__}).defjvp: symbolic_zeros="
                f"True is not supported; pycg hands the rule dense zeros")
        if not callable(jvp):
            raise TypeError(f"pycg.custom_jvp({self.__name__}).defjvp: "
                            f"expected a function, got {type(jvp).__name__}")
        self.jvp = jvp
        return jvp

    def defjvps(self, *jvps: Callable[..., Any] | None) -> None:
        """One rule per argument, ``jvp_i(t_i, primal_out, *primals)``, the
        tangent_out the sum of their terms (None: no term)."""
        if self.nondiff_argnums:
            raise TypeError("Can't use ``defjvps`` with ``nondiff_argnums``.")

        def jvp(primals, tangents):
            primal_out = self(*primals)
            total = [ops.zeros_like(p) for p in structure.flatten(primal_out)]
            for rule, t in zip(jvps, tangents):
                if rule is None or t is None:
                    continue
                term = structure.flatten(rule(t, primal_out, *primals))
                total = [a + b for a, b in zip(total, term)]
            return primal_out, structure.unflatten(primal_out, total)
        jvp.__name__ = f"{self.__name__}_jvps"
        self.defjvp(jvp)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self._check_defined()
        args = self._positional(args, kwargs)
        known = known_output(self, args)
        if known is not None:   # (the rule's f(x), in a first-order VJP)
            return known
        if on_tangents(args):   # (a rule's f(t), transposed: f's ops)
            return self.fun(*args)
        with by_value(False):   # (its rule is J itself: kept in pycg.jvp)
            return self._recorded(*args)

    def _check_defined(self):
        if self.jvp is None:
            raise AttributeError(
                f"No JVP defined for custom_jvp function {self.__name__} "
                f"using defjvp. Define it with @{self.__name__}.defjvp (or "
                f"{self.__name__}.defjvps)")

    def _positional(self, args, kwargs):
        """The call's arguments by position (JAX's resolve_kwargs)."""
        if self._signature is None or not kwargs and len(args) == self._n:
            return args   # (the common call: nothing to resolve)
        try:
            bound = self._signature.bind(*args, **kwargs)
            bound.apply_defaults()
            if bound.kwargs:
                raise TypeError(
                    "The following keyword arguments could not be resolved "
                    "to positions: " + ", ".join(bound.kwargs))
        except TypeError as e:
            raise TypeError(
                f"The input arguments to the custom_jvp-decorated function "
                f"{self.__name__} could not be resolved to positional-only "
                f"arguments. Binding failed with the error:\n{e}") from e
        return bound.args

    def _split(self, args):
        """(the nondiff arguments, the others) of a positional call."""
        n = len(args)
        fixed = {i % n for i in self.nondiff_argnums} if n else set()
        return ([args[i] for i in sorted(fixed)],
                tuple(a for i, a in enumerate(args) if i not in fixed),
                fixed)

    def __pycg_jvp_direct__(self, args, tangents):
        """(output, tangent_out) by the rule itself (pycg.jvp, pycg.jacfwd):
        `tangents` one per argument, None (or a tree holding None) where
        there is none; a float leaf without one gets zeros, and an output
        without a tangent (an integer) zeros of its dtype, as pycg.jvp
        gives any function's."""
        self._check_defined()
        fixed, primals, at = self._split(tuple(args))
        ts = tuple(t for i, t in enumerate(tangents) if i not in at)
        flat_t = []
        for p, t in zip(structure.flatten(primals), _leaves(primals, ts)):
            flat_t.append(None if not differentiable(p) else
                          ops.zeros_like(p) if t is None else t)
        p_out, p_leaves, t_leaves = call_rule(
            self, fixed, primals, structure.unflatten(primals, flat_t))
        t_leaves = [ops.zeros_like(p) if t is None and isinstance(p, Tensor)
                    else t for p, t in zip(p_leaves, t_leaves)]
        return (structure.unflatten(p_out, p_leaves),
                structure.unflatten(p_out, t_leaves))

    def __get__(self, instance, owner=None):   # (a method, as JAX's)
        if instance is None:
            return self
        return functools.partial(self, instance)


def _plain_count(signature):
    """How many positional arguments a call gives that binds as it is (all
    of f's parameters, none with a default, no keyword-only); -1 where
    every call is bound."""
    if signature is None:
        return -1
    kinds = [(p.kind, p.default is p.empty)
             for p in signature.parameters.values()]
    plain = (inspect.Parameter.POSITIONAL_ONLY,
             inspect.Parameter.POSITIONAL_OR_KEYWORD)
    if all(k in plain and required for k, required in kinds):
        return len(kinds)
    return -1


def _positions(fun, names):
    """The positions of fun's parameters `names` (nondiff_argnames)."""
    if not names:
        return ()
    params = list(inspect.signature(fun).parameters)
    missing = [n for n in names if n not in params]
    if missing:
        raise ValueError(
            f"pycg.custom_jvp({getattr(fun, '__name__', 'f')}): "
            f"nondiff_argnames {missing} are not among its parameters "
            f"{params}")
    return tuple(params.index(n) for n in names)


def _leaves(primals, tangents):
    """tangents' leaves in primals' structure, a None subtree spread."""
    out = []
    for p, t in zip(primals, tangents):
        n = len(structure.flatten(p))
        out += [None] * n if t is None else structure.flatten(t)
    return out


def _forward(cj):
    """cj's forward as custom_gradient sees it: fun's output, and the rule
    transposed as its gradient (one gradient per argument; None for the
    nondiff ones and for those without a tangent)."""
    def forward(*args):
        out = cj.fun(*args)
        fixed, primals, at = cj._split(args)

        def grad_fn(*dys):
            gs = iter(transpose(cj, fixed, primals, out, list(dys), args))
            grads = tuple(None if i in at else next(gs)
                          for i in range(len(args)))
            return grads[0] if len(grads) == 1 else grads
        grad_fn.__pycg_tangent__ = lambda ins, ts, outs: _by_rule(
            cj, args, ins, ts, outs)
        return out, grad_fn
    forward.__name__ = forward.__qualname__ = cj.__name__
    return forward


def _by_rule(cj, args, ins, ts, outs):
    """The tangents of a recorded call's outputs `outs` by cj's rule (a
    pycg.jvp that carries tangents: pycg.core.tangents), from the tangents
    `ts` of its recorded inputs `ins`, found by identity among the call's
    arguments."""
    by_id = {x._id: t for x, t in zip(ins, ts) if t is not None}
    tangents = [structure.unflatten(a, [
        by_id.get(leaf._id) if isinstance(leaf, Tensor) else None
        for leaf in structure.flatten(a)]) for a in args]
    _, t_out = cj.__pycg_jvp_direct__(args, tangents)
    flat = structure.flatten(t_out)
    if len(flat) != len(outs):
        raise RuntimeError(
            f"pycg.custom_jvp({cj.__name__}): its rule gave {len(flat)} "
            f"tangents for {len(outs)} outputs")
    return flat
