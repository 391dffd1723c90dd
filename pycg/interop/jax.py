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

from pycg import backends
from pycg._errors import Api, user_error
from pycg.api.tape import GradientTape
from pycg.interop import _bridge
from pycg.interop import _jax_state as _state
from pycg.interop._outputs import checked
from pycg.tensor import Tensor, is_float
from pycg.tensor.convert import python_float_dtype
from pycg.tensor.python_value import to_jax_running

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
    return _bridge.convert(SPEC, f, _build)


def _build(f, name, jax):
    def jax_function(*args, **kwargs):
        return _call(jax, f, name, args, kwargs)

    functools.update_wrapper(jax_function, f)
    del jax_function.__wrapped__  # type: ignore[attr-defined]
    jax_function.__pycg_jax_source__ = f  # type: ignore[attr-defined]
    return jax_function


def _foreign(f, jax):
    """A jax.jit/custom_vjp/custom_jvp function, a TensorFlow or Keras
    callable: it needs no conversion (and pycg cannot run it)."""
    kind = type(f).__module__.split(".")[0]
    if kind in ("jax", "jaxlib"):
        return "JAX"
    if kind in ("tensorflow", "keras"):
        return "TensorFlow/Keras"
    if getattr(f, "__pycg_source__", None) is not None:
        return "TensorFlow"
    return None


SPEC = _bridge.Spec(
    api="to_jax", module="jax", marker="__pycg_jax_source__",
    install="JAX is not installed ({e}); pip install "
            "'pycg-autodiff[jax]' (or jax)", foreign=_foreign)


def _call(jax, f, name, args, kwargs):
    with backends.using("jax"):   # (this thread's pycg, for the call)
        return _JaxCall(jax, f, name, args, kwargs).result()


class _JaxCall:
    """One call of a to_jax function: the call's leaves, f's output
    structure (found by the forward), the variables the forward touched
    (_jax_state) and the new values of those f assigned (for
    pycg.function's trace), and the jax.custom_vjp that runs f."""

    def __init__(self, jax, f, name, args, kwargs):
        self.jax, self.f, self.name = jax, f, name
        self.leaves, self.treedef = jax.tree_util.tree_flatten((args, kwargs))
        leaves = self.leaves
        self.slots = [i for i, a in enumerate(leaves) if _is_input(a, jax)]
        floats = python_float_dtype([getattr(a, "dtype", None) if isinstance(
            a, (Tensor, jax.Array, np.ndarray, np.generic)) else None
            for a in leaves])
        self.xs = tuple(_to_jax(leaves[i], jax, floats) for i in self.slots)
        self.structure = None   # f's output structure
        self.stores = []        # the variables the forward touched
        self.assigned = []      # (variable, new value) for pycg.function
        forward = jax.custom_vjp(self.forward)
        forward.defvjp(self.forward_with_residuals, self.backward)
        self.custom = forward

    def result(self):
        jax, name = self.jax, self.name
        try:
            out = self.custom(*self.xs)
        except _state.Retry:   # (a variable made by the first trace: read it)
            try:
                out = self.custom(*self.xs)
            except _state.Retry:
                raise user_error(
                    ValueError, "{api}: {name} creates a new pycg.Variable "
                    "that outlives it each time JAX traces it; create its "
                    "variables outside {name}", api=Api(f"to_jax({name})"),
                    name=name) from None
        n = self.structure.num_leaves
        for (store, _), value in zip(self.assigned, out[n:]):
            store.value = value
        return jax.tree_util.tree_unflatten(self.structure, list(out[:n]))

    def run(self, xs, tape, watch):
        """f on pycg tensors wrapping `xs` (recorded on `tape` where there
        is one), watched: (those tensors, f's outputs)."""
        jax, name = self.jax, self.name
        # (JAX may hand a custom_vjp a typed Python scalar: as an array)
        ins = [Tensor(x if isinstance(x, jax.Array) else jax.numpy.asarray(x))
               for x in xs]
        call = _bridge.substituted(self.leaves, self.slots, ins, self._tree)
        outer, to_jax_running.f = getattr(to_jax_running, "f", None), name
        to_jax_running.refused = None
        try:   # (a pycg tensor handed to JAX inside f: a clear error)
            with backends.active.watching(watch):
                out = self.f(*call[0], **call[1]) if tape is None else \
                    _bridge.recorded(tape, self.f, call, ins)
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
        return ins, self._outputs(out)

    def _tree(self, values):
        return self.jax.tree_util.tree_unflatten(self.treedef, values)

    def forward(self, *xs):
        """f's outputs, the new values of the variables f assigned where
        pycg.function traces around (put back outside JAX's custom_vjp
        trace), then the first values of the variables f touched."""
        watch = _state.watch(self.jax)
        outs = self.run(xs, None, watch)[1]
        self.assigned[:] = watch.settle(self.name)
        self.stores[:] = watch.stores
        return tuple(o._value for o in outs) + tuple(
            v for _, v in self.assigned) + tuple(watch.initial)

    def forward_with_residuals(self, *xs):
        # (the custom_vjp itself, as jax.custom_vjp's fwd rules call their
        # function: a transformation around this one sees the rule); JAX
        # hands it a NumPy input as it is, kept for the backward: a copy
        jax = self.jax
        xs = tuple(_to_jax(x, jax, None) if isinstance(x, np.ndarray) else x
                   for x in xs)
        out = self.custom(*xs)
        return out, (xs, out[len(out) - len(self.stores):])

    def backward(self, residuals, dys):
        with backends.using("jax"):   # (JAX may call it after _call)
            return self._backward(residuals, dys)

    def _backward(self, residuals, dys):
        jax = self.jax
        xs, initial = residuals
        watch = _state.watch(jax, dict(zip(map(id, self.stores), initial)))
        tape = GradientTape(persistent=True)
        try:
            ins, outs = self.run(xs, tape, watch)
            ups = [_upstream(dy, o, jax) for dy, o in zip(dys, outs)]
            gs = _bridge.vjp(tape, outs, ins, ups)
        finally:
            watch.restore()
        return tuple(_cotangent(g, x, jax) for g, x in zip(gs, xs))

    def _outputs(self, out):
        outs, tree = self.jax.tree_util.tree_flatten(out)
        outs = checked("to_jax", self.name, out, outs, self.jax.Array,
                       "a JAX array")
        self.structure = tree
        return outs


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
