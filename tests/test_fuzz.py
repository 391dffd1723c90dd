"""Fuzzing the public API with hypothesis: random shapes and op sequences.

Each random program runs on both backends (a differential test), its
gradient is compared with TensorFlow's own GradientTape on the same program
written in tf ops, and, when every op is smooth, with a central finite
difference along a random direction in float64. 2,000 examples by default
(PYCG_FUZZ_EXAMPLES raises it for `make soak`).
"""
import os

import numpy as np
import tensorflow as tf
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import pycg
from pycg import ops

EXAMPLES = int(os.environ.get("PYCG_FUZZ_EXAMPLES", "2000"))


def _pos(m, v):
    """A positive version of v (domain guard), the same in both libraries."""
    return m.square(v) + 0.5


# name: (pycg op, tf op, smooth?) -- inputs go through domain guards
UNARY = {
    "exp": (lambda v: ops.exp(ops.tanh(v)),
            lambda v: tf.exp(tf.tanh(v)), True),
    "log": (lambda v: ops.log(_pos(ops, v)),
            lambda v: tf.math.log(_pos(tf.math, v)), True),
    "sqrt": (lambda v: ops.sqrt(_pos(ops, v)),
             lambda v: tf.sqrt(_pos(tf.math, v)), True),
    "sin": (ops.sin, tf.sin, True),
    "tanh": (ops.tanh, tf.tanh, True),
    "sigmoid": (ops.sigmoid, tf.sigmoid, True),
    "softplus": (ops.softplus, tf.math.softplus, True),
    "arctan": (ops.arctan, tf.atan, True),
    "erf": (ops.erf, tf.math.erf, True),
    "abs": (ops.abs, tf.abs, False),
    "relu": (ops.relu, tf.nn.relu, False),
    "square": (ops.square, tf.square, True),
}
BINARY = {
    "add": (ops.add, tf.add, True),
    "subtract": (ops.subtract, tf.subtract, True),
    "multiply": (ops.multiply, tf.multiply, True),
    "divide": (lambda a, b: ops.divide(a, _pos(ops, b)),
               lambda a, b: tf.divide(a, _pos(tf.math, b)), True),
    "maximum": (ops.maximum, tf.maximum, False),
    "minimum": (ops.minimum, tf.minimum, False),
    "arctan2": (lambda a, b: ops.arctan2(a, _pos(ops, b)),
                lambda a, b: tf.atan2(a, _pos(tf.math, b)), True),
}
REDUCE = {
    "sum": (ops.sum, tf.reduce_sum, True),
    "mean": (ops.mean, tf.reduce_mean, True),
    "max": (ops.max, tf.reduce_max, False),
    "logsumexp": (ops.logsumexp, tf.reduce_logsumexp, True),
    "prod": (lambda v, axis: ops.prod(ops.tanh(v) + 2, axis),
             lambda v, axis: tf.reduce_prod(tf.tanh(v) + 2, axis), True),
}


@st.composite
def programs(draw):
    shape = tuple(draw(st.lists(st.integers(1, 4), min_size=0, max_size=3)))
    steps = []
    for _ in range(draw(st.integers(1, 5))):
        kind = draw(st.sampled_from(["unary", "unary", "binary"]))
        if kind == "unary":
            steps.append(("unary", draw(st.sampled_from(sorted(UNARY)))))
        else:
            # the other operand: same shape, a scalar, or broadcast on axis 0
            other = draw(st.sampled_from(["same", "scalar", "bcast"]))
            oshape = {"same": shape, "scalar": (),
                      "bcast": (1,) + shape[1:] if shape else ()}[other]
            value = draw(arrays(oshape))
            steps.append(("binary", draw(st.sampled_from(sorted(BINARY))),
                          value))
    axis = draw(st.sampled_from([None] + list(range(len(shape)))))
    reduce = draw(st.sampled_from(sorted(REDUCE)))
    return draw(arrays(shape)), steps, reduce, axis


def arrays(shape):
    n = int(np.prod(shape, dtype=int))
    # no tiny values: TensorFlow flushes subnormal results to zero on CPU,
    # NumPy does not, so sign() of one differs between them
    value = st.floats(-2, 2, allow_nan=False, width=64).map(
        lambda v: 0.0 if abs(v) < 1e-6 else v)
    return st.lists(value, min_size=n, max_size=n).map(
        lambda v: np.array(v, dtype=np.float64).reshape(shape))


def run(m, x, steps, reduce, axis, table_pick):
    for step in steps:
        if step[0] == "unary":
            x = table_pick(UNARY[step[1]])(x)
        else:
            x = table_pick(BINARY[step[1]])(x, step[2])
    return table_pick(REDUCE[reduce])(x, axis)


def smooth(steps, reduce):
    names = [(UNARY if s[0] == "unary" else BINARY)[s[1]][2] for s in steps]
    return all(names) and REDUCE[reduce][2]


def pre_reduce(x, steps):
    t = pycg.constant(x)
    for step in steps:
        t = UNARY[step[1]][0](t) if step[0] == "unary" else \
            BINARY[step[1]][0](t, step[2])
    return t.numpy()


def _tied_max(v, axis):
    m = np.max(v, axis=axis, keepdims=True)
    return bool(np.any(np.sum(np.isclose(v, m, rtol=1e-12, atol=0),
                              axis=axis) > 1))


def close(actual, desired, rtol):
    scale = float(np.max(np.abs(desired), initial=0.0))
    np.testing.assert_allclose(actual, desired, rtol=rtol,
                               atol=rtol * (1e-3 + scale))


def pycg_grad(x, steps, reduce, axis, backend):
    pycg.config.set_backend(backend)
    t = pycg.constant(x)
    with pycg.GradientTape() as tape:
        tape.watch(t)
        y = run(ops, t, steps, reduce, axis, lambda e: e[0])
    return y.numpy(), tape.gradient(y, t).numpy()


@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow,
                                 HealthCheck.data_too_large])
@given(programs())
def test_random_programs_agree_with_tensorflow_and_finite_differences(prog):
    x, steps, reduce, axis = prog
    if reduce == "max":
        # which of several tied maxima gets the gradient is implementation
        # defined (TensorFlow's own SIMD and scalar paths disagree)
        assume(not _tied_max(pre_reduce(x, steps), axis))
    previous = pycg.config.backend()
    try:
        y_np, g_np = pycg_grad(x, steps, reduce, axis, "numpy")
        y_tf, g_tf = pycg_grad(x, steps, reduce, axis, "tensorflow")
    finally:
        pycg.config.set_backend(previous)
    # differential: both backends (atol scaled to the largest entry: sums
    # and products of many terms round differently in NumPy and TF)
    close(y_np, y_tf, 1e-9)
    close(g_np, g_tf, 1e-9)
    # oracle: TensorFlow's own GradientTape on the same program
    tx = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(tx)
        ty = run(tf, tx, steps, reduce, axis, lambda e: e[1])
    oracle = tape.gradient(ty, tx)
    oracle = np.zeros_like(x) if oracle is None else oracle.numpy()
    close(y_np, ty.numpy(), 1e-9)
    close(g_np, oracle, 1e-7)
    # finite differences along a random direction, for smooth programs
    if smooth(steps, reduce):
        d = np.random.default_rng(x.size).standard_normal(x.shape)
        eps = 1e-6
        pycg.config.set_backend("numpy")
        try:
            def f(v):
                return float(ops.sum(run(ops, pycg.constant(v), steps,
                                         reduce, axis, lambda e: e[0])))
            numeric = (f(x + eps * d) - f(x - eps * d)) / (2 * eps)
            # central differences lose about (f's rounding) / eps: f sums
            # or multiplies up to 16 rounded terms (prod(2 + v) of 16
            # entries is 65536, where one ulp over eps is already 1.5e-5)
            rounding = 16 * np.finfo(np.float64).eps * abs(f(x)) / eps
        finally:
            pycg.config.set_backend(previous)
        assert abs(numeric - float(np.sum(g_np * d))) <= \
            1e-5 * (1 + abs(numeric)) + rounding


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=3), st.none(), st.booleans(),
                 st.integers(-5, 5), st.floats(allow_nan=True),
                 st.lists(st.one_of(st.floats(), st.text(max_size=1)),
                          max_size=3),
                 st.dictionaries(st.text(max_size=1), st.floats(),
                                 max_size=2)),
       st.sampled_from(["exp", "add", "sum", "reshape", "matmul"]))
def test_junk_input_gives_a_clean_error_or_a_value(junk, name):
    fn = {"exp": lambda v: ops.exp(v), "add": lambda v: ops.add(v, 1.0),
          "sum": lambda v: ops.sum(v), "reshape": lambda v: ops.reshape(v, 1),
          "matmul": lambda v: ops.matmul(v, v)}[name]
    try:
        out = fn(junk)
    except (TypeError, ValueError) as e:
        assert str(e).startswith("pycg"), e
    else:
        assert isinstance(out, pycg.Tensor)
