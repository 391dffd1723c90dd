"""Control flow on values JAX traces (inside pycg.function on the jax
backend): cond, switch and while_loop with a traced predicate, index or
bound lower to jax.lax.cond, lax.switch and lax.while_loop; scan (and map)
over traced values to lax.scan where no tape records.

The user's functions run inside JAX's branch and body traces with the
recording tapes set aside (their tensors belong to those traces and must
not reach a tape). Where a tape records, cond and switch run every branch
on the tape instead and pick the result with ops.where, so the gradient
is the tape's (custom rules included) and flows only into the branch
taken, as under jax.vmap of lax.cond; a while_loop whose values a tape
tracks is an error, as JAX cannot reverse-differentiate lax.while_loop;
scan unrolls on the tape.
"""
import contextlib

from pycg import backends
from pycg.tensor import structure
from pycg.core import recorder as core
from pycg.tensor import Tensor, convert_to_tensor, is_float
from pycg.tensor.convert import jax_tracer
from pycg.ops._machinery.traced import output_values


def traced(x):
    """x is a tensor whose value JAX traces (pycg.function on jax)."""
    return isinstance(x, Tensor) and backends.active.name == "jax" and \
        jax_tracer(x._value)


def cond(pred, true_fn, false_fn):
    from jax import lax
    p = convert_to_tensor(pred, "bool")
    if core.state().active:
        return _select(p, [true_fn(), false_fn()], "cond")
    trees = {}
    vals = lax.cond(p._value, _branch(true_fn, (), trees, 0, "cond"),
                    _branch(false_fn, (), trees, 1, "cond"))
    return structure.unflatten(trees[0], [Tensor(v) for v in vals])


def switch(index, branches, operands):
    from jax import lax
    i = convert_to_tensor(index, "int32")
    if core.state().active:
        from pycg.ops.elementwise import clip, equal
        i = clip(i, 0, len(branches) - 1)
        outs = [b(*operands) for b in branches]
        picked = outs[-1]
        for k in range(len(outs) - 2, -1, -1):
            picked = _select(equal(i, k), [outs[k], picked], "switch")
        return picked
    trees = {}
    vals = lax.switch(i._value, [_branch(b, operands, trees, k, "switch")
                                 for k, b in enumerate(branches)])
    return structure.unflatten(trees[0], [Tensor(v) for v in vals])


def while_loop(cond_fn, body, state, maximum_iterations):
    from jax import lax
    leaves = [convert_to_tensor(x) for x in structure.flatten(state)]
    dtypes = [t.dtype for t in leaves]
    tapes = core.state().active
    if tapes and any(t._id in r.ids or t._trainable_var for t in leaves
                     for r in core.state().recorders):
        raise _undifferentiable()
    n = 0 if maximum_iterations is None else maximum_iterations

    def unpack(vals):
        return structure.unflatten(state, [Tensor(v) for v in vals])

    def lax_cond(carry):
        k, vals = carry
        with _aside(tapes):
            c = convert_to_tensor(cond_fn(*unpack(vals)), "bool")._value
        return c if maximum_iterations is None else c & (k < n)

    def lax_body(carry):
        k, vals = carry
        with _aside(tapes):
            out = body(*unpack(vals))
        out = structure.flatten(tuple(out) if isinstance(out, (tuple, list))
                                else (out,))
        return k + 1, output_values(out, dtypes, "while_loop")
    _, vals = lax.while_loop(lax_cond, lax_body,
                             (0, [t._value for t in leaves]))
    return unpack(vals)


def scans(init, x_leaves, n):
    """scan lowers to lax.scan: JAX traces its values, no tape records
    (under a tape it unrolls, so the tape and rules inside differentiate
    it), and it has steps."""
    return n > 0 and not core.state().active and any(
        traced(t) for t in x_leaves + [
            t for t in structure.flatten(init) if isinstance(t, Tensor)])


def scan(f, init, xs, x_leaves, n, reverse):
    from jax import lax
    carry0 = [convert_to_tensor(c) for c in structure.flatten(init)]
    dtypes = [t.dtype for t in carry0]
    trees = {}

    def step(carry_vals, x_vals):
        carry = structure.unflatten(init, [Tensor(v) for v in carry_vals])
        x = None if xs is None else structure.unflatten(
            xs, [Tensor(v) for v in x_vals])
        out = f(carry, x)
        if not isinstance(out, (tuple, list)) or len(out) != 2:
            raise ValueError(f"pycg.ops.scan: f must return (carry, y), got "
                             f"{type(out).__name__}")
        trees["y"] = out[1]
        ys = [] if out[1] is None else structure.flatten(out[1])
        return output_values(structure.flatten(out[0]), dtypes, "scan"), \
            output_values(ys, None, "scan")
    final, ys = lax.scan(step, [t._value for t in carry0],
                         [x._value for x in x_leaves], length=n,
                         reverse=reverse)
    carry = structure.unflatten(init, [Tensor(v) for v in final])
    y = trees["y"]
    return carry, None if y is None else structure.unflatten(
        y, [Tensor(v) for v in ys])


# ---- helpers -------------------------------------------------------------
def _branch(fn, operands, trees, key, op):
    def run():
        out = fn(*operands)
        trees[key] = out
        return output_values(structure.flatten(out), None, op)
    return run


def _select(pred, outs, op):
    """The branch outputs `outs` (first where pred) picked by ops.where."""
    from pycg.ops.elementwise import where
    first, second = (structure.flatten(o) for o in outs)
    if not structure.same_structure(outs[0], outs[1]) or \
            len(first) != len(second):
        raise ValueError(
            f"pycg.ops.{op}: the branches must return the same structure, "
            f"got {type(outs[0]).__name__} and {type(outs[1]).__name__}")
    return structure.unflatten(outs[0], [
        where(pred, a, b) for a, b in zip(first, second)])


@contextlib.contextmanager
def _aside(tapes):
    """A loop body runs with the tapes set aside; one that would record
    (a value the tapes track flows through it) is an error."""
    if not tapes:
        yield
        return
    outer = list(core.state().recorders)
    probe = core.Recorder()
    probe.ids |= set().union(*(r.ids for r in outer))
    with core.Aside(outer, probe):
        yield
    if any(is_float(o.dtype) for _, _, outs, _ in probe.entries
           for o in outs):
        raise _undifferentiable()


def _undifferentiable():
    return TypeError(
        "pycg.ops.while_loop: a GradientTape records values that flow "
        "through this loop, whose condition JAX traces (inside pycg.function "
        "on the jax backend), and lax.while_loop cannot be differentiated "
        "in reverse mode; use ops.fori_loop with Python int bounds or "
        "ops.scan (unrolled, differentiable), or take the gradient outside "
        "the loop")
