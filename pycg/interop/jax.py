"""pycg.to_jax: a pycg function or rule as a JAX function.

The result is a ``jax.custom_vjp`` function: its forward runs `f` on pycg
tensors that wrap the JAX inputs themselves (no copy: concrete arrays, or
JAX's tracers inside jax.jit, jax.grad and jax.vmap), and its backward is
pycg's backward of a tape recorded over `f`, so a ``pycg.custom_gradient``
rule inside `f` is the gradient JAX uses. pycg's backward runs JAX kernels
(the jax backend) on JAX values, so JAX differentiates it in turn: second
derivatives follow the rule's own derivative, as with to_tensorflow.

The backward records `f` again from the inputs (its residuals): JAX's
residuals must be arrays, and a tape is not one. A gradient therefore
costs a second forward of `f`; the values of the variables `f` touched
(a closed-over pycg.Variable, a SeedGenerator's counter) are residuals
too, so that second run reads and draws what the first did
(_jax_state.py).
"""
import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from pycg import _imports, backends
from pycg._errors import Api, user_error
from pycg.api.tape import GradientTape
from pycg.custom.bind import name_of
from pycg.interop import _jax_state as _state
from pycg.interop._outputs import checked
from pycg.tensor import Tensor, is_float
from pycg.tensor.convert import python_float_dtype
from pycg.tensor.python_value import to_jax_running

_WHAT = ("a function written with pycg (pycg.ops, a pycg.custom_gradient "
         "rule, or an R rule from pycg.r)")


def to_jax(f: Callable[..., Any]) -> Callable[..., Any]:
    """`f`, written with pycg, as a JAX function whose gradient is pycg's:
    use it under ``jax.grad`` (second order included), ``jax.jit``,
    ``jax.vmap`` and ``jax.value_and_grad``. `f` runs on pycg's jax
    backend, whatever the backend set (pycg.config.set_backend) and for
    the calling thread only (other threads keep theirs); a pycg.Variable
    that `f` closes over keeps the storage of the backend it was made on,
    and `f` reads it as a JAX array (a copy where that is another backend).

    Arrays in the arguments (JAX and NumPy arrays, pycg tensors, Python
    floats, in any JAX pytree) are inputs, differentiable where floating;
    other leaves (ints, bools, strings) pass through unchanged. `f`
    returns a pycg tensor or a nested list/tuple/dict of them; the result
    has the same structure, of JAX arrays.

    Args:
        f: A function written with pycg ops (a custom_gradient function
            among them).

    Returns:
        A JAX function (``jax.custom_vjp``) with f's name; JAX's gradient
        of it is pycg's (f's rules included).

    Differs:
        ``jax.custom_vjp`` alone asks for a forward and a backward written
        in JAX; here the backward is pycg's tape over f, so any pycg rule
        (in any published convention) is used as it stands.

    Example:
    >>> import jax, pycg
    >>> from pycg import ops
    >>> @pycg.custom_gradient
    ... def log1pexp(x):
    ...     e = ops.exp(x)
    ...     def grad(upstream):
    ...         return upstream * (1 - 1 / (1 + e))
    ...     return ops.log(1 + e), grad
    >>> float(jax.grad(pycg.to_jax(log1pexp))(100.0))
    1.0

    Variables that `f` reads without taking them as arguments (a
    closed-over ``pycg.Variable``) are constants to JAX, with no gradient:
    pass the weights to train as arguments. `f` reads them, draws random
    numbers (``pycg.random`` with a SeedGenerator or seed=None) and assigns
    variables as it would eagerly, also under ``jax.jit``: each call of the
    compiled function reads the variables' values at that call, draws the
    generator's next numbers (the sequence eager pycg draws) and keeps its
    assignments (host callbacks read and write them when the compiled code
    runs; calls on several threads at once may share a draw, where
    ``pycg.function`` holds a lock). The gradient uses the forward's
    values and draws. An assignment of a value ``jax.vmap`` (or
    ``jax.grad`` of ``jax.grad``) traces is an error: return the value
    and assign it outside. JAX has no forward mode through a
    ``custom_vjp``: ``jax.jvp``, ``jax.jacfwd`` and ``jax.hessian`` raise
    JAX's own error; ``jax.jacrev(jax.jacrev(f))`` is the Hessian. A
    gradient runs `f` twice (the backward records it again from the inputs,
    JAX's residuals).
    """
    if getattr(f, "__pycg_jax_source__", None) is not None:
        return f  # already converted
    if not callable(f):
        raise TypeError(f"pycg.to_jax: expected {_WHAT}, got "
                        f"{type(f).__name__}")
    name = name_of(f)
    jax = _jax(name)
    _refuse_framework_callable(f, name)

    def jax_function(*args, **kwargs):
        return _call(jax, f, name, args, kwargs)

    functools.update_wrapper(jax_function, f)
    del jax_function.__wrapped__  # type: ignore[attr-defined]
    jax_function.__pycg_jax_source__ = f  # type: ignore[attr-defined]
    return jax_function


def _jax(name):
    try:
        jax = _imports.import_module("jax")
    except _imports.ShadowedModuleError:
        raise
    except ImportError as e:
        raise ImportError(
            f"pycg.to_jax({name}): JAX is not installed ({e}); pip install "
            f"'pycg-autodiff[jax]' (or jax)") from None
    return jax


def _refuse_framework_callable(f, name):
    """A jax.jit/custom_vjp/custom_jvp function, a TensorFlow or Keras
    callable: it needs no conversion (and pycg cannot run it)."""
    kind = type(f).__module__.split(".")[0]
    if kind in ("jax", "jaxlib", "tensorflow", "keras") or \
            getattr(f, "__pycg_source__", None) is not None:
        raise TypeError(
            f"pycg.to_jax({name}): {name} is a "
            f"{'TensorFlow' if kind != 'jax' and kind != 'jaxlib' else 'JAX'}"
            f"{'/Keras' if kind in ('tensorflow', 'keras') else ''} callable "
            f"({type(f).__name__}), not {_WHAT}; call it directly, it needs "
            f"no conversion")


def _call(jax, f, name, args, kwargs):
    with backends.using("jax"):   # (this thread's pycg, for the call)
        return _on_jax(jax, f, name, args, kwargs)


# (complex by count: its closures share one call's state, as jax.custom_vjp
# needs its forward, residuals and backward defined together)
def _on_jax(jax, f, name, args, kwargs):  # noqa: C901
    leaves, treedef = jax.tree_util.tree_flatten((args, kwargs))
    slots = [i for i, a in enumerate(leaves) if _is_input(a, jax)]
    floats = python_float_dtype([getattr(a, "dtype", None) if isinstance(
        a, (Tensor, jax.Array, np.ndarray, np.generic)) else None
        for a in leaves])
    xs = tuple(_to_jax(leaves[i], jax, floats) for i in slots)
    structure = []   # f's output structure, found by the forward
    stores = []      # the variables the forward touched (_jax_state)
    assigned = []    # (variable, new value) for pycg.function's trace

    def run(xs, tape, watch):
        values = list(leaves)
        # (JAX may hand a custom_vjp a typed Python scalar: as an array)
        ins = [Tensor(x if isinstance(x, jax.Array) else jax.numpy.asarray(x))
               for x in xs]
        for i, t in zip(slots, ins):
            values[i] = t
        call_args, call_kwargs = jax.tree_util.tree_unflatten(treedef, values)
        outer, to_jax_running.f = getattr(to_jax_running, "f", None), name
        to_jax_running.refused = None
        try:   # (a pycg tensor handed to JAX inside f: a clear error)
            with backends.active.watching(watch):
                if tape is None:
                    return ins, _outputs(name, f(*call_args, **call_kwargs),
                                         jax, structure)
                with tape:
                    for t in ins:
                        if is_float(t.dtype):
                            tape.watch(t)
                    out = f(*call_args, **call_kwargs)
        except TypeError as e:
            watch.restore()
            if to_jax_running.refused is None:
                raise
            raise TypeError(to_jax_running.refused) from e
        except BaseException:
            watch.restore()
            raise
        finally:
            to_jax_running.f = outer
        return ins, _outputs(name, out, jax, structure)

    @jax.custom_vjp
    def forward(*xs):
        """f's outputs, the new values of the variables f assigned where
        pycg.function traces around (put back outside JAX's custom_vjp
        trace), then the first values of the variables f touched."""
        watch = _state.watch(jax)
        outs = run(xs, None, watch)[1]
        assigned[:] = watch.settle(name)
        stores[:] = watch.stores
        return tuple(o._value for o in outs) + tuple(
            v for _, v in assigned) + tuple(watch.initial)

    def forward_with_residuals(*xs):
        # (forward itself, as jax.custom_vjp's fwd rules call their
        # function: a transformation around this one sees the rule); JAX
        # hands it a NumPy input as it is, kept for the backward: a copy
        xs = tuple(_to_jax(x, jax, None) if isinstance(x, np.ndarray) else x
                   for x in xs)
        out = forward(*xs)
        return out, (xs, out[len(out) - len(stores):])

    def backward(residuals, dys):
        with backends.using("jax"):   # (JAX may call it after _call)
            return _backward(residuals, dys)

    def _backward(residuals, dys):
        xs, initial = residuals
        watch = _state.watch(jax, dict(zip(map(id, stores), initial)))
        tape = GradientTape(persistent=True)
        try:
            ins, outs = run(xs, tape, watch)
            ups = [_upstream(dy, o, jax) for dy, o in zip(dys, outs)]
            gs = tape.gradient(outs, ins, output_gradients=ups)
        finally:
            watch.restore()
        return tuple(_cotangent(g, x, jax) for g, x in zip(gs, xs))

    forward.defvjp(forward_with_residuals, backward)
    try:
        out = forward(*xs)
    except _state.Retry:   # (a variable made by the first trace: read it)
        try:
            out = forward(*xs)
        except _state.Retry:
            raise user_error(
                ValueError, "{api}: {name} creates a new pycg.Variable that "
                "outlives it each time JAX traces it; create its variables "
                "outside {name}", api=Api(f"to_jax({name})"),
                name=name) from None
    n = structure[0].num_leaves
    for (store, _), value in zip(assigned, out[n:]):
        store.value = value
    return jax.tree_util.tree_unflatten(structure[0], list(out[:n]))


def _is_input(a, jax):
    if isinstance(a, (Tensor, jax.Array, float)):
        return True
    return isinstance(a, (np.ndarray, np.generic)) and a.dtype.kind in "biuf"


def _to_jax(a, jax, floats):
    if isinstance(a, Tensor):
        a = a._value if isinstance(a._value, jax.Array) else a.numpy()
    if type(a) is float:   # (in the dtype of the arrays beside it)
        return backends.active.convert(a, floats)
    if isinstance(a, np.ndarray):   # (the caller's, and writable: a copy)
        return backends.active.own(a)
    return backends.active.convert(a)


def _upstream(dy, out, jax):
    """JAX's cotangent of one output as a pycg tensor of the output's
    dtype (JAX hands Python floats through, and float0 for integers)."""
    if not isinstance(dy, jax.Array) or dy.dtype != out.dtype:
        if getattr(dy, "dtype", None) == jax.dtypes.float0:
            return Tensor(jax.numpy.zeros(out.shape, out.dtype))
        dy = jax.numpy.asarray(dy, dtype=out.dtype)
    return Tensor(dy)


def _cotangent(g, x, jax):
    if not is_float(x.dtype) and x.dtype.kind != "c":
        return np.zeros(x.shape, jax.dtypes.float0)
    if g is None:
        return jax.numpy.zeros_like(x)
    return g._value


def _outputs(name, out, jax, structure):
    outs, tree = jax.tree_util.tree_flatten(out)
    outs = checked("to_jax", name, out, outs, jax.Array, "a JAX array")
    structure[:] = [tree]
    return outs
