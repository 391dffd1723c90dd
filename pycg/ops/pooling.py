"""Pooling (keras.ops names): the arguments checked here, the work done by
the recorded primitives of pycg/ops/_machinery/conv_primitives.py (TensorFlow's
MaxPool/AvgPool ops; NumPy window views). With padding='same' the padded
cells never win a max and are not counted in a mean (TensorFlow's rule)."""
from pycg import config
from pycg.ops._machinery import conv_primitives as P
from pycg.ops._machinery.dispatch import as_tensor
from pycg.ops._machinery.floats import real_only
from pycg.tensor import is_float
from pycg.ops.convolution import _ints, _padding, channels_last, restore, window
from pycg.ops.creation import cast

__all__ = ("average_pool", "max_pool")


def _pool(op, inputs, pool_size, strides, padding, data_format):
    x = real_only(as_tensor(inputs, op), op)
    if not is_float(x.dtype):
        x = cast(x, config.floatx())
    x = channels_last(op, x, data_format)
    d = x.ndim - 2
    size = _ints(op, "pool_size", pool_size, d)
    strides = size if strides is None else _ints(op, "strides", strides, d)
    padding = _padding(op, padding)
    window(op, x.shape[1:-1], size, strides, padding, (1,) * d)  # (it fits)
    return x, size, strides, padding


def max_pool(inputs, pool_size, strides=None, padding="valid",
             data_format=None):
    """The maximum of each window (strides default to pool_size).

    Args:
        strides: The step between windows (None: pool_size).

    Returns:
        A tensor of inputs' batch and channels, with the pooled spatial size,
        in inputs' dtype.

    Example:
        >>> from pycg import ops
        >>> x = ops.reshape(ops.convert_to_tensor([1.0, 3.0, 2.0, 0.0]),
        ...                 (1, 4, 1))
        >>> ops.max_pool(x, 2).numpy().ravel().tolist()
        [3.0, 2.0]
    """
    x, size, strides, padding = _pool("max_pool", inputs, pool_size,
                                      strides, padding, data_format)
    return restore(P.max_pool(x, size, strides, padding), data_format)


def average_pool(inputs, pool_size, strides=None, padding="valid",
                 data_format=None):
    """The mean of each window over its cells inside the input.

    Args:
        strides: The step between windows (None: pool_size).

    Returns:
        A tensor of inputs' batch and channels, with the pooled spatial size,
        in inputs' dtype.
    """
    x, size, strides, padding = _pool("average_pool", inputs, pool_size,
                                      strides, padding, data_format)
    return restore(P.avg_pool(x, size, strides, padding), data_format)
