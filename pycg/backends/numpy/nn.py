"""NumPy kernels of the activations and their fused gradients (the ones
TensorFlow has as kernels: TanhGrad, SigmoidGrad, ReluGrad, SqrtGrad, ...)."""
import numpy as np


def sigmoid(x):
    if x.dtype.kind == "c":   # (|x| would lose the phase)
        return (1 / (1 + np.exp(-x))).astype(x.dtype)[()]
    # exp of a non-positive number only: no overflow warning at either end
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1 / (1 + e), e / (1 + e)).astype(x.dtype)[()]


def softplus(x):
    return (np.maximum(x, 0) + np.log1p(np.exp(-np.abs(x)))).astype(x.dtype)


def relu(x):
    return np.maximum(x, np.zeros((), x.dtype))


_ones = {}   # dtype -> 1 of that dtype (dtype.type(1) costs 0.2 us)


def _one(dt):
    one = _ones.get(dt)
    if one is None:
        one = _ones[dt] = dt.type(1)
    return one


def tanh_grad(y, dy):
    one = _ones.get(y.dtype) or _one(y.dtype)
    return dy * (one - y * y)


def relu_grad(dy, x):
    return np.where(x > 0, dy, np.zeros((), dy.dtype))[()]


def sigmoid_grad(y, dy):
    return dy * y * (_one(y.dtype) - y)


# TensorFlow's SqrtGrad, RsqrtGrad and ReciprocalGrad: 0 where dy is 0, even
# where the local derivative is infinite (the guard idiom where(c, f(x), 0))
def _zero_at_zero(dy, d):
    return np.where(dy == 0, np.zeros((), d.dtype), d)[()]


def sqrt_grad(y, dy):   # (numbers as y's dtype: bfloat16 * 0.5 is float32)
    return _zero_at_zero(dy, dy * y.dtype.type(0.5) / np.conj(y))


def rsqrt_grad(y, dy):
    c = np.conj(y)
    return _zero_at_zero(dy, dy * y.dtype.type(-0.5) * (c * c * c))


def reciprocal_grad(y, dy):
    c = np.conj(y)
    return _zero_at_zero(dy, -dy * (c * c))
