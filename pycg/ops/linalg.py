"""Products and linear algebra (keras.ops names)."""
import builtins

import numpy as np

from pycg import backends
from pycg._errors import Arg, Axis, Op, Shape, Value, user_error
from pycg.ops._machinery.dispatch import (cast, apply, apply_nograd,
                                          as_tensor, norm_axis, promote,
                                          result_dtype)
from pycg.ops.elementwise import abs, multiply, not_equal, sqrt
from pycg.ops.reduction import max, min, sum
from pycg.ops.manipulation import (expand_dims, reshape, squeeze, swapaxes,
                                   transpose)
from pycg.ops._machinery.dynamic import shape_of
from pycg.ops import _singular_values

__all__ = ("cholesky", "det", "dot", "einsum", "inv", "matmul", "norm",
           "outer", "slogdet", "solve", "tensordot")


def matmul(x1, x2):
    """Matrix product with NumPy's rules (1-d operands, batch broadcast).

    Returns:
        A tensor in the promoted dtype of x1 and x2 (shape below). int8
        operands give int32, as Keras.

    Example:
        >>> from pycg import ops
        >>> ops.matmul([[1.0, 2.0]], [[3.0], [4.0]]).numpy().tolist()
        [[11.0]]
    """
    a, b = promote(x1, x2, "matmul")
    if a.ndim == 0 or b.ndim == 0:
        raise user_error(ValueError, "{op}: operands must be at least 1-d, "
                         "got shapes {x} and {y}", op=Op("matmul"),
                         x=Shape(a.shape), y=Shape(b.shape))
    squeeze_a, squeeze_b = a.ndim == 1, b.ndim == 1
    if squeeze_a:
        a = reshape(a, (1,) + a.shape)
    if squeeze_b:
        b = reshape(b, b.shape + (1,))
    if a.shape[-1] != b.shape[-2]:
        raise user_error(ValueError, "{op}: shapes {x} and {y} are "
                         "incompatible ({k} != {n})", op=Op("matmul"),
                         x=Shape(np.shape(x1)), y=Shape(np.shape(x2)),
                         k=a.shape[-1], n=b.shape[-2])
    try:
        np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    except ValueError:
        raise user_error(ValueError, "{op}: batch shapes of {x} and {y} do "
                         "not broadcast", op=Op("matmul"), x=Shape(a.shape),
                         y=Shape(b.shape)) from None
    if a.ndim > 2 and b.ndim > 2 and a.shape[:-2] != b.shape[:-2]:
        batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
        from pycg.ops.manipulation import broadcast_to
        a = broadcast_to(a, batch + a.shape[-2:])
        b = broadcast_to(b, batch + b.shape[-2:])
    narrow = not backends.active.inexact(a._value) and a.dtype in _NARROW
    out = _narrow(a, b) if narrow else _matmul(a, b)
    if squeeze_a:
        out = squeeze(out, -2)
    if squeeze_b:
        out = squeeze(out, -1)
    return out


_NARROW = {np.dtype(d) for d in ("bool", "int8", "int16", "uint8", "uint16")}


def _narrow(a, b):
    """matmul of narrow integers or bools (TensorFlow has no kernel for
    them) through int32: back to their dtype, int8 with int8 kept as int32
    (Keras)."""
    out = _matmul(cast(a, "int32"), cast(b, "int32"))
    return out if a.dtype == np.int8 else cast(out, a.dtype)


def _matmul(a, b, transpose_a=False, transpose_b=False):
    """a @ b on matrices (or batches) of matching shapes, either operand
    transposed in the kernel rather than by a Transpose op: the gradients
    of matmul use this, as TensorFlow's do."""
    flags = {"transpose_a": True, "transpose_b": transpose_b} if \
        transpose_a else {"transpose_b": True} if transpose_b else None
    return apply("matmul", backends.active.matmul, (a, b), flags)


def dot(x1, x2):
    """np.dot: matmul for 1-d and 2-d, sum over last/second-to-last else.

    Returns:
        A tensor in the promoted dtype of x1 and x2 (shape below).
    """
    a, b = promote(x1, x2, "dot")
    if a.ndim == 0 or b.ndim == 0:
        return multiply(a, b)
    k = b.shape[0] if b.ndim == 1 else b.shape[-2]
    if a.shape[-1] != k:
        raise user_error(ValueError, "{op}: shapes {x} and {y} are "
                         "incompatible ({k} != {n})", op=Op("dot"),
                         x=Shape(a.shape), y=Shape(b.shape), k=a.shape[-1],
                         n=k)
    if b.ndim <= 2:
        return matmul(a, b)
    return tensordot(a, b, axes=([a.ndim - 1], [b.ndim - 2]))


def tensordot(x1, x2, axes=2):
    """Sum products over the given axes (as np.tensordot).

    Args:
        axes: An int N (the last N axes of x1 with the first N of x2) or a pair
            of axis lists.

    Returns:
        A tensor in the promoted dtype of x1 and x2 (shape below).
    """
    a, b = promote(x1, x2, "tensordot")
    if isinstance(axes, (int, np.integer)):
        ax_a = list(range(a.ndim - int(axes), a.ndim))
        ax_b = list(range(int(axes)))
    else:
        ax_a = [int(i) % a.ndim for i in np.atleast_1d(axes[0])]
        ax_b = [int(i) % b.ndim for i in np.atleast_1d(axes[1])]
    for i, j in zip(ax_a, ax_b):
        if a.shape[i] != b.shape[j]:
            raise user_error(ValueError, "{op}: shapes {x} and {y} do not "
                             "match on axes {ax_x} and {ax_y}",
                             op=Op("tensordot"), x=Shape(a.shape),
                             y=Shape(b.shape), ax_x=Axis(ax_a),
                             ax_y=Axis(ax_b))
    free_a = [i for i in range(a.ndim) if i not in ax_a]
    free_b = [i for i in range(b.ndim) if i not in ax_b]
    k = int(np.prod([a.shape[i] for i in ax_a], dtype=np.int64))
    m = n = -1
    if k == 0:   # (-1 is ambiguous beside a 0: the free sizes, known then)
        m = int(np.prod([a.shape[i] for i in free_a], dtype=np.int64))
        n = int(np.prod([b.shape[i] for i in free_b], dtype=np.int64))
    a2 = reshape(transpose(a, free_a + ax_a), (m, k))
    b2 = reshape(transpose(b, ax_b + free_b), (k, n))
    sa, sb = shape_of(a), shape_of(b)
    return reshape(matmul(a2, b2), [sa[i] for i in free_a] +
                   [sb[i] for i in free_b])


def outer(x1, x2):
    """Outer product of the flattened inputs.

    Returns:
        A 2-d tensor (x1.size, x2.size) in the promoted dtype.
    """
    a, b = promote(x1, x2, "outer")
    return reshape(a, (-1, 1)) * reshape(b, (1, -1))


def einsum(subscripts, *operands):
    """Einstein summation as np.einsum: implicit or explicit ('->') output,
    '...' for broadcast leading axes, repeated indices (diagonals, traces).
    The subscripts are written out in explicit form before the kernel runs,
    so the gradient rule sees one letter per axis.

    Args:
        subscripts: The subscripts, as np.einsum ('ij,jk->ik').
        *operands: The tensors, one per comma-separated term.

    Returns:
        A tensor in the operands' promoted dtype, of the shape the output
        subscripts name.

    Example:
        >>> from pycg import ops
        >>> ops.einsum('ij->j', [[1.0, 2.0], [3.0, 4.0]]).numpy().tolist()
        [4.0, 6.0]
    """
    ops_ = [as_tensor(o, "einsum") for o in operands]
    spec = _explicit(subscripts.replace(" ", ""), ops_)
    if len(ops_) > 1:
        dt = result_dtype(*[o.dtype for o in ops_])
        ops_ = [cast(o, dt) for o in ops_]
    try:
        return apply("einsum", _einsum_kernel, tuple(ops_),
                     {"subscripts": spec})
    except Exception as e:
        if type(e).__module__.startswith("pycg"):
            raise
        raise ValueError(f"pycg.ops.einsum: {subscripts!r} does not fit "
                         f"shapes {[o.shape for o in ops_]}: {e}") from None


def _explicit(subscripts, ops_):
    """subscripts with '->' and without '...' (NumPy's implicit output:
    the ellipsis axes, then the letters used once, in alphabetical order)."""
    lhs, arrow, out = subscripts.partition("->")
    ins = lhs.split(",")
    if len(ins) != len(ops_):
        raise ValueError(f"pycg.ops.einsum: {subscripts!r} names "
                         f"{len(ins)} operands, got {len(ops_)}")
    used = set(subscripts) - set(",->.")
    free = [c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
            if c not in used]
    n_ell = 0
    for term, o in zip(ins, ops_):
        if "..." in term:
            n_ell = builtins.max(n_ell, o.ndim - len(term.replace("...", "")))
    ell = "".join(free[:n_ell])
    new_ins = []
    for term, o in zip(ins, ops_):
        if "..." in term:
            k = o.ndim - len(term.replace("...", ""))
            if k < 0:
                raise user_error(ValueError, "{op}: {term} names more axes "
                                 "than operand of shape {shape}",
                                 op=Op("einsum"), term=Value(term),
                                 shape=Shape(o.shape))
            term = term.replace("...", ell[n_ell - k:] if k else "")
        if len(term) != o.ndim:
            raise user_error(ValueError, "{op}: {term} names {n} axes for an "
                             "operand of shape {shape}", op=Op("einsum"),
                             term=Value(term), n=len(term), shape=Shape(o.shape))
        new_ins.append(term)
    if not arrow:
        letters = "".join(new_ins)
        out = ell + "".join(sorted(c for c in set(letters) - set(ell)
                                   if letters.count(c) == 1))
    else:
        out = out.replace("...", ell)
    return ",".join(new_ins) + "->" + out


def _einsum_kernel(*operands, subscripts):
    return backends.active.einsum(subscripts, *operands)


def norm(x, ord=None, axis=None, keepdims=False):
    """np.linalg.norm: the 2-norm of all entries (ord=None); vector norms
    (ord any number p: (sum |x|^p)^(1/p), inf, -inf, 0 the count of
    nonzeros) along one axis or of a 1-d x; matrix norms ('fro', 1, -1,
    inf, -inf, and from the singular values 2, -2, 'nuc') over two axes or
    of a 2-d x.

    Args:
        ord: The norm's order (see the summary; None: 2-norm / Frobenius).

    Returns:
        A real float tensor: x's shape without the reduced axes (kept as length
        1 with keepdims).

    Differs:
        The norm of a complex x is real, as NumPy; a bfloat16 x answers in
        bfloat16 (Keras cannot read its own result back); ord=2, -2 or 'nuc'
        with keepdims and the two axes in descending order keeps them as NumPy
        (Keras fails). Their gradient is TensorFlow's: u @ diag(g) @ vh, finite
        where singular values repeat or vanish.
    """
    x = as_tensor(x, "norm")
    if ord is not None:
        axes = norm_axis(tuple(range(x.ndim)) if axis is None else axis,
                         x.ndim, "norm")
        if len(axes) == 2 and ord in (2, -2, "nuc"):
            return _singular_values.norm(x, ord, axes, keepdims)
    if x.dtype.kind == "c":   # (the norm of the magnitudes: real)
        x = abs(x)
    if ord is None:
        return sqrt(sum(x * x, axis=axis, keepdims=keepdims))
    if len(axes) == 1 and ord == 2 or len(axes) == 2 and ord == "fro":
        return sqrt(sum(x * x, axis=axes, keepdims=keepdims))
    if len(axes) == 1 and ord in (1, np.inf, -np.inf):
        reduce = sum if ord == 1 else max if ord == np.inf else min
        return reduce(abs(x), axis=axes, keepdims=keepdims)
    if len(axes) == 1 and isinstance(ord, (int, float)) and \
            not isinstance(ord, bool):   # (Keras: any p for vectors)
        if ord == 0:
            return sum(cast(not_equal(x, 0), x.dtype), axis=axes,
                       keepdims=keepdims)
        return sum(abs(x) ** ord, axis=axes, keepdims=keepdims) ** (1 / ord)
    if len(axes) == 2 and ord in (1, -1, np.inf, -np.inf):
        inner, outer = axes if ord in (1, -1) else axes[::-1]
        out = (max if ord > 0 else min)(sum(abs(x), axis=inner,
                                            keepdims=True), axis=outer,
                                        keepdims=True)
        return out if keepdims else squeeze(out, axes)
    raise ValueError(f"pycg.ops.norm: ord={ord!r} over {len(axes)} axes is "
                     f"not supported (vectors: None or a number, inf, "
                     f"-inf; matrices: None, 'fro', 'nuc', 1, -1, 2, -2, "
                     f"inf, -inf)")


def _square(op, x):
    x = as_tensor(x, op)
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise user_error(ValueError, "{op}: expected a square matrix (or a "
                         "batch of them), got shape {shape}", op=Op(op),
                         shape=Shape(x.shape))
    return x


def cholesky(x, upper=False):
    """Lower-triangular L with L @ L^T = x (upper: L^T, upper-triangular,
    with L^T^T @ L^T = x).

    Args:
        x: The symmetric positive-definite matrix (or batch).

    Returns:
        A tensor of x's shape and dtype.
    """
    out = apply("cholesky", backends.active.cholesky,
                (_square("cholesky", x),))
    return swapaxes(out, -1, -2) if upper else out


def inv(x):
    """Matrix inverse.

    Args:
        x: The matrix (or a batch of matrices in the last two axes): a Tensor,
            or anything ops.convert_to_tensor takes.

    Returns:
        A tensor of x's shape and dtype.
    """
    return apply("inv", backends.active.inv, (_square("inv", x),))


def det(x):
    """Matrix determinant.

    Args:
        x: The matrix (or a batch of matrices in the last two axes): a Tensor,
            or anything ops.convert_to_tensor takes.

    Returns:
        A tensor of x's batch shape (the last two axes reduced).
    """
    return apply("det", backends.active.det, (_square("det", x),))


def solve(a, b):
    """x with a @ x = b (b a vector or a matrix of right-hand sides).

    Args:
        a: The square matrix (or batch).

    Returns:
        A tensor of b's shape: the solution x.
    """
    a, b, vec = _system("solve", a, b)
    out = apply("solve", backends.active.solve, (a, b))
    return squeeze(out, -1) if vec else out


def _system(op, a, b):
    """(a, b, vec) of a @ x = b: a square, the two promoted, b a matrix of
    right-hand sides (vec: b was a vector, given a trailing axis) whose
    rows match a's columns."""
    a = _square(op, a)
    a, b = promote(a, b, op)
    vec = b.ndim == a.ndim - 1
    if vec:
        b = expand_dims(b, -1)
    if b.shape[-2] != a.shape[-1]:
        raise user_error(ValueError, "{op}: {a} has shape {shape_a} but {b} "
                         "has shape {shape_b}", op=Op(op), a=Arg("a"),
                         b=Arg("b"), shape_a=Shape(a.shape),
                         shape_b=Shape(b.shape[:-1] if vec else b.shape))
    return a, b, vec


def slogdet(x):
    """(sign, log|det x|); only the log-determinant has a gradient.

    Args:
        x: The matrix (or a batch of matrices in the last two axes): a Tensor,
            or anything ops.convert_to_tensor takes.

    Returns:
        A pair (sign, logabsdet), each of x's batch shape.
    """
    x = _square("slogdet", x)
    sign = apply_nograd(lambda v: backends.active.slogdet(v)[0], (x,))
    logdet = apply("logabsdet", lambda v: backends.active.slogdet(v)[1], (x,))
    return sign, logdet
