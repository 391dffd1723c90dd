"""JAX kernels of the activations and their fused gradients (the ones
TensorFlow has as kernels: TanhGrad, SigmoidGrad, ReluGrad, SqrtGrad, ...)."""
import builtins
import itertools

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


# ---- convolution (channels last; kernel (spatial..., C / groups, F)) -------
_SPECS = {1: ("NWC", "WIO", "NWC"), 2: ("NHWC", "HWIO", "NHWC"),
          3: ("NDHWC", "DHWIO", "NDHWC")}


def _padded(x, pads, value=0):
    """x with `pads` (before, after) on each spatial axis; a negative
    `after` crops (as the numpy backend's)."""
    crop = tuple(slice(None, a if a < 0 else None) for _, a in pads)
    x = x[(slice(None),) + crop]
    if any(b or a > 0 for b, a in pads):
        widths = [(0, 0)] + [(b, max(a, 0)) for b, a in pads] + [(0, 0)]
        x = jnp.pad(x, widths, constant_values=value)
    return x


def conv(x, kernel, strides, pads, dilation, groups):
    return jax.lax.conv_general_dilated(
        _padded(x, pads), kernel, tuple(strides), "VALID",
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


# ---- pooling: padding is 'valid' or 'same' (TensorFlow's pads) -------------
def _pool_pads(shape, size, strides, padding):
    if padding == "valid":
        return ((0, 0),) * len(size)
    pads = []
    for n, k, s in zip(shape, size, strides):
        total = builtins.max((-(-n // s) - 1) * s + k - n, 0)
        pads.append((total // 2, total - total // 2))
    return tuple(pads)


def _slices(size, strides, out):
    """The slice of the padded input each window offset reads."""
    for j in itertools.product(*(range(k) for k in size)):
        yield (slice(None),) + tuple(
            slice(i, i + s * (o - 1) + 1, s)
            for i, s, o in zip(j, strides, out)) + (slice(None),)


def _out(shape, size, strides):
    return tuple((n - k) // s + 1 for n, k, s in zip(shape, size, strides))


def _fold(fn, xp, size, strides):
    out = None
    for sl in _slices(size, strides, _out(xp.shape[1:-1], size, strides)):
        out = xp[sl] if out is None else fn(out, xp[sl])
    return out


def max_pool(x, size, strides, padding):
    pads = _pool_pads(x.shape[1:-1], size, strides, padding)
    return _fold(jnp.maximum, _padded(x, pads, -jnp.inf), size, strides)


def _winners(x, y, size, strides, padding):
    """(pads, padded shape, [(slice, mask)]): per window offset, where that
    offset holds the window's first maximum (TensorFlow's choice)."""
    pads = _pool_pads(x.shape[1:-1], size, strides, padding)
    xp = _padded(x, pads, -jnp.inf)
    taken = jnp.zeros(y.shape, bool)
    hits = []
    for sl in _slices(size, strides, y.shape[1:-1]):
        hit = (xp[sl] == y) & ~taken
        taken = taken | hit
        hits.append((sl, hit))
    return pads, xp.shape, hits


def _unpadded(xp, pads, shape):
    """The adjoint of _padded: the cells of xp that hold x's."""
    keep = tuple(slice(b, b + n + builtins.min(a, 0))
                 for (b, a), n in zip(pads, shape[1:-1]))
    inner = xp[(slice(None),) + keep]
    if inner.shape == tuple(shape):
        return inner
    return jnp.zeros(shape, xp.dtype).at[
        tuple(slice(0, n) for n in inner.shape)].set(inner)


def max_pool_grad(x, y, dy, size, strides, padding):
    pads, padded, hits = _winners(x, y, size, strides, padding)
    gp = jnp.zeros(padded, dy.dtype)
    for sl, hit in hits:
        gp = gp.at[sl].add(jnp.where(hit, dy, 0))
    return _unpadded(gp, pads, x.shape)


def max_pool_grad_grad(x, y, ddx, size, strides, padding):
    pads, _, hits = _winners(x, y, size, strides, padding)
    dp = _padded(ddx, pads)
    out = jnp.zeros(y.shape, ddx.dtype)
    for sl, hit in hits:
        out = out + jnp.where(hit, dp[sl], 0)
    return out


def _inverse_counts(shape, size, strides, padding, dtype):
    """1 / (cells of each window inside the input): (1, out..., 1)."""
    one = jnp.ones((1,) + tuple(shape[1:-1]) + (1,), dtype)
    pads = _pool_pads(shape[1:-1], size, strides, padding)
    return 1 / _fold(jnp.add, _padded(one, pads), size, strides)


def avg_pool(x, size, strides, padding):
    pads = _pool_pads(x.shape[1:-1], size, strides, padding)
    total = _fold(jnp.add, _padded(x, pads), size, strides)
    return total * _inverse_counts(x.shape, size, strides, padding, x.dtype)


def avg_pool_grad(dy, shape, size, strides, padding):
    pads = _pool_pads(shape[1:-1], size, strides, padding)
    share = dy * _inverse_counts(shape, size, strides, padding, dy.dtype)
    gp = jnp.zeros((shape[0],) + tuple(
        n + b + a for n, (b, a) in zip(shape[1:-1], pads)) + (shape[-1],),
        dy.dtype)
    for sl in _slices(size, strides, dy.shape[1:-1]):
        gp = gp.at[sl].add(share)
    return _unpadded(gp, pads, shape)
