"""The window arithmetic of pooling and convolution over channels-last
operands (N, spatial..., C), in plain Python (shapes and slices, no
framework): TensorFlow's pads of padding 'same', the windows' grid, the
strided slice each window offset reads, and the cells of a padded operand
that hold the input's. The numpy, jax and torch backends' _windows.py and
_pooling.py read it; each backend keeps only its array kernels."""
import itertools


def pool_pads(shape, size, strides, padding):
    """(before, after) per spatial axis: none for 'valid', TensorFlow's for
    'same' (the odd cell after)."""
    if padding == "valid":
        return ((0, 0),) * len(size)
    pads = []
    for n, k, s in zip(shape, size, strides):
        total = max((-(-n // s) - 1) * s + k - n, 0)
        pads.append((total // 2, total - total // 2))
    return tuple(pads)


def out_shape(shape, size, strides):
    """The spatial shape of the windows' grid (no dilation)."""
    return tuple((n - k) // s + 1 for n, k, s in zip(shape, size, strides))


def slices(size, strides, out):
    """The slice of the padded input each window offset reads."""
    for j in itertools.product(*(range(k) for k in size)):
        yield (slice(None),) + tuple(
            slice(i, i + s * (o - 1) + 1, s)
            for i, s, o in zip(j, strides, out)) + (slice(None),)


def grid(xp, size, strides):
    """(the slices of the padded xp each window offset reads, the windows'
    grid)."""
    out = out_shape(tuple(xp.shape[1:-1]), size, strides)
    return list(slices(size, strides, out)), out


def kept(pads, shape):
    """The index of the cells of a padded operand that hold those of x (of
    `shape`): the adjoint of padding, less what a negative `after` cropped."""
    return (slice(None),) + tuple(slice(b, b + n + min(a, 0))
                                  for (b, a), n in zip(pads, shape[1:-1]))


def padded_shape(shape, pads):
    """The shape of an operand of `shape` padded with `pads` (none
    negative)."""
    return (shape[0],) + tuple(n + b + a for n, (b, a)
                               in zip(shape[1:-1], pads)) + (shape[-1],)
