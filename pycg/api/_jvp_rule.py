"""A custom_jvp rule called and checked (JAX's contracts, JAX's messages),
and transposed for reverse mode: the VJP of the linear map
t -> tangent_out, with the check that the map is linear."""
import contextlib
import threading

import numpy as np

from pycg import ops
from pycg.tensor import structure
from pycg.api.tape import GradientTape
from pycg.core.recorder import state
from pycg.tensor import Tensor, convert_to_tensor, is_differentiable


_tangent_tapes = threading.local()   # .stack: the tapes of transpose()


def on_tangents(args):
    """Whether a custom_jvp call's arguments hold a tangent of a rule being
    transposed (a rule that calls a custom_jvp function on its tangents,
    as `f(t)` for a linear f): such a call is recorded by the function's
    own ops, which are transposed, as JAX transposes a custom_jvp call on
    linear values (its rule again would transpose without end)."""
    stack = getattr(_tangent_tapes, "stack", None)
    if not stack:
        return False
    ids = stack[-1]._rec.ids
    return any(isinstance(a, Tensor) and a._id in ids
               for a in structure.flatten(args))


def known_output(cj, args):
    """fun's output where the rule being transposed, with nothing else
    recording, calls its own function on the very arguments of the call
    (JAX's idiom `return f(x), ...`): the forward's output, not computed
    again; else None."""
    memo = getattr(_tangent_tapes, "memo", None)
    if memo is None or memo[0] is not cj or len(args) != len(memo[1]):
        return None
    if all(a is b for a, b in zip(args, memo[1])):
        return memo[2]
    return None


@contextlib.contextmanager
def _tangents_watched_by(tape, memo):
    stack = _tangent_tapes.__dict__.setdefault("stack", [])
    stack.append(tape)
    before = getattr(_tangent_tapes, "memo", None)
    _tangent_tapes.memo = memo
    try:
        yield
    finally:
        stack.pop()
        _tangent_tapes.memo = before


def differentiable(x):
    """Whether a leaf of a custom_jvp call has a tangent (a float or
    complex tensor); integers, flags, strings and functions have none."""
    return isinstance(x, Tensor) and is_differentiable(x.dtype)


def aval(x):
    """JAX's short type of a leaf, as its messages print it: float32[2,3]."""
    if not isinstance(x, Tensor):
        return type(x).__name__
    return f"{x.dtype}[{','.join(str(d) for d in x.shape)}]"


def _avals(tree):
    leaves = [aval(_tensor(x)) for x in structure.flatten(tree)]
    return repr(structure.unflatten(tree, leaves)).replace("'", "")


def _tensor(x):
    if isinstance(x, Tensor) or x is None or callable(x):
        return x
    try:
        return convert_to_tensor(x)
    except (TypeError, ValueError):
        return x


def call_rule(cj, fixed, primals, tangents, out=None):
    """(primal_out, tangent_out) of cj's rule, checked as JAX checks it:
    a pair, both halves of one structure, each tangent of its primal's
    shape and dtype (a number or array becomes a tensor of that dtype; an
    output without a tangent, an integer, takes None); where `out`, f's
    own output, is known, primal_out has its structure, shapes and
    dtypes."""
    pair = cj.jvp(*fixed, primals, tangents)
    rule, name = cj.rule_name, cj.__name__
    if not isinstance(pair, (list, tuple)) or len(pair) != 2:
        raise TypeError(
            f"Custom JVP rule {rule} for function {name} must produce a pair "
            f"(list or tuple of length two) representing primal and tangent "
            f"outputs, but got {pair}.")
    p_out, t_out = pair
    if not structure.same_structure(p_out, t_out):
        raise TypeError(
            f"Custom JVP rule {rule} for function {name} must produce primal "
            f"and tangent outputs with equal container (pytree) structures, "
            f"but got {_skeleton(p_out)} and {_skeleton(t_out)} "
            f"respectively.")
    if out is not None:
        _check_primal(rule, name, p_out, out)
    p_leaves = [_tensor(p) for p in structure.flatten(p_out)]
    t_leaves = [_tangent(p, t) for p, t in
                zip(p_leaves, structure.flatten(t_out))]
    return p_out, p_leaves, t_leaves


def _skeleton(tree):
    leaves = structure.flatten(tree)
    return repr(structure.unflatten(tree, ["*"] * len(leaves))).replace(
        "'*'", "*")


def _check_primal(rule, name, p_out, out):
    head = (f"Custom JVP rule {rule} for function {name} must produce a pair "
            f"(list or tuple of length two) where the first element "
            f"represents the primal output (equal in value to the output of "
            f"the custom_jvp-decorated function {name}, and in particular ")
    if structure.same_structure(p_out, out) and all(
            _kind(a) == _kind(b) for a, b in zip(structure.flatten(p_out),
                                                 structure.flatten(out))):
        return   # (the common case, with no message formatted)
    if not structure.same_structure(p_out, out):
        raise TypeError(
            head + "of the same container/pytree structure), but instead the "
            "JVP rule output's first element had container/pytree "
            f"structure:\n    {_avals(p_out)}\nwhile the custom_jvp-decorated "
            f"function {name} had output container/pytree structure:\n"
            f"    {_avals(out)}.")
    if _avals(p_out) != _avals(out):
        raise TypeError(
            head + "with leaves of the same shape/dtype), but instead the JVP "
            "rule output's first element had shapes/dtypes of:\n"
            f"    {_avals(p_out)}\nwhile the custom_jvp-decorated function "
            f"{name} had output shapes/dtypes of:\n    {_avals(out)}")


def _kind(x):
    """(shape, dtype) of a leaf, as aval compares them."""
    if isinstance(x, Tensor):
        return x.shape, x.dtype
    t = _tensor(x)
    return (t.shape, t.dtype) if isinstance(t, Tensor) else type(x)


def _tangent(p, t):
    """A checked tangent of primal output p (None where p has none)."""
    if not differentiable(p):
        return None
    if t is None:
        return ops.zeros_like(p)
    if not isinstance(t, Tensor):
        t = convert_to_tensor(t, p.dtype)
    if t.shape != p.shape or t.dtype != p.dtype:
        raise TypeError(
            f"Custom JVP rule must produce primal and tangent outputs with "
            f"corresponding shapes and dtypes. Expected {aval(p)} (tangent "
            f"type of {aval(p)}) but got {aval(t)}.")
    return t


def transpose(cj, fixed, primals, out, dys, args=None):
    """The VJP of cj's rule at `primals` for the cotangents `dys` (one per
    leaf of f's output `out`): the gradient of <dys, tangent_out> with
    respect to the tangents, in primals' structure (None where a leaf has
    no tangent). The rule runs once, at tangents of ones, under a tape
    that watches them; that it is linear there is checked (below)."""
    flat = structure.flatten(primals)
    ts = [ops.ones_like(p) if differentiable(p) else None for p in flat]
    live = [t for t in ts if t is not None]
    memo = (cj, args, out) if args is not None and not state().active \
        else None   # (a tape recording would need the rule's own f(x))
    with GradientTape(persistent=True) as tape, \
            _tangents_watched_by(tape, memo):
        tape.watch(live)
        _, _, t_out = call_rule(cj, fixed, primals,
                                structure.unflatten(primals, ts), out)
    pairs = [(t, u) for t, u in zip(t_out, dys) if t is not None]
    if not pairs or not live:
        return structure.unflatten(primals, [None] * len(flat))
    targets = [t for t, _ in pairs]
    grads = tape.gradient(targets, live,
                          output_gradients=[u for _, u in pairs],
                          unconnected_gradients="zero")
    if not check_linear(cj, pairs, grads):   # (zero cotangents: pycg.jvp's
        ones = [ops.ones_like(t) for t in targets]   # first VJP)
        check_linear(cj, list(zip(targets, ones)), tape.gradient(
            targets, live, output_gradients=ones,
            unconnected_gradients="zero"))
    it = iter(grads)
    return structure.unflatten(primals, [
        next(it) if t is not None else None for t in ts])


def check_linear(cj, pairs, grads):
    """A ValueError naming the rule where it is not linear in the
    tangents, as far as one point can tell: at tangents s of ones, a map
    linear in them has <u, tangent_out(s)> = <J^T u, s> = sum(J^T u)
    (Euler's identity for degree one), which an offset (affine) or a
    power of the tangents breaks. Real tensors with values only (not
    inside a traced graph), finite sums, to a tolerance of the dtype's
    precision. False, with nothing checked, where the cotangents are all
    zero (pycg.jvp's first VJP): the caller checks with ones instead."""
    us = _host([u for _, u in pairs])
    if us is not None and not any(u.any() for u in us):
        return False   # (no cotangent to check with: the caller's ones)
    ts, gs = _host([t for t, _ in pairs]), _host(grads)
    if us is None or ts is None or gs is None:
        return True
    eps = max(np.finfo(v.dtype).eps for v in (*us, *ts, *gs))
    a, scale_a = _sums([t * u for t, u in zip(ts, us)])
    b, scale_b = _sums(gs)
    if abs(a - b) <= 10 * np.sqrt(eps) * (scale_a + scale_b) + 1e-30 or \
            not np.isfinite(a + b + scale_a + scale_b):
        return True
    raise ValueError(
        f"Custom JVP rule {cj.rule_name} for function {cj.__name__} is not "
        f"linear in its tangents: at tangents of ones, <cotangent, "
        f"tangent_out> is {a:.6g} but <its transpose, tangents> is "
        f"{b:.6g}. Reverse mode (pycg.grad, pycg.vjp, GradientTape) "
        f"transposes the rule, which needs tangent_out linear in the "
        f"tangents, as JAX requires: no term without a tangent, no product "
        f"or power of tangents.")


def _host(tensors):
    """The tensors' values (NumPy), or None where one is not real floating
    or not concrete (a traced graph's, a tracer)."""
    try:   # (a traced graph's or a tracer's tensor has no values)
        out = [np.asarray(t.numpy()) for t in tensors]
    except Exception:
        return None
    return out if all(v.dtype.kind == "f" for v in out) else None


def _sums(values):
    """(sum, sum of magnitudes) of arrays, in float64."""
    if len(values) == 1 and values[0].ndim == 0:   # (a scalar: the most)
        v = float(values[0])
        return v, abs(v)
    return (float(sum(v.sum(dtype=np.float64) for v in values)),
            float(sum(np.abs(v).sum(dtype=np.float64) for v in values)))
