"""pycg.to_tensorflow: a pycg function or rule as a TensorFlow function.

The forward runs `f` on pycg tensors that wrap the TensorFlow inputs
themselves (no copy), on a pycg tape; the gradient, given to
``tf.custom_gradient``, is pycg's backward of that tape, so a
``pycg.custom_gradient`` rule inside `f` is the gradient TensorFlow uses.
pycg's backward runs TensorFlow kernels on TensorFlow values, so a
``tf.GradientTape`` around it records them (in a graph, ``tf.gradients``
follows them): second derivatives work wherever pycg's rule is itself
differentiable. Where a tf.autodiff.ForwardAccumulator watches the inputs,
the call is recorded by _tf_forward instead, with pycg's jvp as its
tangents.
"""
import contextlib
import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from pycg import backends
from pycg.tensor import structure
from pycg.core import forward as core_forward
from pycg.backends._tf_import import import_tensorflow
from pycg.custom.bind import name_of
from pycg.interop import _bridge, _tf_forward
from pycg.interop._outputs import checked
from pycg.api.tape import GradientTape
from pycg.tensor import Tensor, is_differentiable, is_float
from pycg.tensor.convert import python_float_dtype

def to_tensorflow(f: Callable[..., Any]) -> Callable[..., Any]:
    """`f`, written with pycg, as a TensorFlow function whose gradient is
    pycg's: use it under ``tf.GradientTape``, inside ``tf.function`` (also
    with ``jit_compile=True``), in a Keras layer and under ``tf.distribute``.

    Float arguments (tf tensors and variables, Keras variables, pycg
    tensors, NumPy arrays, Python floats, in nested lists/tuples/dicts) and
    complex tf tensors are differentiable inputs (a complex gradient in
    TensorFlow's convention, which is pycg's); ints, bools, strings and
    None pass through unchanged. `f` returns a pycg tensor or a nested
    list/tuple/dict of them; the result has the same structure, of tf
    tensors. `f` runs on
    pycg's tensorflow backend, whatever the backend set
    (pycg.config.set_backend) and for the calling thread only (other
    threads keep theirs); a pycg.Variable that `f` closes over keeps the
    storage of the backend it was made on, and `f` reads it as a tf tensor
    (a copy where that is another backend).

    Args:
        f: A function written with pycg ops (a custom_gradient function
            among them).

    Returns:
        A TensorFlow function with f's signature and name; its gradient,
        as TensorFlow asks for it, is pycg's (tf.custom_gradient).

    Example:
    >>> import pycg, tensorflow as tf
    >>> from pycg import ops
    >>> @pycg.custom_gradient
    ... def log1pexp(x):
    ...     e = ops.exp(x)
    ...     def grad(upstream):
    ...         return upstream * (1 - 1 / (1 + e))
    ...     return ops.log(1 + e), grad
    >>> tf_log1pexp = pycg.to_tensorflow(log1pexp)
    >>> x = tf.constant(100.0)
    >>> with tf.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = tf_log1pexp(x)
    >>> float(tape.gradient(y, x))
    1.0

    Under TensorFlow's forward mode (``tf.autodiff.ForwardAccumulator``,
    around or inside ``tf.function``, around a ``tf.GradientTape`` for
    Hessian-vector products) the tangents of the outputs are pycg's
    forward mode of `f` (``pycg.jvp``): a ``pycg.custom_gradient`` rule
    transposed, a ``pycg.custom_jvp`` rule as it stands
    (pycg/interop/_tf_forward.py). Around a ``tf.function`` TensorFlow
    transposes the function's gradient, pycg's rule, itself, which is the
    same J @ t for a rule linear in its upstream gradient.

    Variables that `f` reads without taking them as arguments (a closed-over
    ``pycg.Variable``) are constants to TensorFlow: pass the weights to train
    as arguments. Dimensions unknown while TensorFlow traces (a ``None``
    batch) work in the reductions, softmax, concatenate, reshape, where,
    matmul and the elementwise ops; an op that needs every dimension known
    (indexing and the other static gathers) raises an error naming `f`,
    the op and what to do.
    """
    return _bridge.convert(SPEC, f, _build)


def _build(f, name, tf):
    def tf_function(*args, **kwargs):
        return _call(f, name, args, kwargs)

    functools.update_wrapper(tf_function, f)
    # (tf.function must not look inside)
    del tf_function.__wrapped__  # type: ignore[attr-defined]
    tf_function.__pycg_source__ = f  # type: ignore[attr-defined]
    # AutoGraph must not rewrite f's Python (pycg.function traces with
    # autograph=False too)
    return tf.autograph.experimental.do_not_convert(tf_function)


def _foreign(f, tf):
    if isinstance(f, (tf.Module, tf.types.experimental.PolymorphicFunction,
                      tf.types.experimental.ConcreteFunction)) or \
            any(c.__module__.startswith("keras.") and c.__name__ == "Layer"
                for c in type(f).__mro__):
        return "TensorFlow/Keras"
    return None


SPEC = _bridge.Spec(
    api="to_tensorflow", module="tensorflow", marker="__pycg_source__",
    install="TensorFlow is not installed ({e}); pip install tensorflow",
    foreign=_foreign, load=import_tensorflow)


def _graph_call(f, args, kwargs):
    """A custom_gradient function called where TensorFlow differentiates:
    in a branch or loop body of ops.cond, ops.while_loop, ... inside
    pycg.function, or on TensorFlow values under a tf.GradientTape or in a
    tf.function: one TensorFlow op (tf.custom_gradient) whose gradient is
    f's rule."""
    return _call(f, name_of(f), args, kwargs, rule_call=True)


core_forward.register_graph_call(_graph_call)


def _call(f, name, args, kwargs, rule_call=False):
    with backends.using("tensorflow"):   # (this thread's pycg, for the call)
        return _on_tensorflow(f, name, args, kwargs, rule_call)


def _on_tensorflow(f, name, args, kwargs, rule_call):
    tf = import_tensorflow()
    leaves = structure.flatten((args, kwargs))
    slots = [i for i, a in enumerate(leaves) if _is_input(a, tf)]
    floats = python_float_dtype([_dtype(a) for a in leaves])
    xs = [_to_tf(leaves[i], tf, floats) for i in slots]

    def unflatten(values):
        return structure.unflatten((args, kwargs), values)

    result = []   # (f's output, once f has run: its structure)

    def forward(*xs):
        ins = [Tensor(x) for x in xs]
        call = _bridge.substituted(leaves, slots, ins, unflatten)
        tape = GradientTape(persistent=True)
        with _shapes_hint(name, xs, "forward"):
            out = _bridge.recorded(tape, f, call, ins)
        if rule_call and tape.watched_variables():
            raise _variables_in_rule_call(name)
        outs = _outputs(name, out, tf)

        def grad(*dys, variables=None):
            with backends.using("tensorflow"):   # (TensorFlow calls it later)
                return _grad(dys, variables)

        def _grad(dys, variables):
            ups = [Tensor(tf.zeros_like(o._value) if dy is None else dy)
                   for dy, o in zip(dys, outs)]
            with _shapes_hint(name, xs, "gradient"):
                gs = _bridge.vjp(tape, outs, ins, ups)
            gs = [None if g is None else g._value for g in gs]
            # a tf.Variable read inside f without being an argument reached
            # pycg as a constant: it has no gradient here
            return (gs, [None] * len(variables)) if variables else gs

        result.append(out)
        return [o._value for o in outs], grad

    if _tf_forward.watched(xs):   # (a tf.autodiff.ForwardAccumulator)
        def tangents(ts):
            with backends.using("tensorflow"):   # (TensorFlow calls it)
                return _tangents(f, name, (leaves, slots, unflatten), xs, ts)
        ys = _tf_forward.call(name, forward, xs, tangents, tf)
    else:
        ys = tf.custom_gradient(forward)(*xs)
    return structure.unflatten(result[-1], list(ys))


def _tangents(f, name, call, xs, ts):
    """The tangents of f's flat outputs, for the tangents `ts` of the
    inputs `xs` (None for an integer input): J @ t by pycg's forward mode
    (_bridge.jvp), f run again at `xs`."""
    leaves, slots, unflatten = call
    moving = [i for i, (x, t) in enumerate(zip(xs, ts))
              if t is not None and (x.dtype.is_floating or x.dtype.is_complex)]
    if not moving:   # (an integer input watched: TensorFlow warns)
        return None
    ins = [Tensor(x) for x in xs]

    def flat(*moved):
        full = list(ins)
        for i, v in zip(moving, moved):
            full[i] = v
        args, kwargs = _bridge.substituted(leaves, slots, full, unflatten)
        return structure.flatten(f(*args, **kwargs))
    with _shapes_hint(name, xs, "forward-mode tangent"):
        outs, touts = _bridge.jvp(flat, [ins[i] for i in moving],
                                  [Tensor(ts[i]) for i in moving])
    return [t._value if t is not None and is_differentiable(o.dtype)
            else None for o, t in zip(outs, touts)]


def _variables_in_rule_call(name):
    return ValueError(
        f"{name}: this custom_gradient function reads a Variable it does "
        f"not take as an argument, where TensorFlow differentiates it "
        f"(inside ops.cond, ops.while_loop or another traced control flow "
        f"op in pycg.function, or on TensorFlow values under "
        f"tf.GradientTape or in a tf.function), and there its rule cannot "
        f"give that Variable a gradient; pass the Variable to {name} as an "
        f"argument")


@contextlib.contextmanager
def _shapes_hint(name, xs, stage):
    """Some pycg ops need static shapes: say so when a dimension was unknown
    (None while TensorFlow traces: a tf.function input_signature, a Keras
    symbolic batch, a retrace for a last, smaller batch)."""
    try:
        yield
    except Exception as e:
        unknown = [tuple(x.shape) for x in xs
                   if not x.shape.is_fully_defined()]
        if not unknown:
            raise
        first = str(e).strip().splitlines()[-1] if str(e).strip() else ""
        raise _as(e, (
            f"pycg.to_tensorflow({name}): the {stage} of {name} failed on "
            f"inputs of shape {', '.join(map(str, unknown))} ("
            f"{type(e).__name__}: {first}); that op needs every dimension "
            f"known when TensorFlow traces. Give the inputs full shapes: no "
            f"None in a tf.function input_signature; in Keras, batches of "
            f"one size (drop_remainder=True, or as many samples as a "
            f"multiple of batch_size) and keras.layers.Lambda(..., "
            f"output_shape=...) or a layer's compute_output_shape, so that "
            f"Keras need not call {name} on a symbolic batch")) from e


def _as(e, message):
    try:
        return type(e)(message)
    except Exception:
        return RuntimeError(message)


def _is_input(a, tf):
    if isinstance(a, (Tensor, tf.Tensor, tf.Variable, float)) or \
            hasattr(a, "__tf_tensor__"):
        return True
    return isinstance(a, (np.ndarray, np.generic)) and (
        a.dtype.kind in "iu" or is_float(a.dtype))


def _to_tf(a, tf, floats):
    if isinstance(a, Tensor):
        return a._value if isinstance(a._value, tf.Tensor) else \
            tf.convert_to_tensor(a.numpy())
    if type(a) is float:   # (in the dtype of the arrays beside it)
        return tf.constant(a, dtype=floats)
    return tf.convert_to_tensor(a)


def _dtype(a):
    """A leaf's dtype as NumPy's (None for what is not an array)."""
    dtype = getattr(a, "dtype", None)
    try:
        return None if dtype is None else \
            np.dtype(getattr(dtype, "as_numpy_dtype", dtype))
    except (TypeError, ValueError):
        return None


def _outputs(name, out, tf):
    return checked("to_tensorflow", name, out, structure.flatten(out),
                   tf.Tensor, "a tf.Tensor")
