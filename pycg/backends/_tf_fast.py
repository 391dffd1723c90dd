"""TensorFlow's C fast path for eager kernels.

A generated op wrapper (tensorflow.python.ops.gen_*_ops) passes through two
dispatch decorators before it reaches TFE_Py_FastPathExecute, TensorFlow's C
entry for an eager op; `fast` calls that entry directly while executing
eagerly, and the wrapper itself otherwise (while tracing, or when the fast
path declines or fails: the wrapper converts the inputs, and raises
TensorFlow's own error for a real failure).
"""
from tensorflow.python import pywrap_tfe
from tensorflow.python.eager import context as _context

_execute = pywrap_tfe.TFE_Py_FastPathExecute


def fast(op_name, generated):
    """A kernel running TensorFlow op `op_name` (no attributes besides the
    inferred dtype), `generated` being its gen_*_ops wrapper."""
    def kernel(*args):
        ctx = _context._context
        if ctx is not None and ctx._thread_local_data.is_eager:
            try:
                return _execute(ctx, op_name, None, *args)
            except Exception:  # noqa: S110 (the wrapper runs it again)
                pass
        return generated(*args)
    kernel.__name__ = kernel.__qualname__ = generated.__name__
    return kernel
