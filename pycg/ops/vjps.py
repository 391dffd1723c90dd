"""The table of VJP rules: one registration per differentiable op.

Each rule is fn(g, ans, *inputs, **params) -> gradient for one input,
written with pycg ops so that it is itself differentiable (higher order).
Broadcasting is undone by the backward loop for rules registered with
broadcast=True, never inside a rule.
"""
import math
from functools import partial

import numpy as np

from pycg.ops._machinery import dynamic as D
from pycg.ops import creation as C
from pycg.ops import elementwise as E
from pycg.ops import linalg as L
from pycg.ops import nn as N
from pycg.ops import reduction as R
from pycg.ops import manipulation as S
from pycg.core.recorder import defvjp, defvjp_each
from pycg.ops._machinery.complex import abs_vjp, cast_vjp, imag_vjp, is_complex
from pycg.ops._machinery.complex import conjugate as _c


def _zero(g, ans, x, *_, **__):
    return C.zeros_like(x)


def _zero_second(g, ans, x, y):
    return C.zeros_like(y)


# ---- elementwise, one input -------------------------------------------------
defvjp("abs", abs_vjp)
defvjp("negative", lambda g, ans, x: -g)
defvjp("sqrt", lambda g, ans, x: E._sqrt_grad(ans, g))  # (TensorFlow's
defvjp("rsqrt", lambda g, ans, x: E._rsqrt_grad(ans, g))  # kernels: 0 where
defvjp("reciprocal", lambda g, ans, x: E._reciprocal_grad(ans, g))  # g is 0)
defvjp("square", lambda g, ans, x: g * 2 * _c(x))
defvjp("exp", lambda g, ans, x: g * _c(ans))
defvjp("expm1", lambda g, ans, x: g * (ans + 1))
defvjp("log", lambda g, ans, x: g / _c(x))
defvjp("log1p", lambda g, ans, x: g / (x + 1))
defvjp("log2", lambda g, ans, x: g / (x * math.log(2)))
defvjp("log10", lambda g, ans, x: g / (x * math.log(10)))
defvjp("sin", lambda g, ans, x: g * _c(E.cos(x)))
defvjp("cos", lambda g, ans, x: -g * _c(E.sin(x)))
defvjp("tan", lambda g, ans, x: g * (1 + ans * ans))
defvjp("arcsin", lambda g, ans, x: g * E.rsqrt(1 - x * x))
defvjp("arccos", lambda g, ans, x: -g * E.rsqrt(1 - x * x))
defvjp("arctan", lambda g, ans, x: g / (1 + x * x))
defvjp("sinh", lambda g, ans, x: g * E.cosh(x))
defvjp("cosh", lambda g, ans, x: g * E.sinh(x))
defvjp("tanh", lambda g, ans, x: E._tanh_grad(ans, g))
defvjp("erf", lambda g, ans, x: g * (2 / math.sqrt(math.pi)) * E.exp(-x * x))
defvjp("sigmoid", lambda g, ans, x: E._sigmoid_grad(ans, g))
defvjp("softplus", lambda g, ans, x: g * N.sigmoid(x))
defvjp("relu", lambda g, ans, x: E._relu_grad(g, x))
defvjp("log_softmax", lambda g, ans, x, axis:   # (a backend's fused kernel)
       g - E.exp(ans) * R.sum(g, axis=axis, keepdims=True))
defvjp("sign", _zero)
defvjp("floor", _zero)
defvjp("ceil", _zero)
defvjp("round", _zero)
defvjp("cast", cast_vjp)
defvjp("real", lambda g, ans, x: C.cast(g, x.dtype) if is_complex(x) else g)
defvjp("imag", imag_vjp)
defvjp("conj", lambda g, ans, x: E.conj(g))


# ---- elementwise, two inputs (broadcasting undone by the loop) ----------------
def _power_exponent(g, ans, x, y):
    safe = E.where(E.greater(x, 0), x, 1)
    return g * ans * E.where(E.greater(x, 0), E.log(safe), 0)


def _arctan2(g, ans, x1, x2, which):
    d = x1 * x1 + x2 * x2
    return g * x2 / d if which == 0 else -g * x1 / d


defvjp("add", lambda g, ans, x, y: g, lambda g, ans, x, y: g, broadcast=True)
defvjp("subtract", lambda g, ans, x, y: g, lambda g, ans, x, y: -g,
       broadcast=True)
defvjp("multiply", lambda g, ans, x, y: g * _c(y),
       lambda g, ans, x, y: g * _c(x), broadcast=True)
defvjp("divide", lambda g, ans, x, y: g / _c(y),
       lambda g, ans, x, y: -g * _c(ans / y), broadcast=True)
defvjp("power", lambda g, ans, x, y: g * y * E.power(x, y - 1),
       _power_exponent, broadcast=True)
defvjp("mod", lambda g, ans, x, y: g,
       lambda g, ans, x, y: -g * E.floor(x / y), broadcast=True)
defvjp("floor_divide", _zero, _zero_second, broadcast=True)
defvjp("maximum", lambda g, ans, x, y: E.where(E.greater_equal(x, y), g, 0),
       lambda g, ans, x, y: E.where(E.greater_equal(x, y), 0, g),
       broadcast=True)
defvjp("minimum", lambda g, ans, x, y: E.where(E.less_equal(x, y), g, 0),
       lambda g, ans, x, y: E.where(E.less_equal(x, y), 0, g),
       broadcast=True)
defvjp("arctan2", partial(_arctan2, which=0), partial(_arctan2, which=1),
       broadcast=True)
def _logaddexp(g, ans, x, y):
    # exp(x - ans), and 1 where x alone is the infinite ans (inf - inf)
    alone = E.logical_and(E.equal(x, ans), E.not_equal(x, y))
    return g * E.exp(E.where(alone, 0, x - ans))


defvjp("logaddexp", _logaddexp, lambda g, ans, x, y: _logaddexp(g, ans, y, x),
       broadcast=True)
defvjp("_tanh_grad", lambda g, ans, y, dy: -2 * g * dy * y,
       lambda g, ans, y, dy: E._tanh_grad(y, g))
defvjp("_sigmoid_grad", lambda g, ans, y, dy: g * dy * (1 - 2 * y),
       lambda g, ans, y, dy: E._sigmoid_grad(y, g))
defvjp("_relu_grad", lambda g, ans, dy, x: E._relu_grad(g, x), _zero_second)
defvjp("_sqrt_grad", lambda g, ans, y, dy: -_c(g / y) * ans,
       lambda g, ans, y, dy: 0.5 * (g / y))
defvjp("_rsqrt_grad", lambda g, ans, y, dy: -1.5 * _c(g) * dy * _c(y * y),
       lambda g, ans, y, dy: E._rsqrt_grad(_c(y), g))
defvjp("_reciprocal_grad", lambda g, ans, y, dy: -2 * _c(g) * dy * _c(y),
       lambda g, ans, y, dy: E._reciprocal_grad(_c(y), g))
defvjp("where", None, lambda g, ans, c, x, y: E.where(c, g, 0),
       lambda g, ans, c, x, y: E.where(c, 0, g), broadcast=True)


# ---- reductions -------------------------------------------------------------
def _expand(g, x, axis, keepdims):
    """g of a reduction over `axis`, broadcast back to x's shape."""
    shape = D.shape_of(x)
    if not keepdims and axis is not None:
        g = S.reshape(g, [1 if i in axis else n for i, n in enumerate(shape)])
    return S.broadcast_to(g, shape)


def _cumsum(g, ans, x, axis):
    if not D.known(g.shape):  # the reversed cumsum, without a static flip
        return R.sum(g, axis, keepdims=True) - R.cumsum(g, axis) + g
    return S.flip(R.cumsum(S.flip(g, axis), axis), axis)


def _extremum(g, ans, x, axis, keepdims):
    # ties share the gradient equally, as TensorFlow does
    hit = C.cast(E.equal(x, _expand(ans, x, axis, keepdims)), x.dtype)
    count = R.sum(hit, axis, keepdims=True)
    return _expand(g, x, axis, keepdims) * hit / count


defvjp("sum", lambda g, ans, x, axis, keepdims: _expand(g, x, axis, keepdims))
defvjp("max", _extremum)
defvjp("min", _extremum)
defvjp("cumsum", _cumsum)


# ---- shapes and indexing ----------------------------------------------------
def _concatenate(i, g, ans, *xs, axis):
    start = sum(D.shape_of(x)[axis] for x in xs[:i])
    if not D.known(g.shape):
        return D.slice_axis(g, axis, start, D.shape_of(xs[i])[axis])
    index = (slice(None),) * axis + (slice(start, start + xs[i].shape[axis]),)
    return S.getitem(g, index)


def _pad(g, ans, x, pad_width, constant_values):
    if not D.known(g.shape):
        for i, ((lo, _), n) in enumerate(zip(pad_width, D.shape_of(x))):
            g = D.slice_axis(g, i, lo, n)
        return g
    return S.getitem(g, tuple(slice(lo, lo + n)
                              for (lo, _), n in zip(pad_width, x.shape)))


defvjp("_copy", lambda g, ans, x: g)
defvjp("reshape", lambda g, ans, x, shape: S.reshape(g, D.shape_of(x)))
defvjp("transpose", lambda g, ans, x, axes:
       S.transpose(g, tuple(np.argsort(axes))))
defvjp("broadcast_to", lambda g, ans, x, shape: unbroadcast(g, x.shape, x))
defvjp("pad", _pad)
defvjp("_gather", lambda g, ans, x, positions: S._scatter(g, positions,
                                                          x.shape))
defvjp("_scatter", lambda g, ans, x, positions, shape, size:
       S._gather(g, positions))


# ---- linear algebra ---------------------------------------------------------
def _mT(x):
    perm = list(range(x.ndim))
    perm[-1], perm[-2] = perm[-2], perm[-1]
    return S.transpose(x, perm)


def _einsum(i, g, ans, *xs, subscripts):
    # the gradient over the distinct letters of input i, by one einsum of g
    # with the other inputs; letters summed inside input i alone are
    # broadcast back; a repeated letter (a diagonal) is put back on the
    # diagonal by einsum with an identity matrix
    lhs, out = subscripts.split("->")
    ins = lhs.split(",")
    term, x = ins[i], xs[i]
    others = [s for j, s in enumerate(ins) if j != i]
    sizes = {c: n for c, n in zip(term, x.shape)}
    uniq = "".join(dict.fromkeys(term))
    present = set(out + "".join(others))
    reduced = "".join(c for c in uniq if c in present)
    spec = ",".join([out] + others) + "->" + reduced
    gi = L.einsum(spec, g, *[x for j, x in enumerate(xs) if j != i])
    if reduced != uniq:
        gi = S.reshape(gi, [sizes[c] if c in present else 1 for c in uniq])
        gi = S.broadcast_to(gi, [sizes[c] for c in uniq])
    if uniq == term:
        return gi
    fresh = iter(c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                 if c not in subscripts)
    target, eyes, seen = "", [], set()
    for c in term:
        if c in seen:
            d = next(fresh)
            target += d
            eyes.append((c + d, C.eye(sizes[c], dtype=x.dtype)))
        else:
            target += c
            seen.add(c)
    spec = ",".join([uniq] + [e for e, _ in eyes]) + "->" + target
    return L.einsum(spec, gi, *[m for _, m in eyes])


def _cholesky(g, ans, x):
    n = x.shape[-1]
    lower = C.convert_to_tensor(np.tril(np.ones((n, n))), x.dtype)
    half_diag = C.convert_to_tensor(1 - 0.5 * np.eye(n), x.dtype)
    l_inv = L.inv(ans)
    middle = L.matmul(_mT(ans), g) * lower * half_diag
    grad = L.matmul(L.matmul(_mT(l_inv), middle), l_inv)
    return 0.5 * (grad + _mT(grad))


def _solve_b(g, ans, a, b):
    return L.solve(_mT(a), g)


def _solve_a(g, ans, a, b):
    return -L.matmul(L.solve(_mT(a), g), _mT(ans))


def _scalar_of_matrix(g):
    return S.expand_dims(S.expand_dims(g, -1), -1)


def _matmul_a(g, ans, a, b, transpose_a=False, transpose_b=False):
    # c = op(a) @ op(b); TensorFlow's rule, with no Transpose op
    if transpose_a:
        return L._matmul(_c(b), g, transpose_a=transpose_b, transpose_b=True)
    return L._matmul(g, _c(b), transpose_b=not transpose_b)


def _matmul_b(g, ans, a, b, transpose_a=False, transpose_b=False):
    if transpose_b:
        return L._matmul(g, _c(a), transpose_a=True, transpose_b=transpose_a)
    return L._matmul(_c(a), g, transpose_a=not transpose_a)


defvjp("matmul", _matmul_a, _matmul_b, broadcast=True)
defvjp("cholesky", _cholesky)
defvjp("inv", lambda g, ans, x: -L.matmul(L.matmul(_mT(ans), g), _mT(ans)))
defvjp("det", lambda g, ans, x: _scalar_of_matrix(g * ans) * _mT(L.inv(x)))
defvjp("logabsdet", lambda g, ans, x: _scalar_of_matrix(g) * _mT(L.inv(x)))
defvjp("solve", _solve_a, _solve_b)


# ---- ops with any number of inputs -----------------------------------------------
defvjp_each("concatenate", _concatenate)
defvjp_each("einsum", _einsum)


# ---- broadcasting, undone in one place ----------------------------------------
def unbroadcast(g, shape, like=None):
    """Sum g down to `shape` (the inverse of NumPy broadcasting), the shape
    of `like`; with dimensions unknown, on the axes broadcast at run time."""
    if like is not None and not D.known(shape):
        return D.sum_to(g, like)
    extra = g.ndim - len(shape)
    axes = tuple(range(extra)) + tuple(
        i + extra for i, n in enumerate(shape) if n == 1 and
        g.shape[i + extra] != 1)
    if axes:
        g = R.sum(g, axes, keepdims=True)
    return S.reshape(g, shape)


# Ops that never carry a gradient (their outputs are not recorded).
NON_DIFFERENTIABLE = (
    "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
    "logical_and", "logical_or", "logical_not", "isnan", "isfinite",
    "argmax", "argmin", "zeros", "ones", "full", "zeros_like", "ones_like",
    "full_like", "eye", "arange", "linspace", "shape", "convert_to_numpy",
    "stop_gradient")
NON_DIFFERENTIABLE += ("one_hot", "multi_hot", "ctc_decode")  # (nn)
