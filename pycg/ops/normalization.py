"""Moments and normalisations (keras.ops names), built from differentiable
pycg ops. `epsilon=None` means Keras' default epsilon, 1e-7."""
from pycg._errors import Axis, Op, Shape, user_error
from pycg.ops._machinery.dispatch import as_tensor, norm_axis
from pycg.ops._machinery.floats import as_float
from pycg.ops.creation import cast
from pycg.ops.elementwise import abs, maximum, minimum, power, rsqrt
from pycg.ops.manipulation import reshape
from pycg.ops.reduction import mean, sum, var

__all__ = ("batch_normalization", "layer_normalization", "moments",
           "normalize", "rms_normalization")

EPSILON = 1e-7


def _like(v, x, op):
    return None if v is None else cast(as_tensor(v, op), x.dtype)


def moments(x, axes, keepdims=False, synchronized=False):
    """(mean, variance) of x over `axes` (the population variance).

    Args:
        synchronized: Accepted for keras.ops' signature: pycg runs on one
            device, so it changes nothing.

    Returns:
        A pair (mean, variance), x's shape without `axes` (kept as length 1
        with keepdims).

    Example:
        >>> from pycg import ops
        >>> m, v = ops.moments(ops.convert_to_tensor([1.0, 3.0]), axes=0)
        >>> float(m), float(v)
        (2.0, 1.0)
    """
    x = as_float(x, "moments")
    axes = norm_axis(axes, x.ndim, "moments")
    return mean(x, axes, keepdims), var(x, axes, keepdims)


def batch_normalization(x, mean, variance, axis, offset=None, scale=None,
                        epsilon=1e-3):
    """(x - mean) / sqrt(variance + epsilon) * scale + offset, with the
    1-D statistics laid along `axis` of x.

    Args:
        mean: The mean, 1-d along `axis`.
        variance: The variance, 1-d along `axis`.
        axis: The axis of x the statistics run along.
        offset: Added after scaling (None: 0).
        scale: The factor (None: 1).

    Returns:
        A float tensor of x's shape (floatx for an integer or bool x).
    """
    op = "batch_normalization"
    x = as_float(x, op, complex_ok=False)
    (axis,) = norm_axis(axis, x.ndim, op)
    shape = [1] * x.ndim
    shape[axis] = x.shape[axis]

    def along_axis(v, name):
        if v is None:
            return None
        v = _like(v, x, op)
        if v.shape not in ((x.shape[axis],), tuple(shape)):
            raise user_error(ValueError, "{op}: {name} must have shape {want} "
                             "(the size of x along axis {axis}), got {shape}",
                             op=Op(op), name=name, want=Shape((x.shape[axis],)),
                             axis=Axis(axis), shape=Shape(v.shape))
        return reshape(v, shape)

    mean, variance = along_axis(mean, "mean"), along_axis(variance, "variance")
    offset, scale = along_axis(offset, "offset"), along_axis(scale, "scale")
    inv = rsqrt(variance + epsilon)
    if scale is not None:
        inv = inv * scale
    out = (x - mean) * inv
    return out if offset is None else out + offset


def normalize(x, axis=-1, order=2, epsilon=None):
    """x divided by its `order`-norm along `axis` (at least epsilon).

    Args:
        order: The norm's order (2: Euclidean).

    Returns:
        A float tensor of x's shape (floatx for an integer or bool x).
    """
    if not isinstance(order, int) or isinstance(order, bool) or order < 1:
        raise ValueError(
            f"pycg.ops.normalize: order must be an int >= 1, got {order!r}")
    x = as_float(x, "normalize", complex_ok=False)
    if x.ndim == 0:
        from pycg.ops.manipulation import expand_dims
        x = expand_dims(x, 0)
    eps = EPSILON if epsilon is None else epsilon
    axis = norm_axis(axis, x.ndim, "normalize")
    if order == 2:
        inv = rsqrt(sum(x * x, axis=axis, keepdims=True))
        return x * minimum(inv, 1.0 / eps)
    if order == 1:
        norm = sum(abs(x), axis=axis, keepdims=True)
    else:
        norm = power(sum(power(abs(x), float(order)), axis=axis,
                         keepdims=True), 1.0 / order)
    return x / maximum(norm, eps)


def _stat_shape(x, axes, v, name, op):
    """v (gamma, beta, scale) shaped to broadcast against x."""
    if v is None:
        return None
    v = _like(v, x, op)
    if v.ndim == x.ndim:
        return v
    want = tuple(x.shape[a] for a in axes)
    if v.shape != want:
        raise user_error(ValueError, "{op}: {name} must have shape {want} (x's "
                         "size along the normalised axes), got {shape}",
                         op=Op(op), name=name, want=Shape(want),
                         shape=Shape(v.shape))
    if axes == (x.ndim - 1,):
        return v
    return reshape(v, [x.shape[i] if i in axes else 1
                       for i in range(x.ndim)])


def layer_normalization(x, gamma=None, beta=None, axis=-1, epsilon=None,
                        **kwargs):
    """(x - mean) / sqrt(var + epsilon) * gamma + beta over `axis`;
    rms_scaling=True divides by sqrt(var + epsilon) alone.

    Args:
        gamma: The scale (None: 1).
        beta: The offset (None: 0).
        **kwargs: rms_scaling=True (see the summary).

    Returns:
        A float tensor of x's shape (floatx for an integer or bool x).

    Differs:
        An integer or bool x computes in floatx (Keras on TensorFlow truncates
        it to integers); a complex x is refused by name.
    """
    op = "layer_normalization"
    rms_scaling = kwargs.pop("rms_scaling", False)
    if kwargs:
        raise TypeError(
            f"pycg.ops.{op}: unexpected keyword arguments {sorted(kwargs)}")
    x = as_float(x, op, complex_ok=False)
    eps = EPSILON if epsilon is None else epsilon
    axes = tuple(sorted(norm_axis(axis, x.ndim, op)))
    gamma = _stat_shape(x, axes, gamma, "gamma", op)
    beta = _stat_shape(x, axes, beta, "beta", op)
    m, v = moments(x, axes, keepdims=True)
    inv = rsqrt(v + eps)
    if rms_scaling:
        return x * inv if gamma is None else x * inv * gamma
    if gamma is not None:
        inv = inv * gamma
    out = (x - m) * inv
    return out if beta is None else out + beta


def rms_normalization(x, scale=None, axis=-1, epsilon=None):
    """x / sqrt(mean(x^2) + epsilon) * scale over `axis` (scale broadcasts
    against x, as in Keras).

    Args:
        scale: The factor, broadcasting against x (None: 1).

    Returns:
        A float tensor of x's shape (floatx for an integer or bool x).

    Differs:
        An integer or bool x computes in floatx (Keras on TensorFlow truncates
        it to integers); a complex x is refused by name.
    """
    op = "rms_normalization"
    x = as_float(x, op, complex_ok=False)
    if x.ndim == 0:
        from pycg.ops.manipulation import expand_dims
        x = expand_dims(x, 0)
    eps = EPSILON if epsilon is None else epsilon
    axes = tuple(sorted(norm_axis(axis, x.ndim, op)))
    out = x * rsqrt(mean(x * x, axes, keepdims=True) + eps)
    return out if scale is None else out * _like(scale, x, op)
