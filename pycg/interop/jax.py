"""pycg.to_jax: a pycg function or rule as a JAX function.

The result is a ``jax.custom_jvp`` function: its forward runs `f` on pycg
tensors that wrap the JAX inputs themselves (no copy: concrete arrays, or
JAX's tracers inside jax.jit, jax.grad and jax.vmap), and its tangent rule
(_jax_forward.py) is a linear map with its own transpose
(_jax_linear_call.py): forward, pycg's forward mode of `f` (pycg.jvp, by
the skeleton's forward hook: a ``pycg.custom_gradient`` rule's VJP
transposed), which jax.jvp, jax.linearize and jax.jacfwd use; transpose,
pycg's VJP of a tape recorded over `f`, which jax.grad and jax.vjp use, so
reverse mode runs the rule exactly as it stands (one that is not linear
in its upstream gradient included). pycg's kernels are JAX's (the jax
backend), so JAX differentiates both maps in turn: second derivatives
(jax.hessian, jacfwd of grad, grad of grad) follow the rule's own
derivative.

The tangent rule records `f` again from the inputs; the values of the
variables `f` touched (a closed-over pycg.Variable, a SeedGenerator's
counter) are outputs of the custom_jvp, so that second run reads and
draws what the first did (_jax_state.py).
"""
import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from pycg import backends
from pycg._errors import Api, user_error
from pycg.interop import _bridge
from pycg.interop import _jax_forward as _forward
from pycg.interop import _jax_state as _state
from pycg.interop._outputs import checked
from pycg.tensor import Tensor
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
    floats, in any JAX pytree) are inputs, differentiable where floating
    or complex (a complex gradient in JAX's convention: pycg's, which is
    TensorFlow's, conjugated at the border; jax.grad of Re(z * z) is 2z);
    other leaves (ints, bools, strings) pass through unchanged. `f`
    returns a pycg tensor or a nested list/tuple/dict of them; the result
    has the same structure, of JAX arrays.

    Args:
        f: A function written with pycg ops (a custom_gradient function
            among them).

    Returns:
        A JAX function (``jax.custom_jvp``) with f's name; JAX's forward
        mode of it is pycg's jvp, its gradient pycg's (f's rules
        included, run as they stand).

    Differs:
        ``jax.custom_vjp`` alone asks for a forward and a backward written
        in JAX, and has no forward mode; here the tangent rule is pycg's
        jvp over f, transposed by pycg's backward over f, so any pycg
        rule (in any published convention) serves forward mode, reverse
        mode and Hessians as it stands.

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
    and assign it outside. ``jax.jvp``, ``jax.linearize``, ``jax.jacfwd``
    and ``jax.hessian`` work (pycg's jvp of f: a rule's VJP transposed);
    ``jax.grad`` and ``jax.vjp`` run the rule itself; a rule that is not
    linear in its upstream gradient (one that clips it) has no single
    Jacobian, and forward mode uses its derivative in the gradient at
    zero (pycg.jvp's). A derivative runs `f` twice
    (the tangent rule records it again from the inputs).
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
    pycg.function's trace), and the jax.custom_jvp that runs f."""

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
        forward = jax.custom_jvp(self.forward)
        forward.defjvp(self.forward_jvp)
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
        # (JAX may hand a custom_jvp a typed Python scalar: as an array)
        ins = [x if isinstance(x, Tensor) else Tensor(
            x if isinstance(x, jax.Array) else jax.numpy.asarray(x))
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
        pycg.function traces around (put back outside JAX's custom_jvp
        trace), then the first values of the variables f touched."""
        watch = _state.watch(self.jax)
        outs = self.run(xs, None, watch)[1]
        self.assigned[:] = watch.settle(self.name)
        self.stores[:] = watch.stores
        return tuple(o._value for o in outs) + tuple(
            v for _, v in self.assigned) + tuple(watch.initial)

    def forward_jvp(self, primals, tangents):
        """(the call's outputs, their tangents): the outputs from the
        custom_jvp itself (as jax.custom_jvp's rules call their function:
        a transformation around this one sees the rule again), the
        tangents J @ t by pycg's forward mode (_bridge.jvp), f run again on
        the variables' first values; JAX transposes them for reverse mode.
        The variables' outputs have zero tangents."""
        with backends.using("jax"):   # (JAX may call it after _call)
            jax = self.jax
            # (JAX hands a NumPy input as it is: a copy)
            xs = tuple(_to_jax(x, jax, None) if isinstance(x, np.ndarray)
                       else x for x in primals)
            out = self.custom(*xs)
            initial = out[len(out) - len(self.stores):]
            n = self.structure.num_leaves
            touts = _forward.tangents(self, xs, tangents, out[:n], initial)
            rest = [_forward.zero_tangent(v, jax) for v in out[len(touts):]]
            return out, tuple(touts) + tuple(rest)

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
