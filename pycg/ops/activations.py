"""More activations (keras.ops names), each a composition of differentiable
pycg ops, so none needs a rule of its own. Kinks follow Keras' TensorFlow
backend where it has a choice (relu6 and hard_sigmoid pass no gradient at
their corners)."""
from pycg._errors import Axis, Op, Shape, user_error
from pycg.ops._machinery.dispatch import norm_axis
from pycg.ops.creation import cast
from pycg.ops.elementwise import (abs, clip, expm1, greater,
                                  greater_equal, less, less_equal, maximum,
                                  minimum, sqrt, tanh, where)
from pycg.ops._machinery.floats import as_float
from pycg.ops.nn import elu_with, relu, sigmoid, silu, softplus
from pycg.ops.reduction import max, sum

__all__ = ("celu", "glu", "hard_shrink", "hard_sigmoid", "hard_silu",
           "hard_swish", "hard_tanh", "leaky_relu", "log_sigmoid", "relu6",
           "selu", "soft_shrink", "softsign", "sparse_plus", "sparse_sigmoid",
           "sparsemax", "squareplus", "swish", "tanh_shrink", "threshold")

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def log_sigmoid(x):
    """log(sigmoid(x)) = -softplus(-x), without overflow.

    Returns:
        A tensor of x's shape: x's float dtype, floatx for an integer or bool x.

    Example:
        >>> from pycg import ops
        >>> round(float(ops.log_sigmoid(0.0)), 4)  # log(1/2)
        -0.6931
    """
    return -softplus(-as_float(x, "log_sigmoid", complex_ok=False))


def relu6(x):
    """min(max(x, 0), 6).

    Returns:
        A tensor of x's shape: x's float dtype, floatx for an integer or bool x.

    Differs:
        An integer or bool x computes in floatx (Keras on TensorFlow truncates
        it to integers).
    """
    return minimum(relu(as_float(x, "relu6", complex_ok=False)), 6.0)


def hard_sigmoid(x):
    """relu6(x + 3) / 6: a piecewise-linear sigmoid.

    Returns:
        A tensor of x's shape: x's float dtype, floatx for an integer or bool x.
    """
    return relu6(as_float(x, "hard_sigmoid", complex_ok=False) + 3.0) * (1.0 / 6.0)


def hard_silu(x):
    """x * hard_sigmoid(x) (also called hard_swish).

    Returns:
        A tensor of x's shape: x's float dtype, floatx for an integer or bool x.

    Differs:
        Its gradient at the kinks is the one-sided derivative on the numpy
        backend (Keras' formula gives another value).
    """
    x = as_float(x, "hard_silu", complex_ok=False)
    return x * hard_sigmoid(x)


hard_swish = hard_silu


def leaky_relu(x, negative_slope=0.2):
    """x where x > 0, else negative_slope * x.

    Args:
        negative_slope: The slope for x <= 0.

    Returns:
        A tensor of x's shape: x's float dtype, floatx for an integer or bool x.
    """
    x = as_float(x, "leaky_relu", complex_ok=False)
    return where(greater(x, 0), x, x * negative_slope)


def selu(x):
    """scale * elu(x, alpha) with the self-normalising constants; at 0 the
    gradient is scale, as TensorFlow's (elu's side, scale * alpha, is
    JAX's).

    Returns:
        A tensor of x's shape: x's float dtype, floatx for an integer or bool x.
    """
    return _SELU_SCALE * elu_with(as_float(x, "selu", complex_ok=False), _SELU_ALPHA,
                                  greater_equal)


def softsign(x):
    """x / (|x| + 1).

    Returns:
        A tensor of x's shape: x's float dtype, floatx for an integer or bool x.
    """
    x = as_float(x, "softsign", complex_ok=False)
    return x / (abs(x) + 1.0)


def swish(x):
    """x * sigmoid(x) (the same as silu).

    Returns:
        A tensor of x's shape: x's float dtype, floatx for an integer or bool x.
    """
    return silu(as_float(x, "swish"))


def celu(x, alpha=1.0):
    """max(x, 0) + alpha * expm1(min(x, 0) / alpha).

    Args:
        alpha: The scale of the negative part (> 0).

    Returns:
        A tensor of x's shape: x's float dtype, floatx for an integer or bool x.

    Differs:
        Its gradient at 0 is 1, the derivative (Keras' formula gives another
        value).
    """
    x = as_float(x, "celu", complex_ok=False)
    return relu(x) + alpha * expm1(minimum(x, 0) * (1.0 / alpha))


def glu(x, axis=-1):
    """a * sigmoid(b), with a and b the two halves of x along `axis`.

    Args:
        axis: The axis to halve (its length must be even).

    Returns:
        A tensor of x's shape with `axis` halved.
    """
    from pycg.ops.arrays import split
    x = as_float(x, "glu", complex_ok=False)
    (axis,) = norm_axis(axis, x.ndim, "glu")
    if x.shape[axis] % 2:
        raise user_error(ValueError, "{op}: x needs an even size along axis "
                         "{axis}, got shape {shape}", op=Op("glu"),
                         axis=Axis(axis), shape=Shape(x.shape))
    a, b = split(x, 2, axis=axis)
    return a * sigmoid(b)


def hard_tanh(x):
    """clip(x, -1, 1).

    Returns:
        A tensor of x's shape: x's float dtype, floatx for an integer or bool x.
    """
    return clip(as_float(x, "hard_tanh", complex_ok=False), -1.0, 1.0)


def hard_shrink(x, threshold=0.5):
    """x where |x| > threshold, else 0.

    Args:
        threshold: The half-width of the band set to 0.

    Returns:
        A tensor of x's shape: x's float dtype, floatx for an integer or bool x.

    Differs:
        A complex x is refused by name (it has no order).
    """
    x = as_float(x, "hard_shrink", complex_ok=False)
    return where(greater(abs(x), threshold), x, 0.0)


def soft_shrink(x, threshold=0.5):
    """x - threshold above it, x + threshold below -threshold, else 0.

    Args:
        threshold: The amount x is moved towards 0.

    Returns:
        A tensor of x's shape: x's float dtype, floatx for an integer or bool x.

    Differs:
        An integer or bool x computes in floatx (Keras on TensorFlow truncates
        it to integers). A complex x is refused by name (it has no order).
    """
    x = as_float(x, "soft_shrink", complex_ok=False)
    return where(greater(x, threshold), x - threshold,
                 where(less(x, -threshold), x + threshold, 0.0))


def tanh_shrink(x):
    """x - tanh(x).

    Returns:
        A tensor of x's shape: x's float dtype, floatx for an integer or bool x.
    """
    x = as_float(x, "tanh_shrink")
    return x - tanh(x)


def threshold(x, threshold, default_value):
    """x where x > threshold, else default_value.

    Args:
        threshold: The threshold: x is kept above it.
        default_value: The value where x <= threshold.

    Returns:
        A tensor of x's shape: x's float dtype, floatx for an integer or bool x.
    """
    x = as_float(x, "threshold", complex_ok=False)
    return where(greater(x, threshold), x, default_value)


def sparse_plus(x):
    """0 below -1, x above 1, (x + 1)^2 / 4 between (a smooth relu).

    Returns:
        A tensor of x's shape: x's float dtype, floatx for an integer or bool x.

    Differs:
        A complex x is refused by name (it has no order).
    """
    x = as_float(x, "sparse_plus", complex_ok=False)
    mid = (x + 1.0) * (x + 1.0) * 0.25
    return where(less_equal(x, -1.0), 0.0,
                 where(greater_equal(x, 1.0), x, mid))


def sparse_sigmoid(x):
    """0 below -1, 1 above 1, (x + 1) / 2 between.

    Returns:
        A tensor of x's shape: x's float dtype, floatx for an integer or bool x.
    """
    x = as_float(x, "sparse_sigmoid", complex_ok=False)
    return where(less_equal(x, -1.0), 0.0,
                 where(greater_equal(x, 1.0), 1.0, (x + 1.0) * 0.5))


def squareplus(x, b=4):
    """(x + sqrt(x^2 + b)) / 2.

    Args:
        b: The smoothness (b = 0: relu).

    Returns:
        A tensor of x's shape: x's float dtype, floatx for an integer or bool x.
    """
    x = as_float(x, "squareplus")
    if b < 0:
        raise ValueError(f"pycg.ops.squareplus: b must be >= 0, got {b}")
    return (x + sqrt(x * x + float(b))) * 0.5


def sparsemax(x, axis=-1):
    """The Euclidean projection of x onto the simplex along `axis`
    (Martins & Astudillo 2016): max(x - tau, 0), with tau chosen so that
    the result sums to 1. Found without sorting: z_i is in the support
    when 1 + k_i z_i > (sum of the z_j >= z_i), k_i counting those z_j.

    Args:
        axis: The axis to normalise along (negative counts from the last).

    Returns:
        A float tensor of x's shape (floatx for integer or bool x), summing to
        1 along axis.

    Differs:
        A NaN in x makes the result NaN, as NumPy and JAX (Keras on TensorFlow
        takes the max past it); a bool x is answered in floatx.
    """
    from pycg.ops.manipulation import expand_dims
    x = as_float(x, "sparsemax", complex_ok=False)
    (axis,) = norm_axis(axis, x.ndim, "sparsemax")
    zi = expand_dims(x, axis + 1)        # z_i along axis, z_j along axis + 1
    zj = expand_dims(x, axis)
    above = cast(greater_equal(zj, zi), x.dtype)
    k = sum(above, axis=axis + 1)
    in_support = cast(greater(1.0 + k * x, sum(above * zj, axis=axis + 1)),
                      x.dtype)
    size = max(in_support * k, axis=axis, keepdims=True)
    tau = (sum(in_support * x, axis=axis, keepdims=True) - 1.0) / size
    return maximum(x - tau, 0.0)
