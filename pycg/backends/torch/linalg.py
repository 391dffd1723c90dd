"""torch kernels of the linear algebra ops (keras.ops linalg names). A
failed factorisation (a matrix that is not positive definite, a singular
one) is NumPy's LinAlgError, as on the numpy and tensorflow backends."""
import numpy as np
import torch
from pycg.backends import kernels as _kernels


def matmul(a, b, transpose_a=False, transpose_b=False):
    if transpose_a:
        a = torch.swapaxes(a, -1, -2)
    if transpose_b:
        b = torch.swapaxes(b, -1, -2)
    if a.dtype is torch.bool:   # (NumPy: or of ands; torch has no kernel)
        return torch.matmul(a.to(torch.int32), b.to(torch.int32)) > 0
    return torch.matmul(a, b)


def einsum(subscripts, *operands):
    if operands and operands[0].dtype is torch.bool:
        return einsum(subscripts, *[o.to(torch.int32) for o in operands]) > 0
    return torch.einsum(subscripts, *operands)


def _linalg(fn, message):
    """fn, raising NumPy's LinAlgError where torch's factorisation fails."""
    def kernel(*args):
        try:
            return fn(*args)
        except torch.linalg.LinAlgError:
            raise np.linalg.LinAlgError(message) from None
    kernel.__name__ = fn.__name__
    return kernel


cholesky = _linalg(torch.linalg.cholesky, "Matrix is not positive definite")
inv = _linalg(torch.linalg.inv, "Singular matrix")
det = torch.linalg.det


def _solve(a, b):
    """np.linalg.solve's shapes: b is a vector (M,) only when 1-d, else a
    stack of matrices (..., M, K)."""
    if b.ndim == 1:
        return torch.linalg.solve(a, b[:, None])[..., 0]
    return torch.linalg.solve(a, b)


solve = _linalg(_solve, "Singular matrix")


def slogdet(x):
    return tuple(torch.linalg.slogdet(x))


# ---- decompositions: several outputs packed into one array ---------------
def svd_packed(x, full_matrices):
    u, s, vh = torch.linalg.svd(x, full_matrices=full_matrices)
    batch = tuple(x.shape[:-2])
    return torch.cat([u.reshape(batch + (-1,)), s.to(u.dtype),
                      vh.reshape(batch + (-1,))], dim=-1)


def qr_packed(x, mode):
    q, r = torch.linalg.qr(x, mode=mode)
    batch = tuple(x.shape[:-2])
    return torch.cat([q.reshape(batch + (-1,)), r.reshape(batch + (-1,))],
                     dim=-1)


def eigh_packed(x):
    w, v = torch.linalg.eigh(x)
    return torch.cat([w[..., None, :].to(v.dtype), v], dim=-2)


def eig(x):
    # complex always, as TensorFlow's: complex64 for float32, complex128
    # for float64 (torch's own rule)
    w, v = torch.linalg.eig(x)
    return w, v


def lu_factor(x):
    """LAPACK getrf: (lu, 0-based pivots) of a square matrix or a batch
    (torch's pivots are 1-based; a singular matrix factors, as LAPACK's)."""
    lu, piv, _ = torch.linalg.lu_factor_ex(x)
    return lu, (piv - 1).to(torch.int32)


def solve_triangular(a, b, lower):
    a = torch.tril(a) if lower else torch.triu(a)
    return solve(a, b)


__all__ = _kernels(globals())   # (this file's kernels: see backends.kernels)
