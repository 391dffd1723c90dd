"""VJP cases of the issue-14 linear algebra, Fourier transform, scatter
and transform ops, merged into the table of tests/test_ops_vjp.py.
Decompositions are checked through functions of their outputs that do not
depend on the sign of each singular or eigenvector (u diag(c) v^T and the
like)."""

import numpy as np
import tensorflow as tf

from pycg import ops
from pycg.ops import _singular_values as SV
from pycg.ops import spectral as F
from support.vjp_case import (Case, binary, invertible, normal, off_zero, spd, sym,
                      tf_sym, unary)

tnp = tf.experimental.numpy
C3 = np.array([0.5, -1.0, 2.0])
IDS = np.array([0, 0, 2, 1, 2], np.int32)
IDX = np.array([[0, 1], [2, 3], [0, 1]], np.int32)
IDX2 = np.array([[0, 1], [2, 3]], np.int32)
T23 = np.array([[1.0, -0.5, 2.0], [0.3, 1.5, -1.0]])
MASK = np.zeros((3, 4), bool)
MASK[1:3, 1:3] = True


def tf_pair(c):
    return [tf.math.real(c), tf.math.imag(c)]


def tf_stacked(fn):
    def run(z):
        c = fn(tf.complex(z[0], z[1]))
        return tf.stack(tf_pair(c))
    return run

def tf_svd_invariants(x):
    s, u, v = tf.linalg.svd(x)
    c = C3[:s.shape[0]]
    return [s, (u * c) @ tf.transpose(v), (u * c) @ tf.transpose(u)]


def svd_invariants(x):
    u, s, vh = ops.svd(x, full_matrices=False)
    c = C3[:s.shape[0]]
    return [s, ops.matmul(u * c, vh), ops.matmul(u * c, ops.transpose(u))]


def eigh_invariants(x):
    w, v = ops.eigh(sym(x))
    return [w, ops.matmul(v * C3, ops.transpose(v))]


def tf_eigh_invariants(x):
    w, v = tf.linalg.eigh(tf_sym(x))
    return [w, (v * C3) @ tf.transpose(v)]


def qr_invariants(x):
    q, r = ops.qr(x)
    return [ops.matmul(q * C3, r), ops.matmul(ops.transpose(r) * C3, r)]


def tf_qr_invariants(x):
    q, r = tf.linalg.qr(x)
    return [(q * C3) @ r, (tf.transpose(r) * C3) @ r]


def tf_stft(x):
    x = tf.pad(x, [[2, 2]], mode="REFLECT")
    return tf_pair(tf.signal.stft(x, 4, 2, 4, window_fn=lambda n, dtype:
                                  tf.signal.hann_window(n, dtype=dtype)))


def tf_istft(a, b):
    window = tf.signal.inverse_stft_window_fn(
        2, lambda n, dtype: tf.signal.hann_window(n, dtype=dtype))
    out = tf.signal.inverse_stft(tf.complex(a, b), 4, 2, 4, window_fn=window)
    return out[..., 2:-2]

def tf_segment(fn):
    return lambda d: fn(d, IDS, 3)


CASES = {
    # products and linear algebra
    "kron": binary(ops.kron, tnp.kron, shapes=((2, 2), (2, 3))),
    "inner": binary(ops.inner, lambda a, b: tf.tensordot(a, b, [[1], [1]]),
                    shapes=((2, 3), (4, 3))),
    "vdot": binary(ops.vdot, lambda a, b: tf.reduce_sum(a * b),
                   shapes=((2, 3), (2, 3))),
    "cross": binary(ops.cross, tf.linalg.cross, shapes=((2, 3), (2, 3))),
    "cdist": binary(ops.cdist, lambda a, b: tf.sqrt(tf.reduce_sum(
        (a[:, None] - b[None]) ** 2, -1)), shapes=((3, 2), (4, 2))),
    "svd": [Case(svd_invariants, tf_svd_invariants, (normal(4, 3),)),
            Case(svd_invariants, tf_svd_invariants, (normal(3, 3),)),
            Case(svd_invariants, tf_svd_invariants, (normal(2, 3),)),
            Case(lambda x: ops.svd(x, compute_uv=False),
                 lambda x: tf.linalg.svd(x, compute_uv=False),
                 (normal(2, 3, 3),))],
    "_svdvals": [Case(lambda x: SV.svdvals(ops.convert_to_tensor(x)),
                      lambda x: tf.linalg.svd(x, compute_uv=False),
                      (normal(*shape),)) for shape in ((3, 2), (2, 2, 3))],
    "qr": [Case(qr_invariants, tf_qr_invariants, (normal(4, 3),)),
           Case(qr_invariants, tf_qr_invariants, (normal(3, 3),))],
    "eigh": Case(eigh_invariants, tf_eigh_invariants, (normal(3, 3),)),
    "solve_triangular": [
        binary(lambda a, b: ops.solve_triangular(a, b, lower=True),
               lambda a, b: tf.linalg.triangular_solve(a, b, lower=True),
               dom_x=invertible, shapes=((3, 3), (3, 2))),
        binary(ops.solve_triangular, lambda a, b: tf.linalg.triangular_solve(
            a, b[:, None], lower=False)[:, 0], dom_x=invertible,
            shapes=((3, 3), (3,)))],
    "pinv": Case(ops.pinv, tf.linalg.pinv, (normal(3, 2),)),
    "lstsq": Case(ops.lstsq, lambda a, b: tf.linalg.solve(
        tf.transpose(a) @ a, tf.transpose(a) @ b), (normal(4, 3),
                                                   normal(4, 2))),
    "logdet": Case(ops.logdet, lambda x: tf.linalg.slogdet(x)[1], (spd(3),)),
    # (only the factor's triangle is read, as Keras' triangular solve)
    "cholesky_inverse": [
        Case(ops.cholesky_inverse,
             lambda x: tf.linalg.inv(tf.linalg.band_part(x, -1, 0) @
                                     tf.transpose(tf.linalg.band_part(
                                         x, -1, 0))),
             (invertible(3, 3),)),
        Case(lambda x: ops.cholesky_inverse(x, upper=True),
             lambda x: tf.linalg.inv(tf.transpose(tf.linalg.band_part(
                 x, 0, -1)) @ tf.linalg.band_part(x, 0, -1)),
             (invertible(3, 3),))],
    # Fourier transforms
    "_fft": Case(lambda z: F._transform("_fft", z, 1),
                 tf_stacked(tf.signal.fft), (normal(2, 2, 4),)),
    "_ifft": Case(lambda z: F._transform("_ifft", z, 2),
                  tf_stacked(tf.signal.ifft2d), (normal(2, 3, 4),)),
    "fft": binary(lambda a, b: ops.fft((a, b)),
                  lambda a, b: tf_pair(tf.signal.fft(tf.complex(a, b))),
                  shapes=((2, 4), (2, 4))),
    "fft2": binary(lambda a, b: ops.fft2((a, b)),
                   lambda a, b: tf_pair(tf.signal.fft2d(tf.complex(a, b))),
                   shapes=((3, 4), (3, 4))),
    "ifft2": binary(lambda a, b: ops.ifft2((a, b)),
                    lambda a, b: tf_pair(tf.signal.ifft2d(tf.complex(a, b))),
                    shapes=((3, 4), (3, 4))),
    "rfft": [Case(ops.rfft, lambda x: tf_pair(tf.signal.rfft(x)),
                  (normal(2, 5),)),
             Case(lambda x: ops.rfft(x, fft_length=6), lambda x: tf_pair(
                 tf.signal.rfft(x, [6])), (normal(2, 4),))],
    "irfft": [binary(lambda a, b: ops.irfft((a, b)),
                     lambda a, b: tf.signal.irfft(tf.complex(a, b)),
                     shapes=((2, 4), (2, 4))),
              binary(lambda a, b: ops.irfft((a, b), fft_length=5),
                     lambda a, b: tf.signal.irfft(tf.complex(a, b), [5]),
                     shapes=((2, 3), (2, 3)))],
    "stft": Case(lambda x: ops.stft(x, 4, 2, 4), tf_stft, (normal(12),)),
    "istft": binary(lambda a, b: ops.istft((a, b), 4, 2, 4), tf_istft,
                    shapes=((5, 3), (5, 3))),
    "extract_sequences": Case(lambda x: ops.extract_sequences(x, 3, 2),
                              lambda x: tf.signal.frame(x, 3, 2),
                              (normal(2, 7),)),
    # scatter and segments
    "scatter": Case(lambda v: ops.scatter(IDX, v, (3, 4)),
                    lambda v: tf.scatter_nd(IDX, v, (3, 4)), (normal(3),)),
    "scatter_update": binary(lambda x, u: ops.scatter_update(x, IDX2, u),
                             lambda x, u: tf.tensor_scatter_nd_update(
                                 x, IDX2, u), shapes=((3, 4), (2,))),
    "slice_update": binary(lambda x, u: ops.slice_update(x, (1, 1), u),
                           lambda x, u: tf.where(MASK, tf.pad(
                               u, [[1, 0], [1, 1]]), x),
                           shapes=((3, 4), (2, 2))),
    "segment_sum": Case(lambda d: ops.segment_sum(d, IDS, 3),
                        tf_segment(tf.math.unsorted_segment_sum),
                        (normal(5, 2),)),
    "segment_max": Case(lambda d: ops.segment_max(d, IDS),
                        tf_segment(tf.math.unsorted_segment_max),
                        (normal(5, 2),)),
    "segment_min": Case(lambda d: ops.segment_min(d, IDS),
                        tf_segment(tf.math.unsorted_segment_min),
                        (normal(5),)),
    "segment_prod": Case(lambda d: ops.segment_prod(d, IDS),
                         tf_segment(tf.math.unsorted_segment_prod),
                         (off_zero(5, 2),)),
}

CASES.update({
    # transforms
    "rearrange": Case(lambda x: ops.rearrange(x, "b h (w1 w) -> h (b w1) w",
                                              w1=2),
                      lambda x: tf.reshape(tf.transpose(tf.reshape(
                          x, (2, 3, 2, 2)), (1, 0, 2, 3)), (3, 4, 2)),
                      (normal(2, 3, 4),)),
    "jvp": unary(lambda x: ops.jvp(lambda a: ops.sin(a) * a, (x,), (T23,))[1],
                 lambda x: (tf.cos(x) * x + tf.sin(x)) * T23),
    "vectorize": unary(lambda x: ops.vectorize(lambda v: v * ops.sin(v))(x),
                       lambda x: x * tf.sin(x)),
})

# the packed kernels of the decompositions are checked through their ops
CASES["svd_packed"] = CASES["svd"]
CASES["qr_packed"] = CASES["qr"]
CASES["eigh_packed"] = CASES["eigh"]
