"""Base R's matrix functions on tensors, for the R package
(R/tensor-linalg.R): the shapes base R gives (a vector read as a row or a
column as R's matrix product reads it, t() of a vector a row), R's types (a
product of integers or logicals is double) and base R's errors in its own
words, every result recorded on tapes.

In R a tensor of two axes is a matrix; one of any other number of axes is,
to these functions, the vector of its elements in R's (column-major) order.
"""
import numpy as np

import pycg
from pycg.r.na import symbolic

ops = pycg.ops


def ravel(x):
    """The elements of x in R's (column-major) order, as a 1-d tensor."""
    x = pycg.convert_to_tensor(x)
    return ops.reshape(ops.transpose(x) if x.ndim > 1 else x, (-1,))


def with_dims(flat, dims):
    """R's `dim(x) <- dims` of the 1-d tensor `flat` (R's order)."""
    out = ops.reshape(flat, tuple(reversed(dims)))
    return ops.transpose(out) if len(dims) > 1 else out


def as_double(x):
    """x as a tensor; integers and logicals as float64, as R's matrix
    functions compute in doubles."""
    x = pycg.convert_to_tensor(x)
    return ops.cast(x, "float64") if x.dtype.kind in "biu" else x


def r_dims(x):
    """What base R calls the dims of x's plain data: its shape, or the
    length of a scalar."""
    return tuple(x.shape) if x.ndim else (1,)


def describe(x):
    """x as base R would describe it in an error: 2 x 3, or a length."""
    return " x ".join(map(str, x.shape)) if x.ndim == 2 else \
        f"a vector of length {int(np.prod(x.shape))}"


# ---- matrix products ---------------------------------------------------------
# How %*%, crossprod() and tcrossprod() read an operand that is not a matrix
# (R's do_matprod): each rule gives the (rows, columns) of the vector x of
# length n beside the matrix of shape `other`, or None (not conformable).

def _vector_beside(kind, n, other, first):
    r, c = other
    if kind == "matmul":
        if first:
            return (1, n) if n == r else (n, 1) if r == 1 else None
        return (n, 1) if n == c else (1, n) if c == 1 else None
    if kind == "crossprod":
        if first:
            return (n, 1) if n == r else None
        return (n, 1) if n == r else (1, n) if r == 1 else None
    if first:
        return (1, n) if n == c else (n, 1) if c == 1 else None
    return (1, n) if r == 1 else (n, 1)


def _vectors(kind, nx, ny):
    """The matrices two vectors read as."""
    if kind == "tcrossprod":
        return (nx, 1), (ny, 1)
    x = (1, nx) if kind == "matmul" else (nx, 1)
    return x, (ny, 1) if nx == ny else (1, ny)


_INNER = {"matmul": (1, 0), "crossprod": (0, 0), "tcrossprod": (1, 1)}
_NAMES = {"matmul": "%*%", "crossprod": "crossprod()",
          "tcrossprod": "tcrossprod()"}


def matprod(kind, x, y=None):
    """x %*% y (kind "matmul"), crossprod(x, y) = t(x) %*% y or
    tcrossprod(x, y) = x %*% t(y) with base R's shapes and types; y None is
    x."""
    x = as_double(x)
    y = x if y is None else as_double(y)
    nx, ny = int(np.prod(x.shape)), int(np.prod(y.shape))
    if x.ndim == 2 and y.ndim == 2:
        sx, sy = x.shape, y.shape
    elif x.ndim == 2:
        sx, sy = x.shape, _vector_beside(kind, ny, x.shape, first=False)
    elif y.ndim == 2:
        sx, sy = _vector_beside(kind, nx, y.shape, first=True), y.shape
    else:
        sx, sy = _vectors(kind, nx, ny)
    i, j = _INNER[kind]
    if sx is None or sy is None or sx[i] != sy[j]:
        raise ValueError(f"{_NAMES[kind]}: non-conformable arguments (x is "
                         f"{describe(x)}, y {describe(y)})")
    a = x if x.ndim == 2 else ops.reshape(ravel(x), sx)
    b = y if y.ndim == 2 else ops.reshape(ravel(y), sy)
    if kind == "crossprod":
        a = ops.transpose(a)
    elif kind == "tcrossprod":
        b = ops.transpose(b)
    return ops.matmul(a, b)


def transpose(x):
    """R's t(x): a vector (or a scalar) is a one-row matrix."""
    x = pycg.convert_to_tensor(x)
    if x.ndim > 2:
        raise ValueError("t(): argument is not a matrix (a tensor of "
                         f"{x.ndim} axes); use aperm(x, perm) to permute "
                         "the axes of an array")
    if x.ndim < 2:
        return ops.reshape(x, (1, -1))
    return ops.transpose(x)


def outer_operands(x, y, product):
    """(X, Y, dims) of base R's outer(x, y, FUN): X and Y the elements paired
    (R's rep()), dims those of the result. `product` (FUN is "*"): X and Y
    as doubles, as base R multiplies them as a matrix product."""
    x, y = pycg.convert_to_tensor(x), pycg.convert_to_tensor(y)
    if product:
        x, y = as_double(x), as_double(y)
    vx, vy = ravel(x), ravel(y)
    nx, ny = vx.shape[0], vy.shape[0]
    return (ops.tile(vx, (ny,)), ops.repeat(vy, nx),
            list(r_dims(x) + r_dims(y)))


# ---- square matrices -----------------------------------------------------------

def square(x, who, message="'a' must be a square matrix"):
    """x as a square matrix of doubles (a scalar is 1 x 1), or base R's
    error."""
    x = as_double(x)
    if x.ndim == 0 or (x.ndim == 1 and x.shape[0] == 1):
        return ops.reshape(x, (1, 1))
    if x.ndim != 2 or x.shape[0] != x.shape[1]:
        raise ValueError(f"{who}: {message} (got {describe(x)})")
    return x


def solve(a, b=None, tol=None):
    """base R's solve(a, b): a vector b gives a vector, no b the inverse;
    base R's errors for a singular `a`."""
    a = as_double(a)
    if a.ndim == 2 and a.shape[0] != a.shape[1]:
        raise ValueError(f"solve(): 'a' ({describe(a)}) must be square")
    a = square(a, "solve()", "'a' must be a square matrix")
    n = a.shape[0]
    _check_singular(a, np.finfo(float).eps if tol is None else tol)
    if b is None:
        return ops.inv(a)
    b = as_double(b)
    vector = b.ndim != 2
    rhs = ops.reshape(ravel(b), (-1, 1)) if vector else b
    if rhs.shape[0] != n:
        raise ValueError(f"solve(): 'b' ({rhs.shape[0]} x {rhs.shape[1]}) "
                         f"must be compatible with 'a' ({n} x {n})")
    out = ops.solve(a, rhs)
    return ops.reshape(out, (-1,)) if vector else out


def _check_singular(a, tol):
    """Base R's errors for an exactly or computationally singular matrix
    (from the values; a traced one cannot be checked)."""
    if symbolic(a) or a.shape[0] == 0:
        return
    m = np.asarray(a.numpy())
    if not np.isfinite(m).all():
        return
    try:
        rcond = 1.0 / np.linalg.cond(m, 1)
    except np.linalg.LinAlgError:
        rcond = 0.0
    if not rcond >= tol:
        raise ValueError(
            "solve(): system is computationally singular: reciprocal "
            f"condition number = {rcond:.6g} (base R's error: `a` has no "
            "inverse)")


def upper_symmetric(x):
    """The symmetric matrix of x's upper triangle: what base R's chol()
    reads (LAPACK's dpotrf), so gradients reach the upper triangle only."""
    return ops.add(ops.triu(x), ops.transpose(ops.triu(x, 1)))


def chol(x):
    """base R's chol(x): the upper triangular R with t(R) %*% R = x, from
    x's upper triangle; base R's error where x is not positive definite."""
    s = upper_symmetric(square(x, "chol()"))
    if not symbolic(s):
        _check_positive_definite(np.asarray(s.numpy()))
    return ops.cholesky(s, upper=True)


def _check_positive_definite(m):
    if not _factors(m):
        k = next(k for k in range(1, m.shape[0] + 1) if not _factors(m[:k, :k]))
        raise ValueError(f"chol(): the leading minor of order {k} is not "
                         "positive definite")


def _factors(m):
    try:
        np.linalg.cholesky(m)
    except np.linalg.LinAlgError:
        return False
    return True


def determinant(x, logarithm=True):
    """(modulus, sign) of base R's determinant(x): log |det| (or |det|) and
    the sign as a tensor; a 0 x 0 matrix has determinant 1."""
    x = square(x, "determinant()", "'x' must be a square matrix")
    if x.shape[0] == 0:
        modulus = pycg.convert_to_tensor(0.0 if logarithm else 1.0)
        return modulus, pycg.convert_to_tensor(1.0)
    sign, logabs = ops.slogdet(x)
    sign = ops.where(ops.equal(sign, 0), 1.0, sign)  # base R: 1 when singular
    return (logabs if logarithm else ops.exp(logabs)), sign


def det(x):
    """base R's det(x)."""
    x = square(x, "det()", "'x' must be a square matrix")
    return ops.det(x) if x.shape[0] else pycg.convert_to_tensor(1.0)


def backsolve(r, x, k=None, upper_tri=True, transpose=False):
    """base R's backsolve(r, x, k, upper.tri, transpose): solves
    r[1:k, 1:k] %*% y = x[1:k, ] (t(r) with transpose) from the one
    triangle of r; a vector x gives a vector."""
    r, x = as_double(r), as_double(x)
    r = r if r.ndim == 2 else ops.reshape(ravel(r), (-1, 1))
    vector = x.ndim != 2
    rhs = ops.reshape(ravel(x), (-1, 1)) if vector else x
    k = r.shape[1] if k is None else int(k)
    if not 0 < k <= min(r.shape) or rhs.shape[0] < k:
        raise ValueError(f"backsolve(): invalid 'k' argument ({k} for r of "
                         f"{describe(r)} and x of {rhs.shape[0]} rows)")
    a = r[:k, :k]
    a = ops.triu(a) if upper_tri else ops.tril(a)
    if not symbolic(a):
        zero = np.flatnonzero(np.diagonal(np.asarray(a.numpy())) == 0)
        if zero.size:
            raise ValueError("backsolve(): singular matrix in 'backsolve'. "
                             f"First zero in diagonal [{zero[0] + 1}]")
    lower = not upper_tri
    if transpose:
        a, lower = ops.transpose(a), upper_tri
    out = ops.solve_triangular(a, rhs[:k], lower=lower)
    return ops.reshape(out, (-1,)) if vector else out


_NORMS = {"O": "O", "1": "O", "I": "I", "F": "F", "E": "F", "M": "M",
          "2": "2"}


def norm(x, type="O"):
    """base R's norm(x, type) of a matrix: "O" (or "1") the largest column
    sum of |x|, "I" the largest row sum, "F" (or "E") Frobenius, "M" the
    largest |x|, "2" the largest singular value."""
    kind = _NORMS.get(type[:1].upper())
    if kind is None:
        raise ValueError(f"norm(): argument type[1]='{type}' must be one of "
                         "'M','1','O','I','F' or 'E' (or '2')")
    x = as_double(x)
    if x.ndim != 2:
        raise ValueError("norm(): 'A' must be a numeric matrix (got "
                         f"{describe(x)}); use norm(as.matrix(x)) or "
                         "op_norm(x) for a vector")
    if x.shape[0] * x.shape[1] == 0:
        return pycg.convert_to_tensor(0.0)
    if kind == "2":
        return ops.max(ops.svd(x, compute_uv=False))
    if kind == "F":
        return ops.sqrt(ops.sum(ops.square(x)))
    a = ops.abs(x)
    if kind == "M":
        return ops.max(a)
    return ops.max(ops.sum(a, axis=0 if kind == "O" else 1))
