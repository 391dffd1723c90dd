"""The op fast path: convert inputs, promote dtypes, run the kernel.

Ops run kernels through `apply` / `apply_nograd` of pycg.core (imported
here for them), or through the `unary` / `binary` factories below, which
inline the same steps for the hottest ops. Dtype promotion follows Keras: a
Python number takes the tensor's dtype (a Python float next to an integer
tensor makes both floatx), two tensors promote with `result_dtype`.
"""
import numpy as np

from pycg import backends, config
from pycg._errors import Dtype, Op, user_error
from pycg.backends import COMPLEX_DTYPES, FLOAT_DTYPES
from pycg.core.recorder import (RULES, apply, apply_nograd,  # noqa: F401
                                record, record_one, saw_variable,
                                state)  # (ops take apply* from here)
from pycg.ops._machinery import int_casts
from pycg.ops._machinery.arguments import host_astype, norm_axis  # noqa: F401  (ops take it here)
from pycg.ops._machinery.failures import check_broadcast, explain_failure  # noqa: F401
from pycg.ops._machinery.named import raise_named
from pycg.tensor import (Tensor, Variable, as_dtype, convert_to_tensor,
                         is_differentiable)
from pycg.tensor.convert import PYTHON_NUMBERS as _NUMBERS
from pycg.tensor.convert import is_python_number  # noqa: F401  (ops take it here)

def as_tensor(x, op=None):
    if type(x) is Tensor and type(x._value) in backends.active.types:
        return x
    if type(x) is Variable:
        if x.trainable and state().active:
            saw_variable(x)
        return x.read()
    if type(x) in (list, tuple) and _holds_tensors(x):
        # a nested list of tensors is stacked by a recorded op, so the
        # gradient reaches each tensor (TensorFlow and JAX do the same)
        return _stack[0]([as_tensor(item, op) for item in x])
    try:
        return convert_to_tensor(x)
    except (TypeError, ValueError, OverflowError) as e:
        where = f"pycg.ops.{op}" if op else "pycg"
        raise type(e)(f"{where}: {e}".replace("pycg.convert_to_tensor: ", "")
                      ) from None


_stack = []   # ops.stack, registered by pycg.ops (it is above this module)


def register_stack(stack):
    _stack[:] = [stack]


def _holds_tensors(x):
    return any(isinstance(item, Tensor) or type(item) in (list, tuple) and
               _holds_tensors(item) for item in x)


_NONE = {}   # (no weak cache: read only)


# the differentiable elementwise ops: an input's gradient at a position comes
# from the upstream at that position alone (the backward loop's strong zeros,
# pycg.core.backward); filled by the factories and `elementwise` at import
ELEMENTWISE = set()


def elementwise(op):
    """Mark `op`, an elementwise op written by hand (one `apply` of a rule
    of its name), as unary and binary mark theirs; returns op."""
    ELEMENTWISE.add(op.__name__)
    return op


@elementwise
def cast(x, dtype):
    """x converted to `dtype`; differentiable between float dtypes.

    A float cast to an integer has one answer on every backend, TensorFlow's
    on x86: NaN, +-inf and values outside int32 (int64 for int64) are
    INT_MIN; narrower types take that int32's low bits; uint32 and uint64
    its (int64's) bits, a value in their upper half itself (-1.0 as uint32
    is 2**32 - 1, NaN 2**31; pycg.conventions).

    Args:
        dtype: The dtype to convert to (a name, pycg.float32 or a NumPy dtype).

    Returns:
        A tensor of x's shape in `dtype`.

    Example:
        >>> from pycg import ops
        >>> ops.cast([1.7, -1.7], 'int32').numpy().tolist()
        [1, -1]
    """
    dtype = as_dtype(dtype, "pycg.ops.cast")
    x = as_tensor(host_astype(x, dtype), "cast")
    if x.dtype == dtype:
        return x
    if int_casts.applies(x.dtype, dtype):   # (one answer: int_casts.py)
        return apply("cast", _float_to_int, (x,), {"dtype": dtype})
    return apply("cast", backends.active.cast, (x,), {"dtype": dtype})


def _float_to_int(v, dtype):
    return int_casts.float_to_int(backends.active, v, dtype)


def _to_floatx(x):
    return cast(x, config.floatx())


def weak_value(t, number, op, floating=False):
    """Tensor t next to a Python number (is_python_number): (t, the number
    as a value of t's dtype). The number takes t's dtype where it can
    (Keras' weak types: the backend's weak_scalar, its cache read inline
    for the hot case); otherwise a Python float next to an integer or bool
    tensor makes both floatx, whatever its value, and so does any number
    for an op that gives floats (`floating`: divide); a Python int next to
    a bool tensor makes both int32 (Keras)."""
    K = backends.active
    if type(t) is Tensor:
        v = t._value
        c = K.weak_caches.get(type(v))
        w = c.get(number) if c is not None and number else None
        if w is None:
            w = K.weak_scalar(number, v)   # None: a promotion is needed
            if floating and w is not None and not K.inexact(v):
                w = None
        if w is not None:
            return t, w
    if type(t) is not Tensor or type(t._value) not in K.types:
        t = as_tensor(t, op)
    if (type(number) is float or floating) and \
            t._value.dtype not in FLOAT_DTYPES and \
            t._value.dtype not in COMPLEX_DTYPES:
        t = _to_floatx(t)
    elif t.dtype == np.bool_:
        t = cast(t, "int32")
    try:
        return t, K.scalar_like(number, t._value)
    except OverflowError:
        raise OverflowError(
            f"pycg.ops.{op}: the Python int {number} does not fit the "
            f"tensor's dtype {t.dtype.name}; cast the tensor to a wider "
            f"dtype, or pass a typed value such as np.int64({number})"
        ) from None


def promote(x, y, op, floating=False):
    """Two tensors of one dtype (see weak_value and result_dtype);
    `floating`: of a floating or complex dtype (floatx for two integer or
    bool operands, as Keras' divide)."""
    tx, ty = type(x), type(y)
    if tx is Tensor and ty is Tensor and not floating:
        vx, vy = x._value, y._value
        types = backends.active.types
        if type(vx) in types and type(vy) in types and (
                vx.dtype is vy.dtype or vx.dtype == vy.dtype):
            return x, y
    xn, yn = is_python_number(x), is_python_number(y)
    if yn and not xn:
        x, v = weak_value(x, y, op, floating)
        return x, Tensor(v)
    if xn and not yn:
        y, v = weak_value(y, x, op, floating)
        return Tensor(v), y
    x, y = as_tensor(x, op), as_tensor(y, op)
    dx, dy = x.dtype, y.dtype
    dt = result_dtype(dx, dy) if dx != dy else dx
    if floating and not is_differentiable(dt):
        dt = np.dtype(config.floatx())
    if dx != dt:
        x = cast(x, dt)
    if dy != dt:
        y = cast(y, dt)
    return x, y


def result_dtype(*dtypes):
    """Keras' promotion: the widest float if any operand is a float (int32
    with float32 stays float32), else NumPy's rule for ints and bools."""
    inexact = [np.dtype(d) for d in dtypes if is_differentiable(d)]
    if any(d.kind == "c" for d in inexact):
        return np.result_type(*[d if d.kind == "c" or d.itemsize > 2 else
                                np.dtype("float32") for d in inexact])
    floats = inexact
    if len(set(floats)) > 1 and all(d.itemsize == 2 for d in floats):
        return np.dtype("float32")   # float16 with bfloat16, as in Keras
    if floats:
        return max(floats, key=lambda d: d.itemsize)
    return np.result_type(*dtypes)


def unary(name, kernel_name=None, doc=None, float_only=False, integers=None,
          real=False):
    """An elementwise op; float_only ops take integer and bool inputs as
    floatx (Keras' rule: ops.exp(1) is a float); `integers(x)`, for an
    integer or bool tensor x, is the op's result where Keras' differs from
    the kernel's, else None (the kernel runs); `real` ops refuse complex
    inputs."""
    kernel_name = kernel_name or name

    def op(x):
        K = backends.active
        if type(x) is not Tensor or type(v := x._value) not in K.float_types \
                and (type(v) not in K.types or real or not K.inexact(v)):
            # (not a float value of this backend: in _operand, so that the
            # kernel call stays early in this body, as in binary)
            x, v, out = _operand(x, name, float_only, integers, real)
            if out is not None:
                return out
        try:
            out = Tensor(getattr(K, kernel_name)(v))
        except Exception as e:   # (a dtype the kernel has no version of)
            raise_named(name, e)
        recorders = state().recorders
        if recorders:
            record_one(recorders, RULES[name], x, out)
        return out
    op.__name__ = op.__qualname__ = name
    op.__doc__ = doc
    return elementwise(op)


def made_by(factory, *args, **options):
    """An op that `factory` (unary, binary, ...) makes, written as a
    function: over a stub `def name(x):` whose body is its docstring, it gives
    factory(name, *args, **options) with the stub's docstring, so that such
    an op reads, and is documented, where it is declared."""
    def make(stub):
        op = factory(stub.__name__, *args, **options)
        op.__doc__ = stub.__doc__
        return op
    return make


def _operand(x, op, float_only, integers, real):
    """A unary op's operand where it is not a float value of the active
    backend: (x as a tensor, its value, the op's result where `integers`
    gives it, else None)."""
    K = backends.active
    if type(x) is not Tensor or type(x._value) not in K.types:
        x = as_tensor(x, op)
    v = x._value
    if real and v.dtype in COMPLEX_DTYPES:
        raise user_error(TypeError, "{op}: expected a real tensor, got {dtype}",
                         op=Op(op), dtype=Dtype(x.dtype.name))
    if float_only and not K.inexact(v):
        x = _to_floatx(x)
        return x, x._value, None
    if integers is not None and not K.inexact(v):
        return x, v, integers(x)
    return x, v, None


def binary(name, kernel_name=None, grad=True, floating=False):
    """An elementwise op of two operands; `op.reflected(self, other)` is
    the same op as a reflected operator (other OP self), one frame fewer
    than a lambda. `floating`: two integer or bool operands are floatx
    first (Keras' divide)."""
    kernel_name = kernel_name or name

    def make(reflected):
        def run(x1, x2):   # (reflected: x2 OP x1)
            # the kernel called early (TensorFlow's stack capture scans the
            # code before: backends/tensorflow/_fast.py), a tensor and a
            # Python number first; the rare cases in _operands
            K = backends.active
            t2 = type(x2)
            if (t2 is float or t2 is int) and type(x1) is Tensor:
                v = x1._value   # (weak_value's hot case: its cache read)
                w = K.weak_caches.get(type(v), _NONE).get(x2) if x2 else None
                if w is None:
                    x1, w = weak_value(x1, x2, name, floating)
                    v = x1._value
                if reflected:
                    v1, v2, x2 = w, v, x1
                    x1 = None
                else:
                    v1, v2, x2 = v, w, None
                try:
                    out = Tensor(getattr(K, kernel_name)(v1, v2))
                except Exception as e:
                    out = _failed(name, kernel_name, v1, v2, e)
            else:
                if t2 is Tensor and type(x1) is Tensor:
                    if reflected:
                        x1, x2 = x2, x1
                    v1, v2 = x1._value, x2._value   # (promote's fast case)
                    tv = type(v1)   # (a float scalar type is its dtype)
                    if (tv is not type(v2) or tv not in K.float_types) and (
                            tv not in K.types or type(v2) not in K.types or
                            K.dtype_key(v1) != K.dtype_key(v2) or
                            floating and not K.inexact(v1)):
                        x1, x2, v1, v2 = _operands(x1, x2, name, floating)
                else:
                    x1, x2, v1, v2 = _operands(x1, x2, name, floating,
                                               reflected)
                try:
                    out = Tensor(getattr(K, kernel_name)(v1, v2))
                except Exception as e:
                    out = _failed(name, kernel_name, v1, v2, e)
            if grad and (recorders := state().recorders):
                record(recorders, RULES[name], (
                    Tensor(v1) if x1 is None else x1,
                    Tensor(v2) if x2 is None else x2), out)
            return out
        return run

    op = make(False)
    op.__name__ = op.__qualname__ = name
    op.reflected = make(True)
    return elementwise(op) if grad else op


def _failed(op, kernel_name, v1, v2, e):
    """A binary kernel failed: the backend's edge kernel (TensorFlow's Mul
    lacks bools and complex numbers: NumPy's), else op's error."""
    kernel = getattr(backends.active, "edge_" + kernel_name, None)
    out = kernel and kernel(v1, v2)
    if out is None:
        explain_failure(op, v1, v2)
        raise_named(op, e)
    return Tensor(out)


def _operands(x1, x2, op, floating, reflected=False):
    """A binary op's operands in the cases its fast path leaves (reflected:
    x2 OP x1): (x1, x2, v1, v2) in kernel order, as tensors and values,
    with None for the tensor of a Python number."""
    if reflected:
        x1, x2 = x2, x1
    t1, t2 = type(x1), type(x2)
    if t1 is Tensor and t2 in _NUMBERS:
        x1, w = weak_value(x1, x2, op, floating)
        return x1, None, x1._value, w
    if t2 is Tensor and t1 in _NUMBERS:
        x2, w = weak_value(x2, x1, op, floating)
        return None, x2, w, x2._value
    if t1 is Variable or t2 is Variable:   # (their reads)
        return _operands(as_tensor(x1, op) if t1 is Variable else x1,
                         as_tensor(x2, op) if t2 is Variable else x2, op,
                         floating)
    x1, x2 = promote(x1, x2, op, floating)
    return x1, x2, x1._value, x2._value
