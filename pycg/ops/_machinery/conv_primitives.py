"""The recorded primitives of convolution and pooling, channels last: each
runs the active backend's kernel of the same name (pycg/backends/<name>/nn.py)
and is one entry of the VJP table (pycg/ops/rules/convolution.py). They take
normalised arguments (tuples of ints; pads as (before, after) per spatial
dimension); the public ops in convolution.py and pooling.py check what a
user passed and call them."""
from pycg import backends
from pycg.ops._machinery.dispatch import apply, as_tensor


def _conv_params(strides, pads, dilation, groups):
    return {"strides": tuple(strides), "pads": tuple(pads),
            "dilation": tuple(dilation), "groups": groups}


def conv(x, kernel, strides, pads, dilation, groups):
    """Cross-correlation of x (N, spatial..., C) with kernel (spatial...,
    C / groups, F)."""
    return apply("_conv", backends.active.conv,
                 (as_tensor(x), as_tensor(kernel)),
                 _conv_params(strides, pads, dilation, groups))


def conv_input_grad(dy, kernel, shape, strides, pads, dilation, groups):
    """The transpose of conv in its input (of `shape`): a transposed
    convolution of dy."""
    p = _conv_params(strides, pads, dilation, groups)
    p["shape"] = tuple(int(n) for n in shape)
    return apply("_conv_input_grad", backends.active.conv_input_grad,
                 (as_tensor(dy), as_tensor(kernel)), p)


def conv_filter_grad(x, dy, shape, strides, pads, dilation, groups):
    """The transpose of conv in its kernel (of `shape`): a correlation of x
    with dy."""
    p = _conv_params(strides, pads, dilation, groups)
    p["shape"] = tuple(int(n) for n in shape)
    return apply("_conv_filter_grad", backends.active.conv_filter_grad,
                 (as_tensor(x), as_tensor(dy)), p)


def _pool_params(size, strides, padding):
    return {"size": tuple(size), "strides": tuple(strides),
            "padding": padding}


def max_pool(x, size, strides, padding):
    return apply("_max_pool", backends.active.max_pool, (as_tensor(x),),
                 _pool_params(size, strides, padding))


def max_pool_grad(x, y, dy, size, strides, padding):
    """dy sent to the first maximum of each window (TensorFlow's rule)."""
    return apply("_max_pool_grad", backends.active.max_pool_grad,
                 (as_tensor(x), as_tensor(y), as_tensor(dy)),
                 _pool_params(size, strides, padding))


def max_pool_grad_grad(x, y, ddx, size, strides, padding):
    """The transpose of max_pool_grad in dy: ddx read at each window's
    first maximum."""
    return apply("_max_pool_grad_grad", backends.active.max_pool_grad_grad,
                 (as_tensor(x), as_tensor(y), as_tensor(ddx)),
                 _pool_params(size, strides, padding))


def avg_pool(x, size, strides, padding):
    return apply("_avg_pool", backends.active.avg_pool, (as_tensor(x),),
                 _pool_params(size, strides, padding))


def avg_pool_grad(dy, shape, size, strides, padding):
    p = _pool_params(size, strides, padding)
    p["shape"] = tuple(int(n) for n in shape)
    return apply("_avg_pool_grad", backends.active.avg_pool_grad,
                 (as_tensor(dy),), p)
