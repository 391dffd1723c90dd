"""Class encodings and losses (keras.ops names), built from differentiable
pycg ops. Probabilities are clipped to [EPSILON, 1 - EPSILON] before the
log, as Keras does with its default epsilon; no loss reduces over the batch.
"""
import numpy as np

from pycg import config
from pycg._errors import Axis, Op, Shape, Value, user_error
from pycg.ops._machinery.allocation import guard
from pycg.ops._machinery.arguments import as_int
from pycg.ops._machinery.dispatch import as_tensor, norm_axis
from pycg.tensor import is_float
from pycg.ops.creation import arange, cast
from pycg.ops.elementwise import abs, clip, equal, exp, log, log1p, maximum
from pycg.ops.manipulation import expand_dims, reshape, squeeze
from pycg.ops.nn import log_softmax
from pycg.ops.reduction import max, mean, sum

__all__ = ("binary_crossentropy", "categorical_crossentropy", "multi_hot",
           "one_hot", "psnr", "sparse_categorical_crossentropy")

EPSILON = 1e-7   # keras.config.epsilon()'s default


def one_hot(x, num_classes, axis=-1, dtype=None, sparse=False):
    """Integer labels as one-hot vectors along a new `axis` (a label
    outside [0, num_classes) gives all zeros); not differentiable.

    Args:
        x: The integer labels.
        axis: Where the new class axis goes.

    Returns:
        A tensor with a new axis of num_classes, in `dtype` (None: floatx).

    Example:
        >>> from pycg import ops
        >>> ops.one_hot([2, 0], 3).numpy().tolist()
        [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]]
    """
    return _one_hot_as("one_hot", x, num_classes, axis, dtype, sparse)


def _one_hot_as(op, x, num_classes, axis, dtype, sparse):
    """one_hot, its errors naming `op` (multi_hot is one)."""
    if sparse:
        raise NotImplementedError(
            "pycg.ops." + op + ": sparse=True is not supported (pycg has no "
            "sparse tensors); use sparse=False")
    x = _labels(x, op)
    (axis,) = norm_axis(axis, x.ndim + 1, op)
    shape = [1] * (x.ndim + 1)
    shape[axis] = as_int(num_classes, op, "num_classes")
    if shape[axis] < 0:
        raise user_error(ValueError, "{op}: num_classes must be 0 or more, "
                         "got {value}", op=Op(op),
                         value=Value(shape[axis]))
    out = list(x.shape)
    out.insert(axis, shape[axis])
    guard(op, out, dtype or "float32", "num_classes")
    classes = reshape(arange(shape[axis], dtype=x.dtype), shape)
    return cast(equal(expand_dims(x, axis), classes), dtype or "float32")


def multi_hot(inputs, num_classes=None, axis=-1, dtype=None, sparse=False,
              **kwargs):
    """One vector per row of `inputs` with a 1 at each label it holds (a
    rank-1 `inputs` is one row); not differentiable.

    Args:
        inputs: The integer labels, one row per sample.
        num_classes: The number of classes.
        axis: Where the class axis goes.

    Returns:
        A tensor (rows, num_classes) in `dtype` (None: floatx).
    """
    if num_classes is None:
        num_classes = kwargs.pop("num_tokens", None)
    if num_classes is None or kwargs:
        raise TypeError(
            f"pycg.ops.multi_hot: expected num_classes, got "
            f"{sorted(kwargs) or 'none'}")
    x = _labels(inputs, "multi_hot")
    hot = _one_hot_as("multi_hot", x, num_classes, axis, dtype, sparse)
    return max(hot, axis=1 if x.ndim > 1 else 0)


def _labels(x, op):
    x = as_tensor(x, op)
    if is_float(x.dtype):
        return cast(x, "int32")   # float labels, as Keras takes them
    if x.dtype.kind not in "iu":
        raise TypeError(
            f"pycg.ops.{op}: labels must be integers, got dtype {x.dtype}")
    return x


def _same_shape(op, target, output):
    if target.shape != output.shape:
        raise user_error(ValueError, "{op}: target and output must have the "
                         "same shape, got target.shape={t} and output.shape={o}",
                         op=Op(op), t=Shape(target.shape), o=Shape(output.shape))


def _floats(op, target, output):
    output = as_tensor(output, op)
    if not is_float(output.dtype):
        output = cast(output, config.floatx())
    return cast(as_tensor(target, op), output.dtype), output


def binary_crossentropy(target, output, from_logits=False):
    """Elementwise -(t log p + (1 - t) log(1 - p)); with from_logits,
    p = sigmoid(output), computed without overflow.

    Returns:
        A float tensor of the broadcast shape of target and output.

    Example:
        >>> from pycg import ops
        >>> round(float(ops.binary_crossentropy(1.0, 0.0, from_logits=True)), 4)
        0.6931
    """
    target, output = _floats("binary_crossentropy", target, output)
    _same_shape("binary_crossentropy", target, output)
    if from_logits:
        return maximum(output, 0.0) - output * target + \
            log1p(exp(-abs(output)))
    p = clip(output, EPSILON, 1.0 - EPSILON)
    return -(target * log(p) + (1.0 - target) * log(1.0 - p))


def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """-sum(t * log p) along `axis`; without from_logits the output is
    first rescaled to sum to 1, then clipped.

    Args:
        target: The true class probabilities, output's shape.
        axis: The class axis.

    Returns:
        A float tensor: the loss per entry (target's shape without `axis`).
    """
    op = "categorical_crossentropy"
    target, output = _floats(op, target, output)
    if output.ndim < 1:
        raise ValueError(f"pycg.ops.{op}: output must have rank >= 1, got a "
                         f"scalar")
    _same_shape(op, target, output)
    (axis,) = norm_axis(axis, output.ndim, op)
    if from_logits:
        return -sum(target * log_softmax(output, axis=axis), axis=axis)
    p = output / sum(output, axis=axis, keepdims=True)
    p = clip(p, EPSILON, 1.0 - EPSILON)
    return -sum(target * log(p), axis=axis)


def sparse_categorical_crossentropy(target, output, from_logits=False,
                                    axis=-1):
    """categorical_crossentropy with integer class labels as target (a
    trailing axis of size 1 in target is dropped); without from_logits the
    output is clipped, then rescaled to sum to 1 (Keras). Only the last axis
    of output holds the classes (Keras' rule).

    Args:
        target: The true class of each entry, integers.
        axis: The class axis of output.

    Returns:
        A float tensor: the loss per entry (target's shape without `axis`).
    """
    op = "sparse_categorical_crossentropy"
    output = as_tensor(output, op)
    if not is_float(output.dtype):
        output = cast(output, config.floatx())
    if output.ndim < 1:
        raise ValueError(f"pycg.ops.{op}: output must have rank >= 1, got a "
                         f"scalar")
    if axis not in (-1, output.ndim - 1):
        raise user_error(ValueError, "{op}: only the last axis can hold the "
                         "classes (axis={last}), got axis={axis}", op=Op(op),
                         last=Axis(-1), axis=Axis(axis))
    target = _labels(target, op)
    if target.ndim == output.ndim and target.shape[-1] == 1:
        target = squeeze(target, -1)
    if target.shape != output.shape[:-1]:
        raise user_error(ValueError, "{op}: target must have output's shape "
                         "without its last axis, got target.shape={t} and "
                         "output.shape={o}", op=Op(op), t=Shape(target.shape),
                         o=Shape(output.shape))
    if not from_logits:   # (clipped, then rescaled to sum 1: Keras' TF
        output = log(clip(output, EPSILON, 1.0 - EPSILON))   # softmax of log)
    logp = log_softmax(output, axis=-1)
    hot = one_hot(target, output.shape[-1], dtype=output.dtype)
    return -sum(hot * logp, axis=-1)


def psnr(x1, x2, max_val):
    """Peak signal-to-noise ratio: 20 log10(max_val) - 10 log10(mse).

    Args:
        x1: The first image.
        x2: The second image, x1's shape.
        max_val: The largest possible pixel value.

    Returns:
        A 0-d float tensor, in decibels.
    """
    x1, x2 = as_tensor(x1, "psnr"), as_tensor(x2, "psnr")
    if x1.shape != x2.shape:
        raise user_error(ValueError, "{op}: x1 and x2 must have the same "
                         "shape, got {x} and {y}", op=Op("psnr"),
                         x=Shape(x1.shape), y=Shape(x2.shape))
    d = x1 - x2
    mse = mean(d * d)
    to_log10 = 1.0 / float(np.log(10))
    peak = cast(as_tensor(max_val, "psnr"), mse.dtype)
    return 20.0 * to_log10 * log(peak) - 10.0 * to_log10 * log(mse)
