"""VJP cases of the special functions (pycg/ops/special.py), merged into
the table of tests/test_ops_vjp.py: TensorFlow's lgamma, digamma and
polygamma, and formulas of them (or polynomials) for the rest."""
import numpy as np
import tensorflow as tf

from pycg import ops
from support.vjp_case import Case, binary, positive, uniform_, unary

# choose(n, 3) is the polynomial n (n - 1) (n - 2) / 6 at every real n
# (negative n and its zeros at 0, 1, 2 included): an exact oracle
K = 3.0


def _poly3(n):
    return n * (n - 1) * (n - 2) / 6


def _tf_lbeta(a, b):   # (tf.math.lbeta reduces the last axis of one tensor)
    return tf.math.lbeta(tf.stack([a + 0 * b, b + 0 * a], -1))


def _tf_gamma(x):   # (TensorFlow has no gamma: its sign times exp(lgamma))
    even = tf.math.floormod(tf.floor(x), 2.0) == 0
    sign = tf.where((x > 0) | even, tf.ones_like(x), -tf.ones_like(x))
    return sign * tf.exp(tf.math.lgamma(x))


def _off_poles(*shape):
    """Negative and positive values away from the poles of the gammas."""
    return lambda rng: (rng.integers(-3, 3, shape)
                        + rng.uniform(0.2, 0.8, shape))


CASES = {
    "lgamma": [unary(ops.lgamma, tf.math.lgamma, uniform_(0.1, 6.0)),
               unary(ops.lgamma, tf.math.lgamma, _off_poles)],
    "digamma": [unary(ops.digamma, tf.math.digamma, uniform_(0.1, 6.0)),
                unary(ops.digamma, tf.math.digamma, _off_poles)],
    "polygamma": [
        unary(lambda x: ops.polygamma(1, x),
              lambda x: tf.math.polygamma(tf.constant(1.0, x.dtype), x),
              uniform_(0.2, 6.0)),
        unary(lambda x: ops.polygamma(3, x),
              lambda x: tf.math.polygamma(tf.constant(3.0, x.dtype), x),
              _off_poles, rtol=1e-4)],
    "gamma": [unary(ops.gamma, _tf_gamma, uniform_(0.2, 5.0)),
              unary(ops.gamma, _tf_gamma, _off_poles)],
    "lbeta": binary(ops.lbeta, _tf_lbeta, positive, uniform_(0.5, 30.0)),
    "beta": binary(ops.beta, lambda a, b: tf.exp(_tf_lbeta(a, b)),
                   positive, positive),
    "choose": [
        unary(lambda n: ops.choose(n, K), _poly3,
              lambda *s: lambda rng: rng.uniform(-4.0, 6.0, s)),
        Case(lambda n: ops.choose(n, np.array([2.0, 5.0, 11.0])),
             lambda n: tf.exp(tf.math.lgamma(n + 1) - tf.math.lgamma(
                 tf.constant([3.0, 6.0, 12.0], n.dtype))
                 - tf.math.lgamma(n - [2.0, 5.0, 11.0] + 1)),
             (uniform_(11.5, 16.0)(2, 3),))],
    "lchoose": unary(lambda n: ops.lchoose(n, K),
                     lambda n: tf.math.log(tf.abs(_poly3(n))),
                     lambda *s: lambda rng: rng.uniform(2.2, 9.0, s)
                     * rng.choice([-1.0, 1.0], s)),
}
