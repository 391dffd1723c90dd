"""The op fast path: convert inputs, run the kernel, record if a tape is on.

Every public op goes through `apply` (differentiable) or `apply_nograd`.
Dtype promotion for binary ops lives here too: Python numbers are weakly
typed (they take the tensor's dtype), two tensors promote as NumPy does.
"""
import numbers

import numpy as np

from pycg import backends
from pycg.tape import Rule, _tls, record
from pycg.tensor import Tensor, convert_to_tensor

RULES = {}


def defvjp(name, *fns, broadcast=False):
    """Register the VJP of op `name`: one function per input, each called
    as fn(upstream, output, *inputs, **params). `None` marks an input that
    never gets a gradient."""
    if name in RULES:
        raise ValueError(f"pycg: a VJP for {name!r} is registered twice")
    fns = tuple(fn if fn is not None else _no_grad for fn in fns)
    RULES[name] = Rule(name, fns, broadcast)


def _no_grad(*_, **__):
    return None


def as_tensor(x, op=None):
    if type(x) is Tensor and backends.active.owns(x._value):
        return x
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


def promote(x, y, op):
    """Two tensors of one dtype; Python numbers take the other's dtype."""
    xn = isinstance(x, numbers.Number) and not isinstance(x, Tensor)
    yn = isinstance(y, numbers.Number) and not isinstance(y, Tensor)
    if xn and not yn:
        y = as_tensor(y, op)
        return _scalar_like(x, y), y
    if yn and not xn:
        x = as_tensor(x, op)
        return x, _scalar_like(y, x)
    x, y = as_tensor(x, op), as_tensor(y, op)
    dx, dy = x.dtype, y.dtype
    if dx != dy:
        dt = np.result_type(dx, dy)
        from pycg.ops.creation import cast
        x, y = cast(x, dt), cast(y, dt)
    return x, y


def _scalar_like(number, t):
    dt = t.dtype
    if dt.kind in "iub" and isinstance(number, float) and \
            not float(number).is_integer():
        dt = np.dtype("float32")
    return Tensor(backends.active.scalar(number, dt))


def check_broadcast(op, x, y):
    try:
        np.broadcast_shapes(x.shape, y.shape)
    except ValueError:
        raise ValueError(
            f"pycg.ops.{op}: shapes {x.shape} and {y.shape} cannot be "
            f"broadcast together") from None


def unary(name, kernel_name=None, doc=None):
    kernel_name = kernel_name or name

    def op(x):
        x = as_tensor(x, name)
        return apply(name, getattr(backends.active, kernel_name), (x,))
    op.__name__ = op.__qualname__ = name
    op.__doc__ = doc or f"Elementwise {name}(x), differentiable."
    return op


def binary(name, kernel_name=None, grad=True):
    kernel_name = kernel_name or name

    def op(x1, x2):
        x1, x2 = promote(x1, x2, name)
        if x1._value.shape != x2._value.shape:
            check_broadcast(name, x1, x2)
        kernel = getattr(backends.active, kernel_name)
        if grad:
            return apply(name, kernel, (x1, x2))
        return apply_nograd(kernel, (x1, x2))
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
