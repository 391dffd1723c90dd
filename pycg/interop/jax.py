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
costs a second forward of `f`.
"""
import functools

import numpy as np

from pycg import _imports, backends, config
from pycg.api.tape import GradientTape
from pycg.custom.bind import name_of
from pycg.interop._outputs import checked
from pycg.tensor import Tensor, is_float
from pycg.tensor_python import to_jax_running

_WHAT = ("a function written with pycg (pycg.ops, a pycg.custom_gradient "
         "rule, or an R rule from pycg.r)")


def to_jax(f):
    """`f`, written with pycg, as a JAX function whose gradient is pycg's:
    use it under ``jax.grad`` (second order included), ``jax.jit``,
    ``jax.vmap`` and ``jax.value_and_grad``, with pycg's jax backend
    (``pycg.config.set_backend("jax")``).

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
    >>> previous = pycg.config.backend()
    >>> _ = pycg.config.set_backend("jax")
    >>> float(jax.grad(pycg.to_jax(log1pexp))(100.0))
    1.0
    >>> _ = pycg.config.set_backend(previous)

    Variables that `f` reads without taking them as arguments (a
    closed-over ``pycg.Variable``) are constants to JAX: pass the weights
    to train as arguments. JAX has no forward mode through a
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
    del jax_function.__wrapped__
    jax_function.__pycg_jax_source__ = f
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
    if backends.active.name != "jax":
        raise RuntimeError(
            f"pycg.to_jax({name}): pycg's backend is "
            f"{backends.active.name!r}, so pycg tensors cannot hold JAX "
            f"values; call pycg.config.set_backend('jax') (or set "
            f"PYCG_BACKEND=jax) before calling {name}")
    leaves, treedef = jax.tree_util.tree_flatten((args, kwargs))
    slots = [i for i, a in enumerate(leaves) if _is_input(a, jax)]
    xs = tuple(_to_jax(leaves[i], jax) for i in slots)
    structure = []   # f's output structure, found by the forward

    def run(xs, record):
        values = list(leaves)
        # (JAX may hand a custom_vjp a typed Python scalar: as an array)
        ins = [Tensor(x if isinstance(x, jax.Array) else jax.numpy.asarray(x))
               for x in xs]
        for i, t in zip(slots, ins):
            values[i] = t
        call_args, call_kwargs = jax.tree_util.tree_unflatten(treedef, values)
        tape = GradientTape(persistent=True)
        outer, to_jax_running.f = getattr(to_jax_running, "f", None), name
        to_jax_running.refused = None
        try:   # (a pycg tensor handed to JAX inside f: a clear error)
            if not record:
                return None, ins, _outputs(name, f(*call_args, **call_kwargs),
                                           jax, structure)
            with tape:
                for t in ins:
                    if is_float(t.dtype):
                        tape.watch(t)
                out = f(*call_args, **call_kwargs)
        except TypeError as e:
            if to_jax_running.refused is None:
                raise
            raise TypeError(to_jax_running.refused) from e
        finally:
            to_jax_running.f = outer
        return tape, ins, _outputs(name, out, jax, structure)

    @jax.custom_vjp
    def forward(*xs):
        return tuple(o._value for o in run(xs, False)[2])

    def forward_with_residuals(*xs):
        return forward(*xs), xs

    def backward(xs, dys):
        tape, ins, outs = run(xs, True)
        ups = [Tensor(dy) for dy in dys]
        gs = tape.gradient(outs, ins, output_gradients=ups)
        return tuple(_cotangent(g, x, jax) for g, x in zip(gs, xs))

    forward.defvjp(forward_with_residuals, backward)
    out = forward(*xs)
    return jax.tree_util.tree_unflatten(structure[0], list(out))


def _is_input(a, jax):
    if isinstance(a, (Tensor, jax.Array, float)):
        return True
    return isinstance(a, (np.ndarray, np.generic)) and a.dtype.kind in "biuf"


def _to_jax(a, jax):
    if isinstance(a, Tensor):
        a = a._value if isinstance(a._value, jax.Array) else a.numpy()
    if isinstance(a, float):
        return backends.active.convert(a, config.floatx())
    return backends.active.convert(a)


def _cotangent(g, x, jax):
    if not is_float(x.dtype) and x.dtype.kind != "c":
        return np.zeros(x.shape, jax.dtypes.float0)
    if g is None:
        return jax.numpy.zeros_like(x)
    return g._value


def _outputs(name, out, jax, structure):
    outs, tree = jax.tree_util.tree_flatten(out)
    checked("to_jax", name, out, outs, jax.Array, "a JAX array")
    structure[:] = [tree]
    return outs
