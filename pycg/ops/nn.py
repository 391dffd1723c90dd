"""Activations and log-space ops (keras.ops names); most are compositions
of differentiable ops, so they need no rule of their own."""
import math

from pycg import backends
from pycg._errors import Dtype, Op, user_error
from pycg.backends import FLOAT_DTYPES
from pycg.ops._machinery.dispatch import (apply, as_tensor, elementwise,
                                          norm_axis)
from pycg.ops._machinery.floats import as_float
from pycg.ops.creation import stop_gradient
from pycg.ops.elementwise import (exp, expm1, greater, isfinite, log,
                                  minimum, real, tanh, where)
from pycg.ops.numeric import erfc
from pycg.ops.reduction import max, sum

__all__ = ("elu", "gelu", "log_softmax", "logsumexp", "relu", "sigmoid",
           "silu", "softmax", "softplus")


@elementwise
def sigmoid(x):
    """1 / (1 + exp(-x)), computed without overflow.

    Returns:
        A tensor of x's shape: x's float dtype, floatx for an integer or bool x.

    Example:
        >>> from pycg import ops
        >>> float(ops.sigmoid(0.0))
        0.5
    """
    return apply("sigmoid", backends.active.sigmoid,
                 (as_float(x, "sigmoid"),))


@elementwise
def softplus(x):
    """log(1 + exp(x)), computed without overflow.

    Returns:
        A tensor of x's shape: x's float dtype, floatx for an integer or bool x.
    """
    return apply("softplus", backends.active.softplus,
                 (as_float(x, "softplus", complex_ok=False),))


@elementwise
def relu(x):
    """max(x, 0); the gradient at 0 is 0. Integers stay integers (as
    TensorFlow's kernel); bool and complex inputs are refused.

    Returns:
        A tensor of x's shape and dtype.

    Example:
        >>> from pycg import ops
        >>> ops.relu([-1.0, 2.0]).numpy().tolist()
        [0.0, 2.0]
    """
    x = as_tensor(x, "relu")
    if x.dtype.kind in "bc":
        raise user_error(
            TypeError, "{op}: expected a real number tensor, got {dtype}",
            op=Op("relu"), dtype=Dtype(x.dtype.name))
    return apply("relu", backends.active.relu, (x,))


def silu(x):
    """x * sigmoid(x).

    Returns:
        A tensor of x's shape: x's float dtype, floatx for an integer or bool x.
    """
    x = as_float(x, "silu")
    return x * sigmoid(x)


def gelu(x, approximate=True):
    """Gaussian error linear unit (tanh approximation by default, as Keras).

    Args:
        approximate: Use the tanh approximation (else the exact erf form).

    Returns:
        A tensor of x's shape: x's float dtype, floatx for an integer or bool x.
    """
    x = as_float(x, "gelu", complex_ok=False)
    if approximate:
        c = math.sqrt(2 / math.pi)
        return 0.5 * x * (1 + tanh(c * (x + 0.044715 * x * x * x)))
    # (TensorFlow's form: 1 + erf(z) loses z's tail and TensorFlow's float64
    # erf is nan beyond 1e154)
    return 0.5 * x * erfc(x * (-1 / math.sqrt(2)))


def elu(x, alpha=1.0):
    """x where x > 0, else alpha * (exp(x) - 1).

    Args:
        alpha: The value elu approaches as x -> -inf is -alpha.

    Returns:
        A tensor of x's shape: x's float dtype, floatx for an integer or bool x.
    """
    return elu_with(as_float(x, "elu", complex_ok=False), alpha, greater)


def elu_with(x, alpha, positive):
    """elu with `positive` (greater or greater_equal) saying which side
    takes 0, for the gradient there (selu takes TensorFlow's)."""
    return where(positive(x, 0), x, alpha * expm1(minimum(x, 0)))


def _shift(x, axis, op):
    """The max along `axis` (kept), no gradient, for a stable exp: 0 where
    an axis reduced is empty (the max of nothing has no value)."""
    axes = norm_axis(tuple(range(x.ndim)) if axis is None else axis, x.ndim,
                     op)
    if any(x.shape[a] == 0 for a in axes):
        return 0
    if x.dtype.kind == "c":   # (a real shift keeps log on its principal
        x = real(x)           # branch, as scipy.special's)
    return stop_gradient(max(x, axis=axis, keepdims=True))


def logsumexp(x, axis=None, keepdims=False):
    """log(sum(exp(x))) along axis, shifted by the max for stability
    (-inf over an empty axis).

    Returns:
        A float tensor: x's shape without the reduced axes (kept as length 1
        with keepdims).

    Differs:
        A bfloat16 x answers in bfloat16 (Keras cannot read its own result
        back). Complex x is answered on both backends as scipy.special does
        (Keras on TensorFlow has no complex kernel).
    """
    x = as_tensor(x, "logsumexp")
    m = _shift(x, axis, "logsumexp")
    if type(m) is not int:
        m = where(isfinite(m), m, 0)
    out = log(sum(exp(x - m), axis=axis, keepdims=True)) + m
    if keepdims:
        return out
    from pycg.ops.manipulation import squeeze
    return squeeze(out, axis=axis) if axis is not None else \
        squeeze(out)


def softmax(x, axis=-1):
    """exp(x) / sum(exp(x)) along axis.

    Args:
        axis: The axis to normalise along (negative counts from the last).

    Returns:
        A tensor of x's shape: x's float dtype, floatx for an integer or bool
        x. Sums to 1 along axis.

    Differs:
        Complex x is answered on both backends as scipy.special does (Keras on
        TensorFlow has no complex kernel).

    Example:
        >>> from pycg import ops
        >>> ops.softmax([0.0, 0.0]).numpy().tolist()
        [0.5, 0.5]
    """
    x = as_tensor(x, "softmax")
    e = exp(x - _shift(x, axis, "softmax"))
    return e / sum(e, axis=axis, keepdims=True)


def log_softmax(x, axis=-1):
    """x - logsumexp(x) along axis (TensorFlow's fused kernel on the
    tensorflow backend, this composition's own kernels on numpy).

    Args:
        axis: The axis to normalise along (negative counts from the last).

    Returns:
        A tensor of x's shape: x's float dtype, floatx for an integer or bool x.

    Differs:
        Complex x is answered on both backends as scipy.special does (Keras on
        TensorFlow has no complex kernel).
    """
    x = as_tensor(x, "log_softmax")
    K = backends.active
    kernel = getattr(K, "log_softmax", None)
    if kernel is not None and isinstance(axis, int) and x.ndim and \
            x.dtype in FLOAT_DTYPES:
        axis = norm_axis(axis, x.ndim, "log_softmax")[0]
        return apply("log_softmax", kernel, (x,), {"axis": axis})
    return x - logsumexp(x, axis=axis, keepdims=True)
