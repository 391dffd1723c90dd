"""The matrix norms made of singular values (keras.ops.norm's ord=2, -2
and 'nuc'), and the singular values as an op of their own whose gradient
stays finite where they repeat or vanish."""
import builtins

from pycg import backends, config
from pycg.ops._machinery.dispatch import apply, as_tensor, cast
from pycg.ops.arrays import moveaxis
from pycg.ops.elementwise import imag, negative, real
from pycg.ops.manipulation import concatenate, expand_dims
from pycg.ops.reduction import max, min, sum
from pycg.tensor import is_float


def norm(x, ord, axes, keepdims):
    """ord=2 (the largest singular value), -2 (the smallest) or 'nuc' (their
    sum) of the matrices of x over `axes` (two, in range); a complex
    matrix's through its real embedding [[re, -im], [im, re]], whose
    singular values are its own, each twice."""
    x = moveaxis(as_tensor(x, "norm"), axes, (-2, -1))
    twice = x.dtype.kind == "c"
    if twice:
        re, im = real(x), imag(x)
        x = concatenate([concatenate([re, negative(im)], -1),
                         concatenate([im, re], -1)], -2)
    elif not is_float(x.dtype):   # (ints and bools: floatx, as Keras)
        x = cast(x, config.floatx())
    s = svdvals(x)
    out = max(s, -1) if ord == 2 else min(s, -1) if ord == -2 else \
        sum(s, -1) / (2.0 if twice else 1.0)
    return expand_dims(out, tuple(sorted(axes))) if keepdims else out


def svdvals(x):
    """The singular values of real matrices x (..., m, n), largest first.
    Their rule (ops/rules/decompositions.py), u @ diag(g) @ vh, is
    TensorFlow's for tf.linalg.svd(compute_uv=False), finite where svd's
    own rule divides by the differences of singular values."""
    return apply("_svdvals", _kernel, (x,))


def _kernel(x):
    m, n = x.shape[-2:]
    k = builtins.min(m, n)
    return backends.active.svd_packed(x, False)[..., m * k:m * k + k]
