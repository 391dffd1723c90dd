"""Matrix decompositions and more linear algebra (keras.ops linalg/numpy
names). A decomposition with several outputs runs as one kernel whose
outputs are packed into one array (one rule in rules/decompositions.py);
the op unpacks it with differentiable indexing."""
import builtins

import numpy as np

from pycg import backends, config
from pycg._errors import Op, Shape, user_error
from pycg.ops._machinery.dispatch import apply, apply_nograd, as_tensor, promote
from pycg.ops.creation import cast
from pycg.ops.elementwise import greater, sqrt, where
from pycg.ops.linalg import (_square, _system, inv, matmul, slogdet,
                             tensordot)
from pycg.ops.manipulation import (expand_dims, getitem, reshape, squeeze,
                                   transpose)
from pycg.ops.arrays import tril, triu
from pycg.ops.reduction import max, sum
from pycg.tensor import Tensor, is_float

__all__ = ("cdist", "cholesky_inverse", "cross", "eig", "eigh", "inner",
           "kron", "logdet", "lstsq", "lu_factor", "matrix_rank", "pinv", "qr",
           "solve_triangular", "svd", "vdot")


def _matrix(op, x):
    x = as_tensor(x, op)
    if x.ndim < 2:
        raise user_error(ValueError, "{op}: expected a matrix (or a batch of "
                         "them), got shape {shape}", op=Op(op),
                         shape=Shape(x.shape))
    return x if is_float(x.dtype) else cast(x, config.floatx())


def _mT(x):
    perm = list(range(x.ndim))
    perm[-1], perm[-2] = perm[-2], perm[-1]
    return transpose(x, perm)


def _unpack(packed, shapes):
    """Split the last axis of `packed` into tensors of the given trailing
    shapes."""
    batch, out, start = packed.shape[:-1], [], 0
    pre = (slice(None),) * len(batch)
    for shape in shapes:
        n = int(np.prod(shape, dtype=np.int64))
        out.append(reshape(getitem(packed, pre + (slice(start, start + n),)),
                           batch + tuple(shape)))
        start += n
    return out


def svd(x, full_matrices=True, compute_uv=True):
    """(u, s, vh) with x = u @ diag(s) @ vh, or s alone; differentiable
    (reduced matrices, or square x, with distinct singular values).

    Args:
        x: The matrix (or a batch of matrices in the last two axes): a Tensor,
            or anything ops.convert_to_tensor takes.
        full_matrices: u and vh square (else reduced to min(m, n)).
        compute_uv: Return u and vh too (else s alone).

    Returns:
        A tuple (u, s, vh), or s alone when not compute_uv; s descending.

    Example:
        >>> from pycg import ops
        >>> x = ops.convert_to_tensor([[3.0, 0.0], [0.0, -2.0]])
        >>> ops.svd(x, compute_uv=False).numpy().tolist()
        [3.0, 2.0]
    """
    x = _matrix("svd", x)
    m, n = x.shape[-2:]
    k = min(m, n)
    full = bool(full_matrices) and m != n and compute_uv
    packed = apply("svd_packed", backends.active.svd_packed, (x,),
                   {"full_matrices": full})
    ucols, vrows = (m, n) if full else (k, k)
    u, s, vh = _unpack(packed, [(m, ucols), (k,), (vrows, n)])
    return (u, s, vh) if compute_uv else s


def qr(x, mode="reduced"):
    """(q, r) with x = q @ r; differentiable for mode='reduced' with
    rows >= columns.

    Args:
        x: The matrix (or a batch of matrices in the last two axes): a Tensor,
            or anything ops.convert_to_tensor takes.
        mode: 'reduced' or 'complete'.

    Returns:
        A pair (q, r) ('reduced': q (m, k), r (k, n) with k = min(m, n);
        'complete': q (m, m), r (m, n)).
    """
    if mode not in ("reduced", "complete"):
        raise ValueError(f"pycg.ops.qr: mode must be 'reduced' or "
                         f"'complete', got {mode!r}")
    x = _matrix("qr", x)
    m, n = x.shape[-2:]
    k = m if mode == "complete" else min(m, n)
    packed = apply("qr_packed", backends.active.qr_packed, (x,),
                   {"mode": mode})
    return tuple(_unpack(packed, [(m, k), (k, n)]))


def eigh(x):
    """(w, v): eigenvalues (ascending) and eigenvectors of a symmetric x,
    reading its lower triangle; differentiable (distinct eigenvalues).

    Args:
        x: The matrix (or a batch of matrices in the last two axes): a Tensor,
            or anything ops.convert_to_tensor takes.

    Returns:
        A pair (w, v): eigenvalues (..., n), eigenvectors (..., n, n) in
        columns.

    Example:
        >>> from pycg import ops
        >>> w, v = ops.eigh(ops.convert_to_tensor([[2.0, 1.0], [1.0, 2.0]]))
        >>> w.numpy().round(6).tolist()
        [1.0, 3.0]
    """
    x = _square("eigh", _matrix("eigh", x))
    packed = apply("eigh_packed", backends.active.eigh_packed, (x,))
    pre = (slice(None),) * (x.ndim - 2)
    return getitem(packed, pre + (0,)), getitem(packed, pre + (slice(1,
                                                                      None),))


def eig(x):
    """(w, v) of a general square x, complex; not differentiable.

    Args:
        x: The matrix (or a batch of matrices in the last two axes): a Tensor,
            or anything ops.convert_to_tensor takes.

    Returns:
        A pair (w, v): complex eigenvalues (..., n) and eigenvectors (..., n,
        n) in columns.
    """
    x = _square("eig", _matrix("eig", x))
    w, v = backends.active.eig(x._value)
    return Tensor(w), Tensor(v)


def lu_factor(x):
    """(lu, pivots): LAPACK's packed LU factors and 0-based row swaps;
    not differentiable.

    Args:
        x: The matrix (or a batch of matrices in the last two axes): a Tensor,
            or anything ops.convert_to_tensor takes.

    Returns:
        A pair (lu, pivots): the packed factors (x's shape) and int32 pivots.
    """
    x = _square("lu_factor", _matrix("lu_factor", x))
    lu, piv = backends.active.lu_factor(x._value)
    return Tensor(lu), Tensor(piv)


def solve_triangular(a, b, lower=False):
    """x with a @ x = b for triangular a (the other triangle is ignored).

    Args:
        a: The triangular matrix (or batch).

    Returns:
        A tensor of b's shape: the solution x.
    """
    a, b, vec = _system("solve_triangular", a, b)
    out = apply("solve_triangular", backends.active.solve_triangular, (a, b),
                {"lower": bool(lower)})
    return squeeze(out, -1) if vec else out


def _cutoff(s, rcond, m, n):
    if rcond is None:
        rcond = 10 * builtins.max(m, n) * float(backends.finfo(s.dtype).eps)
    return max(s, -1, keepdims=True) * rcond


def pinv(x, rcond=None):
    """The Moore-Penrose pseudo-inverse (singular values below rcond times
    the largest are dropped).

    Args:
        x: The matrix (or a batch of matrices in the last two axes): a Tensor,
            or anything ops.convert_to_tensor takes.

    Returns:
        A tensor (..., n, m): the pseudo-inverse.
    """
    x = _matrix("pinv", x)
    u, s, vh = svd(x, full_matrices=False)
    keep = greater(s, _cutoff(s, rcond, *x.shape[-2:]))
    s_inv = where(keep, 1.0 / where(keep, s, 1.0), 0.0)
    return matmul(_mT(vh) * expand_dims(s_inv, -2), _mT(u))


def lstsq(a, b, rcond=None):
    """The x minimising ||a @ x - b|| (minimum norm), by the pseudo-inverse.

    Args:
        a: The (m, n) matrix.
        b: The right-hand side, (m,) or (m, k).

    Returns:
        A tensor (n, k) (or (n,) for 1-d b): the solution.
    """
    a = _matrix("lstsq", a)
    a, b = promote(a, b, "lstsq")
    if b.shape[0] != a.shape[0]:
        raise ValueError(f"pycg.ops.lstsq: a has {a.shape[0]} rows but b has "
                         f"{b.shape[0]}")
    if rcond is None:  # NumPy's default for lstsq
        rcond = builtins.max(a.shape[-2:]) * float(
            backends.finfo(a.dtype).eps)
    return matmul(pinv(a, rcond), b)


def logdet(x):
    """log det x (NaN where det x <= 0).

    Args:
        x: The matrix (or a batch of matrices in the last two axes): a Tensor,
            or anything ops.convert_to_tensor takes.

    Returns:
        A tensor of x's batch shape (the last two axes reduced).
    """
    sign, logabs = slogdet(_matrix("logdet", x))
    return where(greater(sign, 0), logabs, np.nan)


def matrix_rank(x, tol=None):
    """The number of singular values above `tol` (default: the largest
    times max(m, n) times eps); not differentiable.

    Args:
        x: The matrix (or a batch of matrices in the last two axes): a Tensor,
            or anything ops.convert_to_tensor takes.
        tol: The threshold (None: see the summary).

    Returns:
        An int32 tensor of x's batch shape.
    """
    x = _matrix("matrix_rank", x)
    s = apply_nograd(lambda v: backends.active.svd_packed(v, False),
                     (x,))
    m, n = x.shape[-2:]
    k = min(m, n)
    pre = (slice(None),) * (x.ndim - 2)
    s = getitem(s, pre + (slice(m * k, m * k + k),))
    if tol is None:
        tol = max(s, -1, keepdims=True) * (builtins.max(m, n) * float(
            backends.finfo(s.dtype).eps))
    return sum(cast(greater(s, tol), "int32"), -1)


def cholesky_inverse(x, upper=False):
    """The inverse of a from its Cholesky factor x (a = x @ x^T, or
    x^T @ x if `upper`); only x's lower (upper) triangle is read, so the
    other gets no gradient (Keras' triangular solve).

    Args:
        x: The triangular Cholesky factor (or batch).

    Returns:
        A tensor of x's shape and dtype.
    """
    x = _square("cholesky_inverse", _matrix("cholesky_inverse", x))
    x = triu(x) if upper else tril(x)
    return inv(matmul(_mT(x), x) if upper else matmul(x, _mT(x)))


# ---- products ---------------------------------------------------------------
def kron(x1, x2):
    """The Kronecker product.

    Returns:
        A tensor in the promoted dtype of x1 and x2 (shape below).
    """
    a, b = promote(x1, x2, "kron")
    nd = builtins.max(a.ndim, b.ndim)
    a = reshape(a, (1,) * (nd - a.ndim) + a.shape)
    b = reshape(b, (1,) * (nd - b.ndim) + b.shape)
    outer = reshape(a, [d for n in a.shape for d in (n, 1)]) * reshape(
        b, [d for n in b.shape for d in (1, n)])
    return reshape(outer, [p * q for p, q in zip(a.shape, b.shape)])


def inner(x1, x2):
    """Sum of products over the last axes (a product for scalars).

    Returns:
        A tensor in the promoted dtype of x1 and x2 (shape below).
    """
    a, b = promote(x1, x2, "inner")
    if a.ndim == 0 or b.ndim == 0:
        return a * b
    return tensordot(a, b, ([a.ndim - 1], [b.ndim - 1]))


def vdot(x1, x2):
    """The dot product of the flattened tensors.

    Returns:
        A 0-d tensor in the promoted dtype (x1 conjugated when complex).
    """
    a, b = promote(x1, x2, "vdot")
    if a.dtype.kind == "b":   # (NumPy and Keras: a bool, any of the ands)
        from pycg.ops.logic import any
        return any(reshape(a, (-1,)) * reshape(b, (-1,)))
    return sum(reshape(a, (-1,)) * reshape(b, (-1,)))


def cross(x1, x2, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """The cross product of 3-vectors (2-vectors: z taken as 0).

    Args:
        axisa: The axis of x1 holding the vectors.
        axisb: The axis of x2 holding the vectors.
        axisc: The axis of the result holding the vectors.
        axis: If given, overrides axisa, axisb and axisc.

    Returns:
        A tensor in the promoted dtype of x1 and x2 (shape below).
    """
    a, b = promote(x1, x2, "cross")
    if axis is not None:
        axisa = axisb = axisc = axis
    from pycg.ops.arrays import moveaxis
    a, b = moveaxis(a, axisa, -1), moveaxis(b, axisb, -1)
    for t in (a, b):
        if t.shape[-1] not in (2, 3):
            raise user_error(ValueError, "{op}: vectors must have 2 or 3 "
                             "components, got shape {shape}", op=Op("cross"),
                             shape=Shape(t.shape))
    a0, a1, a2 = _components(a)
    b0, b1, b2 = _components(b)
    if a.shape[-1] == 2 and b.shape[-1] == 2:
        return a0 * b1 - a1 * b0
    from pycg.ops.manipulation import stack
    c = stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], -1)
    return moveaxis(c, -1, axisc)


def _components(v):
    parts = [getitem(v, (Ellipsis, i)) for i in range(v.shape[-1])]
    return parts + [parts[0] * 0.0] * (3 - len(parts))


def cdist(x, y):
    """Euclidean distances between the rows of x and of y.

    Args:
        x: The first set of points, (m, d).
        y: The second set of points, (n, d).

    Returns:
        A tensor (rows of x, rows of y) of distances.
    """
    a, b = promote(x, y, "cdist")
    d = expand_dims(a, -2) - expand_dims(b, -3)
    return sqrt(sum(d * d, -1))
