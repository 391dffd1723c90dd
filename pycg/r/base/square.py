"""Base R's functions of square matrices on tensors, for the R package
(R/tensor-linalg.R): solve(), chol(), det(), determinant(), backsolve() with
base R's shapes and its errors in its own words (a singular matrix, one
that is not positive definite), every result recorded on tapes.
"""
import numpy as np

import pycg
from pycg import backends
from pycg.r.base.linalg import describe
from pycg.r.base.na import symbolic
from pycg.r.base.semantics import DOUBLE, as_double, r_ravel, r_type
from pycg.tensor import Tensor

ops = pycg.ops


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
    tol = np.finfo(float).eps if tol is None else tol
    if b is None:
        return checked(ops.inv, a, lambda m: _check_singular(m, tol))
    b = as_double(b)
    vector = b.ndim != 2
    rhs = ops.reshape(r_ravel(b), (-1, 1)) if vector else b
    if rhs.shape[0] != n:
        raise ValueError(f"solve(): 'b' ({rhs.shape[0]} x {rhs.shape[1]}) "
                         f"must be compatible with 'a' ({n} x {n})")
    out = checked(lambda m: ops.solve(m, rhs), a,
                  lambda m: _check_singular(m, tol))
    return ops.reshape(out, (-1,)) if vector else out


def checked(compute, x, check):
    """compute(x), once `check` (a NumPy function of x's values that raises
    base R's error) has passed: first for a concrete x, else when the traced
    graph runs (a host call whose zero is added to x off the tape, so that
    compute waits for it), so that a pycg_function() stops as base R does
    instead of giving Inf or NaN."""
    if not symbolic(x):
        check(np.asarray(x.numpy()))
        return compute(x)
    dtype = np.dtype(x.dtype.name)

    def run(m):
        try:
            check(np.asarray(m))
        except ValueError as e:
            _raised_at_run[:] = [e]
            raise
        return np.zeros((), dtype)
    try:
        zero = backends.active.host_call(run, [x._value], dtype, ())
    except ValueError:   # XLA (jit_compile = TRUE) compiles no host call
        return compute(x)
    return compute(ops.add(x, Tensor(zero)))


_raised_at_run = []   # the error a check raised in the graph run last


def raised_at_run(exc):
    """The base R error that a check raised while a traced graph ran, for
    the exception that the run raised (TensorFlow's or JAX's, quoting it),
    else exc."""
    if _raised_at_run and str(_raised_at_run[0]) in str(exc):
        return _raised_at_run.pop()
    return exc


def _check_singular(m, tol):
    """Base R's errors for an exactly or computationally singular matrix
    m (NumPy)."""
    if m.shape[0] == 0 or not np.isfinite(m).all():
        return
    zero = _zero_pivot(m)
    if zero is not None:
        raise ValueError("solve(): Lapack routine dgesv: system is exactly "
                         f"singular: U[{zero},{zero}] = 0")
    try:
        rcond = 1.0 / np.linalg.cond(m, 1)
    except np.linalg.LinAlgError:
        rcond = 0.0
    if not rcond >= tol:
        raise ValueError(
            "solve(): system is computationally singular: reciprocal "
            f"condition number = {rcond:.6g}")


def _zero_pivot(m):
    """The 1-based k of the first exactly zero U[k, k] of m's LU
    factorisation with partial pivoting (LAPACK's dgetrf, which base R's
    solve() reads), else None."""
    u = np.array(m, dtype=np.float64)
    n = u.shape[0]
    first = None
    for k in range(n):
        p = k + int(np.argmax(np.abs(u[k:, k])))
        if u[p, k] == 0:
            first = k + 1 if first is None else first
            continue
        u[[k, p]] = u[[p, k]]
        u[k + 1:, k:] -= np.outer(u[k + 1:, k] / u[k, k], u[k, k:])
    return first


def upper_symmetric(x):
    """The symmetric matrix of x's upper triangle: what base R's chol()
    reads (LAPACK's dpotrf), so gradients reach the upper triangle only."""
    return ops.add(ops.triu(x), ops.transpose(ops.triu(x, 1)))


def chol(x):
    """base R's chol(x): the upper triangular R with t(R) %*% R = x, from
    x's upper triangle; base R's error where x is not positive definite."""
    s = upper_symmetric(square(x, "chol()"))
    return checked(lambda m: ops.cholesky(m, upper=True), s,
                   _check_positive_definite)


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


def _matrix_only(x, who):
    """Base R's determinant() has a method for matrices only: a tensor of
    another number of axes is an R vector or number there."""
    x = as_double(x)
    if x.ndim != 2:
        raise ValueError(f"{who}: no method for a tensor of {x.ndim} axes "
                         "(an R vector to base R: 'x' must be a square "
                         "matrix)")
    return x


def determinant(x, logarithm=True):
    """(modulus, sign) of base R's determinant(x): log |det| (or |det|) and
    the sign as a tensor; a 0 x 0 matrix has determinant 1."""
    x = square(_matrix_only(x, "determinant()"), "determinant()",
               "'x' must be a square matrix")
    if x.shape[0] == 0:
        modulus = pycg.convert_to_tensor(0.0 if logarithm else 1.0)
        return modulus, pycg.convert_to_tensor(1.0)
    sign, logabs = ops.slogdet(x)
    sign = ops.where(ops.equal(sign, 0), 1.0, sign)  # base R: 1 when singular
    return (logabs if logarithm else ops.exp(logabs)), sign


def det(x):
    """base R's det(x)."""
    x = square(_matrix_only(x, "det()"), "det()",
               "'x' must be a square matrix")
    return ops.det(x) if x.shape[0] else pycg.convert_to_tensor(1.0)


def backsolve(r, x, k=None, upper_tri=True, transpose=False):
    """base R's backsolve(r, x, k, upper.tri, transpose): solves
    r[1:k, 1:k] %*% y = x[1:k, ] (t(r) with transpose) from the one
    triangle of r; a vector x gives a vector."""
    r, x = as_double(r), as_double(x)
    r = r if r.ndim == 2 else ops.reshape(r_ravel(r), (-1, 1))
    vector = x.ndim != 2
    rhs = ops.reshape(r_ravel(x), (-1, 1)) if vector else x
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
    if symbolic(a) or np.isfinite(np.asarray(a.numpy())).all():
        out = ops.solve_triangular(a, rhs[:k], lower=lower)
    else:
        out = _substitution(a, rhs[:k], lower, skip_zeros=not transpose)
    return ops.reshape(out, (-1,)) if vector else out


def _substitution(a, b, lower, skip_zeros):
    """Solve the triangular a %*% y = b as BLAS's dtrsm, which base R's
    backsolve() calls, for an `a` holding NA, NaN or Inf: without
    transposing (`skip_zeros`) a zero of b is neither divided nor
    subtracted from the rest, so such a value of `a` reaches only the
    elements it touches."""
    k = a.shape[0]
    rows = []
    b = [b[i] for i in range(k)]
    for i in (range(k) if lower else reversed(range(k))):
        nonzero = ops.not_equal(b[i], 0.0) if skip_zeros else True
        y = ops.where(nonzero, ops.divide(b[i], a[i, i]), b[i])
        rows.append((i, y))
        for j in (range(i + 1, k) if lower else range(i)):
            b[j] = ops.where(nonzero, ops.subtract(b[j],
                                                   ops.multiply(y, a[j, i])),
                             b[j])
    return ops.stack([y for _, y in sorted(rows, key=lambda r: r[0])])


def chol2inv(x, size):
    """base R's chol2inv(x, size): the inverse of t(R) %*% R for R the
    upper triangle of x[1:size, 1:size] (a double vector, at size 1, is
    its first element), with base R's errors."""
    x = pycg.convert_to_tensor(x)
    size = int(size)
    if size < 1:
        raise ValueError("chol2inv(): 'size' argument must be a positive "
                         "integer")
    if x.ndim != 2:
        if size != 1 or r_type(x) != DOUBLE or not x.shape or not x.shape[0]:
            raise ValueError("chol2inv(): 'a' must be a numeric matrix")
        x = ops.reshape(r_ravel(x)[:1], (1, 1))
    x = as_double(x)
    for extent, name in ((x.shape[1], "ncol"), (x.shape[0], "nrow")):
        if size > extent:
            raise ValueError(f"chol2inv(): 'size' cannot exceed {name}(x) = "
                             f"{extent}")
    r = ops.triu(x[:size, :size])
    if not symbolic(r):
        zero = np.flatnonzero(np.diagonal(np.asarray(r.numpy())) == 0)
        if zero.size:
            raise ValueError(f"chol2inv(): element ({zero[0] + 1}, "
                             f"{zero[0] + 1}) is zero, so the inverse cannot "
                             "be computed")
    inverse = ops.solve_triangular(r, ops.eye(size, dtype=r.dtype),
                                   lower=False)
    return ops.matmul(inverse, ops.transpose(inverse))
