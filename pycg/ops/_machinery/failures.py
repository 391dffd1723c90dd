"""Clear errors for an elementwise kernel that failed on what a user
passed: which op, what was expected, what arrived."""
import numpy as np

from pycg import backends
from pycg._errors import Op, Shape, user_error


def check_broadcast(op, x, y):
    """Raise a clear error if x and y (tensors or values) do not broadcast."""
    sx, sy = tuple(x.shape), tuple(y.shape)
    try:  # a dimension unknown while tracing (None) is not checked
        np.broadcast_shapes(*[[1 if n is None else n for n in s]
                              for s in (sx, sy)])
    except ValueError:
        raise user_error(ValueError, "{op}: shapes {x} and {y} cannot be "
                         "broadcast together", op=Op(op), x=Shape(sx),
                         y=Shape(sy)) from None


def explain_failure(op, v1, v2):
    """After an elementwise kernel failed on v1 and v2: a clear error for
    what a user can cause (shapes that do not broadcast, an integer to a
    negative integer power, bools subtracted), else nothing (the kernel's
    own error stands)."""
    check_broadcast(op, v1, v2)
    K = backends.active
    d1, d2 = (np.dtype(K.dtype_of(v)) for v in (v1, v2))
    if op == "power" and d1.kind in "biu" and d2.kind in "iu" and \
            _negative(K, v2):
        raise ValueError(
            f"pycg.ops.power: an integer base to a negative integer power is "
            f"not allowed (got {d1.name} and {d2.name}, as in NumPy and "
            f"TensorFlow); cast the base to a float dtype first") from None
    if op == "subtract" and d1 == np.bool_ and d2 == np.bool_:
        raise TypeError(
            "pycg.ops.subtract: bool tensors cannot be subtracted (as in "
            "NumPy and TensorFlow); use ops.logical_xor, or cast to a "
            "number dtype first") from None


def _negative(K, v):
    """Any element of v below zero; False where v has no value yet (a
    symbolic tensor while tracing: the kernel's own error stands)."""
    try:
        return bool((np.asarray(K.to_numpy(v)) < 0).any())
    except Exception:
        return False
