"""TensorFlow kernels of the linear algebra ops (keras.ops linalg names)."""
import numpy as np
import tensorflow as tf
from tensorflow.python.ops import gen_math_ops as _gen
from pycg.backends import kernels as _kernels


# ---- linear algebra -------------------------------------------------------
def matmul(a, b, transpose_a=False, transpose_b=False):
    """2-D floats through the generated op (TF's C fast path when eager)."""
    if a.dtype.is_floating and a.shape.rank == 2 and b.shape.rank == 2:
        return _gen.mat_mul(a, b, transpose_a=transpose_a,
                            transpose_b=transpose_b)
    return tf.linalg.matmul(a, b, transpose_a=transpose_a,
                            transpose_b=transpose_b)


def einsum(subscripts, *operands):
    return tf.einsum(subscripts, *operands)


cholesky = tf.linalg.cholesky
inv = tf.linalg.inv
solve = tf.linalg.solve
det = tf.linalg.det


def slogdet(x):
    return tf.linalg.slogdet(x)


# ---- decompositions: several outputs packed into one array ---------------
def _flat_last2(x):
    return tf.reshape(x, tf.concat([tf.shape(x)[:-2], [-1]], 0))


def svd_packed(x, full_matrices):
    s, u, v = tf.linalg.svd(x, full_matrices=full_matrices)
    return tf.concat([_flat_last2(u), s, _flat_last2(tf.linalg.adjoint(v))],
                     -1)


def qr_packed(x, mode):
    q, r = tf.linalg.qr(x, full_matrices=mode == "complete")
    return tf.concat([_flat_last2(q), _flat_last2(r)], -1)


def eigh_packed(x):
    w, v = tf.linalg.eigh(x)
    return tf.concat([w[..., None, :], v], -2)


def eig(x):
    return tf.linalg.eig(x)


def lu_factor(x):
    lu, perm = tf.linalg.lu(x)
    # tf gives the permutation; LAPACK pivots swap row j with row piv[j]
    return lu, tf.numpy_function(_perm_to_pivots, [perm], tf.int32)


def _perm_to_pivots(perm):
    perm = np.asarray(perm)
    piv = np.zeros(perm.shape, np.int32)
    for idx in np.ndindex(perm.shape[:-1]):
        p = list(perm[idx])
        rows = list(range(len(p)))
        pos = {r: i for i, r in enumerate(rows)}
        for j, target in enumerate(p):
            k = pos[target]
            piv[idx + (j,)] = k
            rows[j], rows[k] = rows[k], rows[j]
            pos[rows[j]], pos[rows[k]] = j, k
    return piv


def solve_triangular(a, b, lower):
    return tf.linalg.triangular_solve(a, b, lower=lower)


__all__ = _kernels(globals())   # (this file's kernels: see backends.kernels)
