"""Rearranging and adaptive pooling of images (keras.ops names), built from
differentiable pycg ops: reshape, transpose, take, and the patch gather and
scatter of patches (flat positions computed with NumPy from the static
shapes)."""
import numpy as np

from pycg import config
from pycg._errors import Op, Shape, user_error
from pycg.ops._machinery.allocation import guard
from pycg.ops._machinery.arguments import as_int
from pycg.ops._machinery.dispatch import as_tensor
from pycg.tensor import is_float
from pycg.ops.convolution import _data_format, _ints, channels_last, restore
from pycg.ops.creation import cast
from pycg.ops.manipulation import (_gather, _scatter, getitem, pad, reshape,
                                   take, transpose)
from pycg.ops.reduction import max, sum

__all__ = ("adaptive_average_pool", "adaptive_max_pool", "depth_to_space",
           "fold", "space_to_depth", "unfold")


_cache = {}


def _positions(shape, out, size, strides, dilation):
    """Flat positions in an array of `shape` (N, spatial..., C) of every
    patch: shape (N, out..., size..., C)."""
    key = (shape, out, size, strides, dilation)
    pos = _cache.get(key)
    if pos is None:
        d = len(out)
        grid = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)
        index = [np.arange(shape[0]).reshape((-1,) + (1,) * (2 * d + 1))]
        for i in range(d):
            o = np.arange(out[i]) * strides[i]
            k = np.arange(size[i]) * dilation[i]
            idx = o[:, None] + k[None, :]
            full = [1] * (2 * d + 2)
            full[1 + i], full[1 + d + i] = out[i], size[i]
            index.append(idx.reshape(full))
        index.append(np.arange(shape[-1]).reshape((1,) * (2 * d + 1) + (-1,)))
        pos = grid[tuple(index)]
        if len(_cache) > 256:
            _cache.clear()
        _cache[key] = pos
    return pos


def _image(op, x):
    x = as_tensor(x, op)
    if x.ndim != 4:
        raise user_error(ValueError, "{op}: x must have rank 4 (batch, height, "
                         "width, channels, or channels first), got shape "
                         "{shape}", op=Op(op), shape=Shape(x.shape))
    return x


def _blocks(op, x, block_size, data_format):
    """(x as a channels-last image, block_size as an int)."""
    x, b = _image(op, x), as_int(block_size, op, "block_size")
    return channels_last(op, x, _data_format(op, data_format)), b


def depth_to_space(x, block_size, data_format="channels_last"):
    """Move channels into block_size x block_size spatial blocks (pixel
    shuffle): (N, H, W, C) -> (N, H*b, W*b, C / b^2). channels_first is the
    same on transposed axes (Keras' TensorFlow backend; its NumPy backend
    orders the channels as torch's pixel_shuffle instead).

    Returns:
        A tensor of x's dtype (shape above).
    """
    op = "depth_to_space"
    x, b = _blocks(op, x, block_size, data_format)
    n, h, w, c = x.shape
    if b < 1 or c % (b * b):
        raise ValueError(
            f"pycg.ops.{op}: the {c} channels of x do not split into "
            f"block_size^2 = {b * b} blocks")
    y = transpose(reshape(x, (n, h, w, b, b, c // (b * b))),
                  (0, 1, 3, 2, 4, 5))
    return restore(reshape(y, (n, h * b, w * b, c // (b * b))), data_format)


def space_to_depth(x, block_size, data_format="channels_last"):
    """Move block_size x block_size spatial blocks into channels (pixel
    unshuffle): (N, H, W, C) -> (N, H/b, W/b, C*b^2); channels_first as in
    depth_to_space.

    Returns:
        A tensor of x's dtype (shape above).
    """
    op = "space_to_depth"
    x, b = _blocks(op, x, block_size, data_format)
    n, hb, wb, c = x.shape
    if b < 1 or hb % b or wb % b:
        raise user_error(ValueError, "{op}: the spatial shape {shape} of x is "
                         "not a multiple of block_size {b}", op=Op(op),
                         shape=Shape((hb, wb)), b=b)
    h, w = hb // b, wb // b
    y = transpose(reshape(x, (n, h, b, w, b, c)), (0, 1, 3, 2, 4, 5))
    return restore(reshape(y, (n, h, w, c * b * b)), data_format)


def _torch_pairs(op, kernel_size, dilation, padding, stride):
    return (_ints(op, "kernel_size", kernel_size, 2),
            _ints(op, "dilation", dilation, 2),
            tuple(int(p) for p in ((padding,) * 2 if np.isscalar(padding)
                                   else padding)),
            _ints(op, "stride", stride, 2))


def unfold(x, kernel_size, dilation=1, padding=0, stride=1):
    """Sliding blocks of a (N, C, H, W) image as (N, C*kH*kW, L) columns
    (torch.nn.Unfold; L counts the block positions, row-major).

    Args:
        padding: The zero padding of each spatial side: an int or (ph, pw).

    Returns:
        A tensor (N, C*kH*kW, L) of x's dtype.
    """
    op = "unfold"
    k, d, p, s = _torch_pairs(op, kernel_size, dilation, padding, stride)
    x = transpose(_image(op, x), (0, 2, 3, 1))
    if any(p):
        x = pad(x, [(0, 0), (p[0], p[0]), (p[1], p[1]), (0, 0)])
    out = _fold_sizes(op, x.shape[1:3], k, d, s)
    cols = _gather(x, _positions(x.shape, out, k, s, d))
    n, c = x.shape[0], x.shape[3]
    cols = transpose(cols, (0, 5, 3, 4, 1, 2))
    return reshape(cols, (n, c * k[0] * k[1], out[0] * out[1]))


def fold(x, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """The transpose of unfold: (N, C*kH*kW, L) columns summed back into a
    (N, C, H, W) image of spatial size output_size (torch.nn.Fold).

    Args:
        x: The columns, (N, C*kH*kW, L).
        padding: The zero padding of each spatial side: an int or (ph, pw).

    Returns:
        A tensor (N, C, H, W) of x's dtype.
    """
    op = "fold"
    k, d, p, s = _torch_pairs(op, kernel_size, dilation, padding, stride)
    x = as_tensor(x, op)
    size = _ints(op, "output_size", output_size, 2)
    padded = (size[0] + 2 * p[0], size[1] + 2 * p[1])
    if x.ndim == 3:   # (the padded image the columns are summed into)
        guard(op, (x.shape[0],) + padded + (x.shape[1] // (
            k[0] * k[1] or 1),), x.dtype, "output_size")
    out = _fold_sizes(op, padded, k, d, s)
    if x.ndim != 3 or x.shape[1] % (k[0] * k[1]) or \
            x.shape[2] != out[0] * out[1]:
        raise user_error(ValueError, "{op}: x must have shape (batch, channels * "
                         "{k}, {n}) for these sizes, got {shape}", op=Op(op),
                         k=k[0] * k[1], n=out[0] * out[1], shape=Shape(x.shape))
    n, c = x.shape[0], x.shape[1] // (k[0] * k[1])
    cols = transpose(reshape(x, (n, c, k[0], k[1], out[0], out[1])),
                     (0, 4, 5, 2, 3, 1))
    shape = (n,) + padded + (c,)
    y = _scatter(cols, _positions(shape, out, k, s, d), shape)
    y = getitem(y, (slice(None), slice(p[0], p[0] + size[0]),
                    slice(p[1], p[1] + size[1])))
    return transpose(y, (0, 3, 1, 2))


def _fold_sizes(op, shape, k, d, s):
    out = tuple((n - (ki - 1) * di - 1) // si + 1
                for n, ki, di, si in zip(shape, k, d, s))
    if min(out) < 1:
        raise user_error(ValueError, "{op}: a kernel of {k} with dilation {d} "
                         "does not fit the padded spatial size {shape}",
                         op=Op(op), k=Shape(k), d=Shape(d), shape=Shape(shape))
    return out


def _adaptive(op, inputs, output_size, data_format, reduce):
    x = as_tensor(inputs, op)
    if not is_float(x.dtype):
        x = cast(x, config.floatx())
    x = channels_last(op, x, data_format)
    d = x.ndim - 2
    sizes = _ints(op, "output_size", output_size, d)
    for axis, (n, o) in enumerate(zip(x.shape[1:-1], sizes), start=1):
        guard(op, x.shape[:axis] + (o,) + x.shape[axis + 1:], x.dtype,
              "output_size")
        # bins [floor(i n / o), ceil((i + 1) n / o)), as torch and Keras
        starts = (np.arange(o) * n) // o
        ends = -((-np.arange(1, o + 1) * n) // o)
        width = int((ends - starts).max())
        index = np.minimum(starts[:, None] + np.arange(width), ends[:, None]
                           - 1)
        picked = take(x, index, axis=axis)        # (..., o, width, ...)
        if reduce == "max":
            x = max(picked, axis=axis + 1)
        else:
            inside = (starts[:, None] + np.arange(width)) < ends[:, None]
            w = inside / inside.sum(1, keepdims=True)
            w = w.reshape(w.shape + (1,) * (x.ndim - axis - 1))
            x = sum(picked * cast(w, x.dtype), axis=axis + 1)
    return restore(x, data_format)


def adaptive_average_pool(inputs, output_size, data_format=None):
    """Mean over output_size bins per spatial axis (bins may overlap by one
    cell when the sizes do not divide).

    Returns:
        A tensor of inputs' batch and channels, with the pooled spatial size,
        in inputs' dtype.
    """
    return _adaptive("adaptive_average_pool", inputs, output_size,
                     data_format, "mean")


def adaptive_max_pool(inputs, output_size, data_format=None):
    """Maximum over output_size bins per spatial axis.

    Returns:
        A tensor of inputs' batch and channels, with the pooled spatial size,
        in inputs' dtype.
    """
    return _adaptive("adaptive_max_pool", inputs, output_size, data_format,
                     "max")
