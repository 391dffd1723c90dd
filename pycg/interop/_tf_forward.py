"""pycg.to_tensorflow under TensorFlow's forward mode
(``tf.autodiff.ForwardAccumulator``): the tangents of the converted
function's outputs are J @ t by pycg's forward mode (``_bridge.jvp``), so
a custom_gradient rule (transposed) or a custom_jvp rule is what the
accumulator gets.

TensorFlow's public API gives no way to give an op its own JVP: for a
``tf.custom_gradient`` function an accumulator transposes the gradient
function (the double-backprop trick) or, where the outputs already carry
tangents from the ops inside f, keeps those (the first tangent recorded
for a tensor wins), and either way it does not ask pycg. So this module,
and only this one, uses three TensorFlow internals, each checked by
`internals()` (an error naming the TensorFlow version where one is
missing, and a warning on each call, which then takes the plain
``tf.custom_gradient`` path; tests/test_to_tensorflow_forward.py pins
them):

- ``pywrap_tfe.TFE_Py_PackJVPs(tensors)``: which active accumulators hold
  a tangent for the inputs (`watched`); nothing else goes this way, so a
  call with no accumulator watching its inputs is the plain
  ``tf.custom_gradient`` path, unchanged;
- ``record.stop_recording()``: the outputs made fresh (an identity that
  neither tapes nor accumulators see), so that no tangent is recorded for
  them before pycg's;
- ``record.record_operation(op, outputs, inputs, backward, forward)``: one
  record for those fresh outputs, on the tapes (`backward`: pycg's
  gradient, as ``tf.custom_gradient`` records it) and on each accumulator
  (`forward`: called with that accumulator's input tangents, None for an
  integer input, it gives the output tangents, pycg's J @ t).

Eagerly f runs on the inputs themselves (its ops seen by the accumulators,
so that a ``tf.GradientTape`` inside one, differentiating pycg's gradient,
gives forward-over-reverse Hessian-vector products by the rule's own
derivative) and the record stands in for ``tf.custom_gradient``'s. Where
TensorFlow traces (a ``tf.function`` with an accumulator inside it), the
``tf.custom_gradient`` op stays, for the graph's own gradients, and the
fresh outputs are its outputs' identities, recorded with the identity as
their gradient.
"""
import functools
import warnings

from pycg.backends._tf_import import import_tensorflow

_NAMES = (("tensorflow.python.pywrap_tfe", "TFE_Py_PackJVPs"),
          ("tensorflow.python.eager.record", "stop_recording"),
          ("tensorflow.python.eager.record", "record_operation"))


@functools.cache
def internals():
    """(PackJVPs, stop_recording, record_operation), TensorFlow's own, or
    a RuntimeError naming the TensorFlow version that lacks one."""
    import importlib
    tf = import_tensorflow()
    found = []
    for module, attr in _NAMES:
        try:
            found.append(getattr(importlib.import_module(module), attr))
        except (ImportError, AttributeError) as e:
            raise RuntimeError(
                f"pycg.to_tensorflow's forward mode (tf.autodiff."
                f"ForwardAccumulator) uses TensorFlow's internal "
                f"{module}.{attr}, which TensorFlow {tf.__version__} does "
                f"not have ({type(e).__name__}: {e}); pycg knows TensorFlow "
                f"2.21's. Reverse mode (tf.GradientTape) is unaffected; "
                f"please report this with your TensorFlow version") from None
    return tuple(found)


def watched(xs):
    """Whether an active ForwardAccumulator holds a tangent for one of the
    tensors `xs` (on this thread)."""
    try:
        pack = internals()[0]
    except RuntimeError as e:   # (reverse mode must go on)
        warnings.warn(f"{e}; until then, under a ForwardAccumulator, "
                      f"TensorFlow transposes pycg's gradient itself",
                      RuntimeWarning, stacklevel=4)
        return False
    indices, _ = pack(list(xs))
    return any(indices)


def call(name, forward, xs, tangents, tf):
    """`forward(*xs)` ((the flat list of results, grad), as
    tf.custom_gradient takes it) as one op whose gradient is `grad` and
    whose output tangents, for an accumulator's tangents `ts` of `xs`, are
    `tangents(ts)` (a flat list, None where an output has none; None for
    none at all); returns the op's flat outputs."""
    _, stop_recording, record_operation = internals()
    if tf.executing_eagerly():
        results, grad = forward(*xs)
        ins = list(xs)

        def backward(*dys):
            return list(grad(*dys))
    else:
        results = list(tf.custom_gradient(forward)(*xs))
        ins = results + list(xs)

        def backward(*dys):
            return list(dys) + [None] * len(xs)
    with stop_recording():
        ys = [tf.identity(y) for y in results]

    def forward_tangents(*ts):
        touts = tangents(list(ts[len(ins) - len(xs):]))
        return [None] * len(ys) if touts is None else touts
    record_operation(name, ys, ins, backward, forward_tangents)
    return ys
