"""pycg.function's common call without tf.function's dispatch.

Calling a tf.function binds the arguments to its Python signature, works
out their tracing types and looks them up in its cache of concrete
functions: ~180 us of Python on the calling thread, which was half the
calling thread's CPU time of the compiled MLP step (bench/mlp.py). Where
every argument is an eager tensor, the concrete function that call would
run depends only on their dtypes and shapes, as long as nothing else of
TensorFlow's function context differs from an eager call's: no graph being
built, no distribution strategy, no SavedModel being saved, and
`tf.config.run_functions_eagerly` off. `SignatureCalls` keeps one concrete
function per (dtype, shape) signature seen there and runs it directly
(`ConcreteFunction._call_flat`, which tf.function's own call ends in, TF
tapes included). Everything else, and the first two calls of each
signature, go through the tf.function itself: tracing, retracing and
errors are TensorFlow's own.
"""
from tensorflow.python.eager import context as _context
from tensorflow.python.eager.polymorphic_function import (
    eager_function_run as _eager_run)
from tensorflow.python.framework import ops as _ops
from tensorflow.python.framework.ops import EagerTensor as _EagerTensor
from tensorflow.python.saved_model import save_context as _save_context

LIMIT = 64   # signatures kept per function (reduce_retracing sees many)


class SignatureCalls:
    """Calls of one tf.function with flat eager tensors."""

    __slots__ = ("function", "concrete", "seen")

    def __init__(self, function):
        self.function = function
        self.concrete = {}   # signature -> ConcreteFunction
        self.seen = {}   # signature -> was its concrete function asked for

    def __call__(self, values):
        key = _signature(values)
        concrete = self.concrete.get(key) if key is not None else None
        if concrete is not None:
            return concrete._call_flat(values, concrete.captured_inputs)
        out = self.function(*values)
        if key is not None and len(self.concrete) < LIMIT:
            self._keep(key, values)
        return out

    def _keep(self, key, values):
        """At the second call of a signature (after the first, tf.function
        may retrace once for variables it created), ask tf.function for the
        concrete function it ran: a lookup, kept unless it traced anew."""
        asked = self.seen.get(key)
        if asked is None:
            if len(self.seen) < 4 * LIMIT:
                self.seen[key] = False
            return
        if asked:   # (it traced anew or failed: never again)
            return
        self.seen[key] = True
        count = self.function.experimental_get_tracing_count()
        try:
            concrete = self.function.get_concrete_function(*values)
        except Exception:  # noqa: BLE001 (the call itself worked: keep it)
            return
        if self.function.experimental_get_tracing_count() == count:
            self.concrete[key] = concrete


def _signature(values):
    """The dtypes and shapes of `values`, or None where tf.function's
    choice of concrete function may depend on more."""
    ctx = _context._context
    if ctx is None or not ctx._thread_local_data.is_eager or \
            _eager_run.RUN_FUNCTIONS_EAGERLY or \
            _save_context.in_save_context() or \
            _ops.get_default_graph()._distribution_strategy_stack:
        return None
    for v in values:
        if type(v) is not _EagerTensor:
            return None
    return tuple((v._datatype_enum(), v._shape_tuple()) for v in values)
