"""The Case record and input domains of the VJP tests, shared by
tests/test_ops_vjp.py and every tests/support/vjp_cases_*.py (each of which exports
a CASES dict keyed by op name, merged into the one table)."""
from dataclasses import dataclass

import numpy as np
import tensorflow as tf

from pycg import ops

@dataclass(frozen=True)
class Case:
    fn: object            # pycg ops: tensors -> a tensor or a list of them
    tf_fn: object         # the same function in TensorFlow ops
    args: tuple           # one maker per input: rng -> float64 array
    eps: float = 1e-6
    rtol: float = 1e-5
    atol: float = 1e-6


# ---- input domains (safe: away from poles, kinks and branch cuts) ----------
def normal(*shape):
    return lambda rng: rng.standard_normal(shape)


def uniform(lo, hi, *shape):
    return lambda rng: rng.uniform(lo, hi, shape)


def uniform_(lo, hi):
    return lambda *shape: uniform(lo, hi, *shape)


def positive(*shape):
    return uniform(0.5, 2.0, *shape)


def unit(*shape):
    return uniform(-0.8, 0.8, *shape)


def off_zero(*shape):
    return lambda rng: (rng.choice([-1.0, 1.0], shape)
                        * rng.uniform(0.3, 2.0, shape))


def off_integer(*shape):
    return lambda rng: (rng.integers(-3, 3, shape)
                        + rng.uniform(0.1, 0.4, shape))


def off_tenth(*shape):
    """Away from the steps of round(x, 1)."""
    return lambda rng: (rng.integers(-30, 30, shape)
                        + rng.uniform(0.1, 0.4, shape)) / 10


def off_bounds(*shape):
    """Values clearly inside or outside [-0.5, 0.5] (for clip)."""
    return lambda rng: (rng.choice([-1.5, -0.2, 0.2, 1.5], shape)
                        + rng.uniform(-0.1, 0.1, shape))


def with_zeros(count):
    """Entries away from zero, except the first `count` (for prod)."""
    def domain(*shape):
        def make(rng):
            a = rng.uniform(0.5, 1.5, shape) * rng.choice([-1.0, 1.0], shape)
            a.reshape(-1)[:count] = 0.0
            return a
        return make
    return domain


def spd(n):
    def make(rng):
        a = rng.standard_normal((n, n))
        return a @ a.T + n * np.eye(n)
    return make


def invertible(*shape):
    n = shape[-1]
    return lambda rng: rng.standard_normal(shape) + 2 * n * np.eye(n)


def unary(fn, tf_fn, domain=normal, **tol):
    return Case(fn, tf_fn, (domain(2, 3),), **tol)


def binary(fn, tf_fn, dom_x=normal, dom_y=normal, shapes=((2, 3), (3,))):
    return Case(fn, tf_fn, (dom_x(*shapes[0]), dom_y(*shapes[1])))


def sym(x):
    """(x + x^T) / 2: cholesky reads one triangle, so differentiate it on
    symmetric matrices, as finite differences see them."""
    return 0.5 * (x + ops.transpose(x))


def tf_sym(x):
    return 0.5 * (x + tf.transpose(x))


COND = np.array([[True, False, True], [False, True, True]])
POSITIONS = np.array([4, 0, 4, 2, 5])


def tf_scatter(g, positions, shape):
    flat = tf.math.unsorted_segment_sum(g, positions, int(np.prod(shape)))
    return tf.reshape(flat, shape)
