"""torch kernels of the activations and their fused gradients (the ones
TensorFlow has as kernels: TanhGrad, SigmoidGrad, ReluGrad, SqrtGrad, ...;
torch's own backward kernels where it has them), and of convolution,
channels last, on torch.nn.functional's channels-first kernels (pads
applied first, as the numpy backend's, so any TensorFlow pad works); the
pooling kernels are in _pooling.py."""
import torch
import torch.nn.functional as F

from pycg.backends import kernels as _kernels
from pycg.backends.torch import _windows as _w
from pycg.backends.torch._pooling import (  # noqa: F401  (kernels of nn)
    avg_pool, avg_pool_grad, max_pool, max_pool_grad, max_pool_grad_grad)



def _direct(overload):
    """An aten op's C entry (OpOverload.__call__ adds ~0.6 us a call)."""
    return getattr(overload, "_op", overload)


_COMPLEX = frozenset((torch.complex64, torch.complex128))
_tanh_backward = _direct(torch.ops.aten.tanh_backward.default)
_sigmoid_backward = _direct(torch.ops.aten.sigmoid_backward.default)


def sigmoid(x):
    if x.is_complex():
        return 1 / (1 + torch.exp(-x))
    return torch.sigmoid(x)


def softplus(x):
    zero = torch.zeros((), dtype=x.dtype, device=x.device)
    return (torch.maximum(x, zero) + torch.log1p(torch.exp(-torch.abs(x)))
            ).to(x.dtype)


def relu(x):
    return torch.maximum(x, torch.zeros((), dtype=x.dtype, device=x.device))


def tanh_grad(y, dy):
    if y.dtype in _COMPLEX:
        return dy * torch.conj_physical(1 - y * y)
    return _tanh_backward(dy, y)


def relu_grad(dy, x):
    return torch.where(x > 0, dy, torch.zeros((), dtype=dy.dtype,
                                              device=dy.device))


def sigmoid_grad(y, dy):
    if y.dtype in _COMPLEX:
        return dy * torch.conj_physical(y * (1 - y))
    return _sigmoid_backward(dy, y)


# TensorFlow's SqrtGrad, RsqrtGrad and ReciprocalGrad: 0 where dy is 0, even
# where the local derivative is infinite (the guard idiom where(c, f(x), 0))
def _zero_at_zero(dy, d):
    return torch.where(dy == 0, torch.zeros((), dtype=d.dtype,
                                            device=d.device), d)


def _conj(y):
    return torch.conj_physical(y) if y.is_complex() else y


def sqrt_grad(y, dy):
    return _zero_at_zero(dy, dy * 0.5 / _conj(y))


def rsqrt_grad(y, dy):
    c = _conj(y)
    return _zero_at_zero(dy, dy * -0.5 * (c * c * c))


def reciprocal_grad(y, dy):
    c = _conj(y)
    return _zero_at_zero(dy, -dy * (c * c))


# ---- convolution (channels last; kernel (spatial..., C / groups, F)) -------
def _first(x):
    """(N, spatial..., C) -> (N, C, spatial...)."""
    return x.permute(0, x.ndim - 1, *range(1, x.ndim - 1))


def _last(x):
    """(N, C, spatial...) -> (N, spatial..., C)."""
    return x.permute(0, *range(2, x.ndim), 1)


def _weight(kernel):
    """(spatial..., C / groups, F) -> torch's (F, C / groups, spatial...)."""
    d = kernel.ndim - 2
    return kernel.permute(d + 1, d, *range(d))


def _from_weight(w):
    d = w.ndim - 2
    return w.permute(*range(2, d + 2), 1, 0)


_CONV = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}
_INPUT = {1: torch.nn.grad.conv1d_input, 2: torch.nn.grad.conv2d_input,
          3: torch.nn.grad.conv3d_input}
_FILTER = {1: torch.nn.grad.conv1d_weight, 2: torch.nn.grad.conv2d_weight,
           3: torch.nn.grad.conv3d_weight}


def conv(x, kernel, strides, pads, dilation, groups):
    d = x.ndim - 2
    y = _CONV[d](_first(_w.padded(x, pads)), _weight(kernel),
                 stride=tuple(strides), dilation=tuple(dilation),
                 groups=groups)
    return _last(y).contiguous()


def _padded_shape(shape, pads):
    return (shape[0], shape[-1]) + tuple(
        n + b + a for n, (b, a) in zip(shape[1:-1], pads))


def conv_input_grad(g, kernel, shape, strides, pads, dilation, groups):
    """The transpose of conv with respect to its input (of `shape`)."""
    d = g.ndim - 2
    gp = _INPUT[d](_padded_shape(tuple(shape), pads), _weight(kernel),
                   _first(g), stride=tuple(strides),
                   dilation=tuple(dilation), groups=groups)
    return _w.unpadded(_last(gp), pads, tuple(shape)).contiguous()


def conv_filter_grad(x, g, shape, strides, pads, dilation, groups):
    """The transpose of conv with respect to its kernel (of `shape`)."""
    d = x.ndim - 2
    size = (shape[-1], shape[-2]) + tuple(shape[:d])
    w = _FILTER[d](_first(_w.padded(x, pads)), size, _first(g),
                   stride=tuple(strides), dilation=tuple(dilation),
                   groups=groups)
    return _from_weight(w).contiguous()


__all__ = _kernels(globals())   # (this file's kernels: see backends.kernels)
