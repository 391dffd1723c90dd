"""Pooling (keras.ops names): a max or a mean over the patches that
pycg/ops/convolution.py gathers, so the gradient comes from the gather, max
and sum rules. With padding='same' the padded cells never win a max and are not
counted in a mean (TensorFlow's rule)."""
import numpy as np

from pycg import config
from pycg.ops._dispatch import as_tensor
from pycg.tensor import is_float
from pycg.ops.convolution import (_ints, _padding, _positions,
                                  channels_last, patches, restore, window)
from pycg.ops.creation import cast
from pycg.ops.reduction import max, sum


def _pool(op, inputs, pool_size, strides, padding, data_format):
    x = as_tensor(inputs, op)
    if not is_float(x.dtype):
        x = cast(x, config.floatx())
    x = channels_last(op, x, data_format)
    d = x.ndim - 2
    size = _ints(op, "pool_size", pool_size, d)
    strides = size if strides is None else _ints(op, "strides", strides, d)
    return x, d, size, strides, _padding(op, padding)


def max_pool(inputs, pool_size, strides=None, padding="valid",
             data_format=None):
    """The maximum of each window (strides default to pool_size).

    >>> from pycg import ops
    >>> x = ops.reshape(ops.convert_to_tensor([1.0, 3.0, 2.0, 0.0]),
    ...                 (1, 4, 1))
    >>> ops.max_pool(x, 2).numpy().ravel().tolist()
    [3.0, 2.0]
    """
    x, d, size, strides, padding = _pool("max_pool", inputs, pool_size,
                                         strides, padding, data_format)
    p = patches("max_pool", x, size, strides, padding, (1,) * d,
                pad_value=float("-inf"))
    return restore(max(p, axis=tuple(range(1 + d, 1 + 2 * d))), data_format)


def average_pool(inputs, pool_size, strides=None, padding="valid",
                 data_format=None):
    """The mean of each window over its cells inside the input."""
    op = "average_pool"
    x, d, size, strides, padding = _pool(op, inputs, pool_size, strides,
                                         padding, data_format)
    p = patches(op, x, size, strides, padding, (1,) * d)
    total = sum(p, axis=tuple(range(1 + d, 1 + 2 * d)))
    count = _counts(op, x.shape, size, strides, padding, d)
    return restore(total * cast(count, x.dtype), data_format)


def _counts(op, shape, size, strides, padding, d):
    """1 / (cells of each window inside the input), shape (1, out..., 1)."""
    spatial = (1,) + tuple(shape[1:-1]) + (1,)
    out, pads = window(op, spatial[1:-1], size, strides, padding, (1,) * d)
    inside = np.pad(np.ones(spatial), [(0, 0)] + pads + [(0, 0)])
    pos = _positions(inside.shape, out, size, strides, (1,) * d)
    n = inside.reshape(-1)[pos].sum(axis=tuple(range(1 + d, 1 + 2 * d)))
    return 1.0 / n
