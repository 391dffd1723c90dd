"""Second order through pycg.to_tensorflow, for every case of the VJP table
(tests/test_ops_vjp.py): a Hessian-vector product taken by two nested
tf.GradientTapes through the converted pycg function equals the one taken
through TensorFlow's own version of the same maths (the case's tf_fn), eagerly
and under XLA (where XLA compiles TensorFlow's own version)."""
import numpy as np
import pytest
import tensorflow as tf

import pycg
from test_ops_vjp import PARAMS, _arrays, _flat


@pytest.fixture(autouse=True)
def tf_backend():
    previous = pycg.config.backend()
    pycg.config.set_backend("tensorflow")
    yield
    pycg.config.set_backend(previous)


def _hvp(fn, arrays, seed=7):
    """d/dx <d/dx <fn(x), c>, v> for fixed random c and v."""
    rng = np.random.default_rng(seed)
    xs = [tf.constant(a) for a in arrays]
    vs = [tf.constant(rng.standard_normal(a.shape)) for a in arrays]
    with tf.GradientTape() as outer:
        outer.watch(xs)
        with tf.GradientTape() as inner:
            inner.watch(xs)
            outs = [o for o in _flat(fn(*xs)) if o.dtype.is_floating]
            cts = [tf.constant(rng.standard_normal(o.shape), o.dtype)
                   for o in outs]
            total = tf.add_n([tf.reduce_sum(o * c) for o, c in
                              zip(outs, cts)])
        gs = inner.gradient(total, xs, unconnected_gradients="zero")
        gv = tf.add_n([tf.reduce_sum(g * v) for g, v in zip(gs, vs)])
    return outer.gradient(gv, xs, unconnected_gradients="zero")


def _compare(ours, theirs):
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6,
                                   atol=1e-8)


@pytest.mark.parametrize("name, case", PARAMS)
def test_second_order_matches_tensorflows_own(name, case):
    arrays = _arrays(case, 0)
    _compare(_hvp(pycg.to_tensorflow(case.fn), arrays),
             _hvp(case.tf_fn, arrays))


@pytest.mark.parametrize("name, case", PARAMS)
def test_second_order_under_xla_matches_where_xla_compiles_tensorflows_own(
        name, case):
    arrays = _arrays(case, 0)
    ours = tf.function(lambda: _hvp(pycg.to_tensorflow(case.fn), arrays),
                       jit_compile=True)
    try:
        got = ours()
    except tf.errors.InvalidArgumentError:
        # only where XLA cannot compile TensorFlow's own version either
        # (MatrixDeterminant on CPU)
        theirs = tf.function(lambda: _hvp(case.tf_fn, arrays),
                             jit_compile=True)
        with pytest.raises(tf.errors.InvalidArgumentError):
            theirs()
        return
    _compare(got, _hvp(case.tf_fn, arrays))
