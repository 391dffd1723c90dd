"""Value cases of the special functions, merged into tests/test_ops_values.py:
TensorFlow's own lgamma, digamma and polygamma, SciPy's gamma, betaln and
beta, Python's exact math.comb for the binomial coefficients."""
import math

import numpy as np
import scipy.special as sp
import tensorflow as tf

from pycg import ops

X = np.array([[0.3, 1.7, 4.2], [-0.6, -2.5, 9.1]])
A = np.array([[0.4, 2.0, 7.5], [12.0, 0.9, 150.0]])
B = np.array([0.7, 30.0, 3.0])
N = np.array([[5.0, 10.0, 52.0], [0.0, 3.0, 60.0]])
K = np.array([[2.0, 11.0, 26.0], [0.0, 4.0, 31.0]])
COMB = np.vectorize(lambda n, k: float(math.comb(int(n), int(k))))


def _log_comb(n, k):
    with np.errstate(divide="ignore"):   # (log 0 is -inf)
        return np.log(COMB(n, k))


def t(a):
    return ops.convert_to_tensor(a)


VALUES = {
    "lgamma": (lambda: ops.lgamma(t(X)), lambda: tf.math.lgamma(X).numpy()),
    "digamma": (lambda: ops.digamma(t(X)),
                lambda: tf.math.digamma(X).numpy()),
    "polygamma": (lambda: ops.polygamma(2, t(X)),
                  lambda: tf.math.polygamma(tf.constant(2.0, tf.float64),
                                            X).numpy()),
    "gamma": (lambda: ops.gamma(t(X)), lambda: sp.gamma(X)),
    "lbeta": (lambda: ops.lbeta(t(A), t(B)), lambda: sp.betaln(A, B)),
    "beta": (lambda: ops.beta(t(A), t(B)), lambda: sp.beta(A, B)),
    "choose": (lambda: ops.choose(t(N), t(K)), lambda: COMB(N, K)),
    "lchoose": (lambda: ops.lchoose(t(N), t(K)),
                lambda: _log_comb(N, K)),
}
