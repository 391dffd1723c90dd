"""JAX kernels of the activations and their fused gradients (the ones
TensorFlow has as kernels: TanhGrad, SigmoidGrad, ReluGrad, SqrtGrad, ...),
and of convolution (lax); the pooling kernels are in _pooling.py."""
import jax
import jax.numpy as jnp

from pycg.backends import kernels as _kernels
from pycg.backends.jax import _windows as _w
from pycg.backends.jax._pooling import (  # noqa: F401  (kernels of nn)
    avg_pool, avg_pool_grad, max_pool, max_pool_grad, max_pool_grad_grad)


def sigmoid(x):
    if x.dtype.kind == "c":   # (lax.logistic has no complex kernel)
        return 1 / (1 + jnp.exp(-x))
    return jax.nn.sigmoid(x)


def softplus(x):
    return (jnp.maximum(x, 0) + jnp.log1p(jnp.exp(-jnp.abs(x)))).astype(
        x.dtype)


def relu(x):
    return jnp.maximum(x, jnp.zeros((), x.dtype))


def tanh_grad(y, dy):
    return dy * (1 - y * y)


def relu_grad(dy, x):
    return jnp.where(x > 0, dy, jnp.zeros((), dy.dtype))


def sigmoid_grad(y, dy):
    return dy * y * (1 - y)


# TensorFlow's SqrtGrad, RsqrtGrad and ReciprocalGrad: 0 where dy is 0, even
# where the local derivative is infinite (the guard idiom where(c, f(x), 0))
def _zero_at_zero(dy, d):
    return jnp.where(dy == 0, jnp.zeros((), d.dtype), d)


def sqrt_grad(y, dy):
    return _zero_at_zero(dy, dy * 0.5 / jnp.conj(y))


def rsqrt_grad(y, dy):
    c = jnp.conj(y)
    return _zero_at_zero(dy, dy * -0.5 * (c * c * c))


def reciprocal_grad(y, dy):
    c = jnp.conj(y)
    return _zero_at_zero(dy, -dy * (c * c))


# ---- convolution (channels last; kernel (spatial..., C / groups, F)) -------
_SPECS = {1: ("NWC", "WIO", "NWC"), 2: ("NHWC", "HWIO", "NHWC"),
          3: ("NDHWC", "DHWIO", "NDHWC")}


def conv(x, kernel, strides, pads, dilation, groups):
    return jax.lax.conv_general_dilated(
        _w.padded(x, pads), kernel, tuple(strides), "VALID",
        rhs_dilation=tuple(dilation), feature_group_count=groups,
        dimension_numbers=_SPECS[x.ndim - 2],
        precision=jax.lax.Precision.HIGHEST)


def conv_input_grad(g, kernel, shape, strides, pads, dilation, groups):
    """The transpose of conv with respect to its input (of `shape`)."""
    _, back = jax.vjp(lambda x: conv(x, kernel, strides, pads, dilation,
                                     groups), jnp.zeros(shape, g.dtype))
    return back(g)[0]


def conv_filter_grad(x, g, shape, strides, pads, dilation, groups):
    """The transpose of conv with respect to its kernel (of `shape`)."""
    _, back = jax.vjp(lambda k: conv(x, k, strides, pads, dilation, groups),
                      jnp.zeros(shape, g.dtype))
    return back(g)[0]


__all__ = _kernels(globals())   # (this file's kernels: see backends.kernels)
