"""The op fast path: convert inputs, run the kernel, record if a tape is on.

Every public op goes through `apply` (differentiable) or `apply_nograd`.
Dtype promotion lives here too, with Keras' rules: a Python number takes
the tensor's dtype (a Python float next to an integer tensor makes both
floatx), two tensors promote with `result_dtype`.
"""
import functools
import itertools
import numbers

import numpy as np

from pycg import backends
from pycg.backends import FLOAT_DTYPES
from pycg.tape import Rule, _saw_variable, _tls, record
from pycg.tensor import Tensor, Variable, convert_to_tensor

RULES = {}


def defvjp(name, *fns, broadcast=False):
    """Register the VJP of op `name`: one function per input, each called
    as fn(upstream, output, *inputs, **params). `None` marks an input that
    never gets a gradient."""
    if name in RULES:
        raise ValueError(f"pycg: a VJP for {name!r} is registered twice")
    fns = tuple(fn if fn is not None else _no_grad for fn in fns)
    RULES[name] = Rule(name, fns, broadcast)


def defvjp_each(name, fn):
    """Register the VJP of an op with any number of inputs: fn(i, upstream,
    output, *inputs, **params) gives the gradient for input i."""
    defvjp(name)
    RULES[name].fns = _PerInput(fn)


class _PerInput:
    """fns of a variadic rule: the backward loop zips it with the inputs."""

    def __init__(self, fn):
        self.fn = fn

    def __iter__(self):
        return (functools.partial(self.fn, i) for i in itertools.count())


def _no_grad(*_, **__):
    return None


def as_tensor(x, op=None):
    if type(x) is Tensor and type(x._value) in backends.active.types:
        return x
    if type(x) is Variable:
        if x.trainable and _tls.active:
            _saw_variable(x)
        return x.read()
    try:
        return convert_to_tensor(x)
    except (TypeError, ValueError) as e:
        where = f"pycg.ops.{op}" if op else "pycg"
        raise type(e)(f"{where}: {e}".replace("pycg.convert_to_tensor: ", "")
                      ) from None


def apply(name, kernel, inputs, params=None):
    """Run kernel(*values, **params) and record it under rule `name`."""
    vals = [x._value for x in inputs]
    out = Tensor(kernel(*vals, **params) if params else kernel(*vals))
    if _tls.active:
        record(RULES[name], inputs, out, params)
    return out


def apply_nograd(kernel, inputs, params=None):
    vals = [x._value for x in inputs]
    return Tensor(kernel(*vals, **params) if params else kernel(*vals))


_NUMBERS = (float, int)


def _to_floatx(x):
    from pycg import config
    from pycg.ops.creation import cast
    return cast(x, config.floatx())


def _against_number(t, number, op):
    """Tensor t next to a Python number: (t, the number as a value of t's
    dtype). A Python float next to an integer or bool tensor makes both
    floatx, whatever its value (Keras)."""
    if type(t) is not Tensor or type(t._value) not in backends.active.types:
        t = as_tensor(t, op)
    if type(number) is float and t._value.dtype not in FLOAT_DTYPES:
        t = _to_floatx(t)
    return t, backends.active.scalar_like(number, t._value)


def promote(x, y, op):
    """Two tensors of one dtype (see _against_number and result_dtype)."""
    tx, ty = type(x), type(y)
    if tx is Tensor and ty is Tensor:
        vx, vy = x._value, y._value
        types = backends.active.types
        if type(vx) in types and type(vy) in types and (
                vx.dtype is vy.dtype or vx.dtype == vy.dtype):
            return x, y
    xn = isinstance(x, numbers.Number) and not isinstance(x, Tensor)
    yn = isinstance(y, numbers.Number) and not isinstance(y, Tensor)
    if yn and not xn:
        x, v = _against_number(x, y, op)
        return x, Tensor(v)
    if xn and not yn:
        y, v = _against_number(y, x, op)
        return Tensor(v), y
    x, y = as_tensor(x, op), as_tensor(y, op)
    dx, dy = x.dtype, y.dtype
    if dx != dy:
        dt = result_dtype(dx, dy)
        from pycg.ops.creation import cast
        x, y = cast(x, dt), cast(y, dt)
    return x, y


def result_dtype(*dtypes):
    """Keras' promotion: the widest float if any operand is a float (int32
    with float32 stays float32), else NumPy's rule for ints and bools."""
    floats = [np.dtype(d) for d in dtypes if np.dtype(d).kind == "f"]
    if floats:
        return max(floats, key=lambda d: d.itemsize)
    return np.result_type(*dtypes)


def check_broadcast(op, x, y):
    """Raise a clear error if x and y (tensors or values) do not broadcast."""
    sx, sy = tuple(x.shape), tuple(y.shape)
    try:
        np.broadcast_shapes(sx, sy)
    except ValueError:
        raise ValueError(
            f"pycg.ops.{op}: shapes {sx} and {sy} cannot be broadcast "
            f"together") from None


def unary(name, kernel_name=None, doc=None, float_only=False):
    """An elementwise op; float_only ops take integer and bool inputs as
    floatx (Keras' rule: ops.exp(1) is a float)."""
    kernel_name = kernel_name or name

    def op(x):
        if type(x) is not Tensor or \
                type(x._value) not in backends.active.types:
            x = as_tensor(x, name)
        if float_only and x._value.dtype not in FLOAT_DTYPES:
            x = _to_floatx(x)
        out = Tensor(getattr(backends.active, kernel_name)(x._value))
        if _tls.active:
            record(RULES[name], (x,), out)
        return out
    op.__name__ = op.__qualname__ = name
    op.__doc__ = doc or f"Elementwise {name}(x), differentiable."
    return op


def binary(name, kernel_name=None, grad=True):
    kernel_name = kernel_name or name

    def op(x1, x2):
        K = backends.active
        t1, t2 = type(x1), type(x2)
        if t1 is Tensor and t2 in _NUMBERS:
            x1, v2 = _against_number(x1, x2, name)
            v1, x2 = x1._value, None
        elif t2 is Tensor and t1 in _NUMBERS:
            x2, v1 = _against_number(x2, x1, name)
            v2, x1 = x2._value, None
        else:
            x1, x2 = promote(x1, x2, name)
            v1, v2 = x1._value, x2._value
        try:
            out = Tensor(getattr(K, kernel_name)(v1, v2))
        except Exception:
            check_broadcast(name, v1, v2)
            raise
        if grad and _tls.active:
            record(RULES[name], (Tensor(v1) if x1 is None else x1,
                                  Tensor(v2) if x2 is None else x2), out)
        return out
    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"Elementwise {name}(x1, x2) with NumPy broadcasting."
    return op


def norm_axis(axis, ndim, op):
    """Axis (int, tuple or None) as a tuple of non-negative ints or None."""
    if axis is None:
        return None
    axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    out = []
    for a in axes:
        a = int(a)
        if not -ndim <= a < max(ndim, 1):
            raise ValueError(
                f"pycg.ops.{op}: axis {a} is out of range for a tensor of "
                f"rank {ndim}")
        out.append(a % ndim if ndim else 0)
    return tuple(out)

