"""Python operators on Tensor, each one a pycg op (on a Variable: the op
on its read, as tf.Variable's operators), and the protocol TensorFlow
converts a Tensor through."""
from pycg import backends
from pycg.ops import elementwise as E
from pycg.ops import linalg as L
from pycg.ops import manipulation as S
from pycg.ops._machinery.dispatch import as_tensor
from pycg.tensor import Tensor, Variable


def _r(op):
    return getattr(op, "reflected", None) or (
        lambda self, other: op(other, self))


def install():
    ops = {
        "__add__": E.add, "__radd__": _r(E.add),
        "__sub__": E.subtract, "__rsub__": _r(E.subtract),
        "__mul__": E.multiply, "__rmul__": _r(E.multiply),
        "__truediv__": E.divide, "__rtruediv__": _r(E.divide),
        "__pow__": E.power, "__rpow__": _r(E.power),
        "__mod__": E.mod, "__rmod__": _r(E.mod),
        "__floordiv__": E.floor_divide, "__rfloordiv__": _r(E.floor_divide),
        "__matmul__": L.matmul, "__rmatmul__": _r(L.matmul),
        "__eq__": E.equal, "__ne__": E.not_equal,
        "__lt__": E.less, "__le__": E.less_equal,
        "__gt__": E.greater, "__ge__": E.greater_equal,
        "__and__": E.logical_and, "__or__": E.logical_or,
        "__neg__": E.negative, "__abs__": E.abs,
        "__invert__": E.logical_not,
        "__getitem__": S.getitem,
    }
    for name, fn in ops.items():
        setattr(Tensor, name, fn)
        setattr(Variable, name, _on_read(fn))
    Tensor.__pos__ = lambda self: self
    Tensor.__tf_tensor__ = _tf_tensor


def _on_read(method):
    def on_read(self, *args):   # (read once, then the tensor's own path)
        return method(as_tensor(self), *args)
    on_read.__name__ = getattr(method, "__name__", "operator")
    return on_read


def _tf_tensor(self, dtype=None, name=None):
    # tf.convert_to_tensor(t): the TensorFlow value itself, so that a
    # tf.GradientTape follows pycg's TensorFlow kernels
    return backends.load("tensorflow").tf_tensor(self._value, dtype, name)
