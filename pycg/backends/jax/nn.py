"""JAX kernels of the activations and their fused gradients (the ones
TensorFlow has as kernels: TanhGrad, SigmoidGrad, ReluGrad, SqrtGrad, ...)."""
import jax
import jax.numpy as jnp


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
