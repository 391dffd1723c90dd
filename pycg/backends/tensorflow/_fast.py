"""TensorFlow's C fast path for eager kernels.

A generated op wrapper (tensorflow.python.ops.gen_*_ops) passes through two
dispatch decorators before it reaches TFE_Py_FastPathExecute, TensorFlow's C
entry for an eager op; `fast` calls that entry directly while executing
eagerly, and the wrapper itself otherwise (while tracing, or when the fast
path declines or fails: the wrapper converts the inputs, and raises
TensorFlow's own error for a real failure). And the cached constants
that keep ops on that path: Python numbers as scalars of a dtype, axes and
shapes as int32 vectors.

TensorFlow records the Python stack at every eager op, this entry
included: its innermost frames, each with its line number, found by a scan
of the frame's code from its start to its current call (~5 ns per location
entry, several microseconds per op over a deep stack of long functions).
So pycg's frames between the user and a kernel (the ops' fast paths, the
backward loop, the tape, custom_gradient) make that call early in their
body and leave rare cases to helpers (tests/test_tensorflow_fast_path.py
holds each to a budget).
"""
import numpy as np
import tensorflow as tf
from tensorflow.python import pywrap_tfe
from tensorflow.python.eager import context as _context
from tensorflow.python.framework.ops import EagerTensor as _EagerTensor

_execute = pywrap_tfe.TFE_Py_FastPathExecute


def fast(op_name, generated, inputs=1):
    """A kernel of `inputs` (1 or 2) tensors running TensorFlow op
    `op_name` (no attributes besides the inferred dtype), `generated` being
    its gen_*_ops wrapper. (Fixed arity: packing and unpacking *args costs
    ~0.15 us of a ~4 us eager op.)"""
    def kernel1(x):
        ctx = _context._context
        if ctx is not None and ctx._thread_local_data.is_eager:
            try:
                return _execute(ctx, op_name, None, x)
            except Exception:  # noqa: S110 (the wrapper runs it again)
                pass
        return generated(x)

    def kernel2(x, y):
        ctx = _context._context
        if ctx is not None and ctx._thread_local_data.is_eager:
            try:
                return _execute(ctx, op_name, None, x, y)
            except Exception:  # noqa: S110 (the wrapper runs it again)
                pass
        return generated(x, y)
    kernel = {1: kernel1, 2: kernel2}[inputs]
    kernel.__name__ = kernel.__qualname__ = generated.__name__
    return kernel


# ---- cached constants -------------------------------------------------------
_scalars = {}


def _constant(value, dtype):
    # eager even while tracing, so the cache is safe to reuse in any graph;
    # from a NumPy array, because tf.constant's own scalar cache returns a
    # cached -0.0 for 0.0
    with tf.init_scope():
        return tf.convert_to_tensor(np.asarray(value, dtype=dtype))


def _tracing():
    ctx = _context._context
    return ctx is None or not ctx._thread_local_data.is_eager


def _in_graph(value, dtype):
    """While tracing, a constant is a Const of the graph, not the cache's
    eager tensor: captured, it would be an input Grappler cannot fold and
    shape inference cannot read (an axis, a shape)."""
    return tf.constant(np.asarray(value, dtype=dtype))


def _int32(values):
    """A cached int32 vector (axes, a shape): the generated ops take it as
    is, where a Python tuple costs a conversion per call."""
    if _tracing():
        return _in_graph(values, np.int32)
    key = ("int32", values)
    c = _scalars.get(key)
    if c is None:
        c = _scalars[key] = _constant(values, np.int32)
    return c


def scalar(value, dtype):
    """A cached constant: converting a Python number costs ~30 us."""
    if _tracing():
        return _in_graph(value, dtype)
    key = (value, dtype) if value else (repr(value), dtype)
    c = _scalars.get(key)
    if c is None:
        if len(_scalars) > 4096:
            _scalars.clear()
        c = _scalars[key] = _constant(value, dtype)
    return c


def scalar_like(number, x):
    """`number` as a cached constant of x's dtype (weakly typed)."""
    # (an eager tensor's dtype enum: hashing a tf.DType costs ~0.3 us)
    return _like(number, x, x._datatype_enum() if type(x) is _EagerTensor
                 else x.dtype)


float_dtypes = (tf.float16, tf.bfloat16, tf.float32, tf.float64)
complex_dtypes = (tf.complex64, tf.complex128)
_FLOAT_ENUMS = frozenset(d.as_datatype_enum for d in float_dtypes)


_INEXACT_ENUMS = _FLOAT_ENUMS | {d.as_datatype_enum for d in complex_dtypes}
_BOOL = tf.bool.as_datatype_enum


# a value's dtype as a key to compare, for values of `types` (an eager
# tensor's enum: reading x.dtype costs ~0.1 us)
dtype_key = _EagerTensor._datatype_enum


def inexact(x):
    """x (a value of this backend) is floating or complex; an eager
    tensor's dtype enum (a tf.DType costs ~0.1 us to read, ~0.1 to hash)."""
    if type(x) is _EagerTensor:
        return x._datatype_enum() in _INEXACT_ENUMS
    return x.dtype.is_floating or x.dtype.is_complex


def grad_like(g, x):
    """g can stand as x's gradient as it is: both eager, one floating dtype
    and one shape (else the caller checks and converts)."""
    if type(g) is not _EagerTensor or type(x) is not _EagerTensor:
        return False
    dt = g._datatype_enum()
    return dt in _FLOAT_ENUMS and dt == x._datatype_enum() and \
        g._shape_tuple() == x._shape_tuple()


weak_caches = {}   # (numpy's: by value type; an EagerTensor's says nothing)
# dtype enum -> {nonzero Python number: cached constant}: weak_scalar's hot
# case, one dictionary lookup (an int and a float share a key only when
# they are equal, and then give the same constant; zero is never a key, so
# -0.0 keeps its sign)
_weak = {}


def weak_scalar(number, x):
    """scalar_like(number, x) for an eager x that needs no promotion next
    to a Python int or float `number` (an int, or x floating); else None
    (the op promotes)."""
    if type(x) is not _EagerTensor:
        return None
    dt = x._datatype_enum()
    if type(number) is float and dt not in _FLOAT_ENUMS or dt == _BOOL:
        return None   # (bool and int: int32)
    c = _weak.get(dt)
    if c is not None and number:
        v = c.get(number)
        if v is not None:
            return v
    try:
        return _like(number, x, dt)
    except OverflowError:   # (the op says which number and dtype)
        return None


def _like(number, x, dt):
    if type(x) is not _EagerTensor and _tracing():
        return _in_graph(number, x.dtype.as_numpy_dtype)
    key = (number, type(number), dt) if number else (repr(number), dt)
    c = _scalars.get(key)
    if c is None:
        if len(_scalars) > 4096:
            _scalars.clear()
            _weak.clear()
        c = _scalars[key] = _constant(number, x.dtype.as_numpy_dtype)
    if number and type(x) is _EagerTensor and type(number) in (int, float):
        _weak.setdefault(dt, {})[number] = c
    return c
