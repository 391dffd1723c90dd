"""NumPy kernels of the linear algebra ops (keras.ops linalg names)."""
import numpy as np
from pycg.backends import _numpy_like
from pycg.backends import kernels as _kernels


# ---- linear algebra -------------------------------------------------------
def matmul(a, b, transpose_a=False, transpose_b=False):
    if transpose_a:
        a = np.swapaxes(a, -1, -2)
    if transpose_b:
        b = np.swapaxes(b, -1, -2)
    out = np.matmul(a, b)   # (bfloat16, kind V: NumPy gives float32)
    return out if a.dtype.kind != "V" else out.astype(a.dtype)


def einsum(subscripts, *operands):
    if operands and operands[0].dtype.kind == "V":   # (bfloat16)
        return einsum(subscripts, *[o.astype(np.float32) for o in operands]
                      ).astype(operands[0].dtype)
    return np.einsum(subscripts, *operands)


cholesky = np.linalg.cholesky
inv = np.linalg.inv
solve = np.linalg.solve
det = np.linalg.det


def slogdet(x):
    return np.linalg.slogdet(x)


# ---- decompositions: several outputs packed into one array ---------------
# (the same lines as the other NumPy-like backend: backends/_numpy_like.py)
svd_packed = _numpy_like.svd_packed(np)
qr_packed = _numpy_like.qr_packed(np)
eigh_packed = _numpy_like.eigh_packed(np)


def eig(x):
    # complex always, as TensorFlow's (NumPy's is real when every eigenvalue
    # is): complex64 for float32 and complex128 for float64
    w, v = np.linalg.eig(x)
    dtype = np.result_type(x.dtype, np.complex64)
    return w.astype(dtype), v.astype(dtype)


def lu_factor(x):
    """LAPACK getrf: (lu, 0-based pivots) of a square matrix or a batch."""
    a = np.array(x, dtype=x.dtype)
    n = a.shape[-1]
    piv = np.zeros(a.shape[:-1], np.int32)
    for idx in np.ndindex(a.shape[:-2]):
        m = a[idx]
        for j in range(n):
            p = j + int(np.argmax(np.abs(m[j:, j])))
            piv[idx + (j,)] = p
            if p != j:
                m[[j, p]] = m[[p, j]]
            if m[j, j] != 0:
                m[j + 1:, j] /= m[j, j]
                m[j + 1:, j + 1:] -= np.outer(m[j + 1:, j], m[j, j + 1:])
    return a, piv


def solve_triangular(a, b, lower):
    a = np.tril(a) if lower else np.triu(a)
    return np.linalg.solve(a, b)


__all__ = _kernels(globals())   # (this file's kernels: see backends.kernels)
