"""Base R's matrix functions on tensors, for the R package
(R/tensor-linalg.R): the shapes base R gives (a vector read as a row or a
column as R's matrix product reads it, t() of a vector a row), R's types (a
product of integers or logicals is double) and base R's errors in its own
words, every result recorded on tapes. Solving and factorising square
matrices is in pycg/r/base/square.py.

In R a tensor of two axes is a matrix; one of any other number of axes is,
to these functions, the vector of its elements in R's (column-major) order.
"""
import numpy as np

import pycg
from pycg.r.base.na import symbolic
from pycg.r.base.semantics import as_double, from_r_order, r_ravel

ops = pycg.ops


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
# length n beside the matrix of shape `other`, else R's (0, 0), which only
# an empty matrix conforms to.

def _vector_beside(kind, n, other, first):
    r, c = other
    if kind == "matmul":
        if first:
            return (1, n) if n == r else (n, 1) if r == 1 else (0, 0)
        return (n, 1) if n == c else (1, n) if c == 1 else (0, 0)
    if kind == "crossprod":
        if first:
            return (n, 1) if n == r else (0, 0)
        return (n, 1) if n == r else (1, n) if r == 1 else (0, 0)
    if first:
        return (1, n) if n == c else (n, 1) if c == 1 else (0, 0)
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
    if sx[i] != sy[j]:
        raise ValueError(f"{_NAMES[kind]}: non-conformable arguments (x is "
                         f"{describe(x)}, y {describe(y)})")
    a, b = _as_matrix(x, sx), _as_matrix(y, sy)
    if kind == "crossprod":
        a = ops.transpose(a)
    elif kind == "tcrossprod":
        b = ops.transpose(b)
    return ops.matmul(a, b)


def _as_matrix(v, shape):
    """v read as a matrix of `shape` (R's (0, 0): an empty one)."""
    if v.ndim == 2:
        return v
    if shape == (0, 0):
        return ops.zeros(shape, dtype=v.dtype)
    return ops.reshape(r_ravel(v), shape)


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


def drop(x):
    """R's drop(x): the extents of length 1 removed (a 1 x 1 matrix is a
    number); a vector or a number is returned as it is."""
    x = pycg.convert_to_tensor(x)
    ones = tuple(i for i, n in enumerate(x.shape) if n == 1)
    if x.ndim < 2 or not ones:
        return x
    return ops.squeeze(x, ones)


def outer_operands(x, y, product):
    """(X, Y, dims) of base R's outer(x, y, FUN): X and Y the elements paired
    (R's rep()), dims those of the result. `product` (FUN is "*"): X and Y
    as doubles, as base R multiplies them as a matrix product."""
    x, y = pycg.convert_to_tensor(x), pycg.convert_to_tensor(y)
    if product:
        x, y = as_double(x), as_double(y)
    vx, vy = r_ravel(x), r_ravel(y)
    nx, ny = vx.shape[0], vy.shape[0]
    return (ops.tile(vx, (ny,)), ops.repeat(vy, nx),
            list(r_dims(x) + r_dims(y)))


def with_r_dims(x, dims):
    """R's `dim(x) <- dims`, or base R's error where the lengths differ."""
    flat = r_ravel(x)
    if flat.shape[0] != int(np.prod(dims)):
        raise ValueError(f"outer(): dims [product {int(np.prod(dims))}] do "
                         f"not match "
                         f"the length of object [{flat.shape[0]}]")
    return from_r_order(flat, tuple(dims))


def kronecker_layout(pairs, x, y):
    """base R's kronecker(x, y, FUN) from FUN of outer()'s pairs: their
    axes interleaved, then dims dim(x) * dim(y) (the shorter dims padded
    with 1s)."""
    dx, dy = r_dims(pycg.convert_to_tensor(x)), r_dims(pycg.convert_to_tensor(y))
    rank = max(len(dx), len(dy))
    dx, dy = dx + (1,) * (rank - len(dx)), dy + (1,) * (rank - len(dy))
    grid = with_r_dims(pairs, dx + dy)
    # (R's aperm(grid, c(rank + 1, 1, rank + 2, 2, ...)): y's index runs
    # fastest within each product extent)
    interleaved = [a for i in range(rank) for a in (rank + i, i)]
    return from_r_order(r_ravel(ops.transpose(grid, interleaved)),
                     tuple(a * b for a, b in zip(dx, dy)))


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
    if kind == "2":   # base R: svd(x)$d[1], with svd()'s errors
        if x.shape[0] * x.shape[1] == 0:
            raise ValueError("norm(): a dimension is zero (type \"2\" takes "
                             "the singular values of x)")
        if not symbolic(x) and not np.isfinite(np.asarray(x.numpy())).all():
            raise ValueError("norm(): infinite or missing values in 'x' "
                             "(type \"2\" takes the singular values of x)")
        return ops.max(ops.svd(x, compute_uv=False))
    if x.shape[0] * x.shape[1] == 0:
        return pycg.convert_to_tensor(0.0)
    if kind == "F":
        return ops.sqrt(ops.sum(ops.square(x)))
    a = ops.abs(x)
    if kind == "M":
        return ops.max(a)
    return ops.max(ops.sum(a, axis=0 if kind == "O" else 1))
