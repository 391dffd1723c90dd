"""GradientTape nesting and batch_jacobian: a persistent tape records its
own backward pass, re-entry is refused, batch_jacobian.
Expected values are closed forms or TensorFlow's own GradientTape."""
import numpy as np
import pytest

import pycg
from pycg import ops


def allclose(a, b, tol=1e-5):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=tol,
                               atol=tol)


def test_a_persistent_tape_records_gradients_taken_inside_it(backend):
    x = pycg.constant(2.0)
    with pycg.GradientTape(persistent=True) as g:
        g.watch(x)
        y = x ** 3
        with pytest.warns(UserWarning, match="records the backward pass"):
            dy = g.gradient(y, x)
            d2 = g.gradient(dy, x)
    allclose(dy, 12.0)       # 3 x^2
    allclose(d2, 12.0)       # 6 x
    allclose(g.gradient(d2, x), 6.0)


def test_a_non_persistent_tape_does_not_record_its_backward(backend):
    x = pycg.constant(2.0)
    with pycg.GradientTape() as outer:
        outer.watch(x)
        with pycg.GradientTape() as inner:
            inner.watch(x)
            y = x ** 3
            dy = inner.gradient(y, x)
    allclose(outer.gradient(dy, x), 12.0)


def test_re_entering_a_recording_tape_raises_value_error(backend):
    with pycg.GradientTape() as t:
        with pytest.raises(ValueError, match="still recording"):
            with t:
                pass


def test_a_persistent_tape_may_be_entered_again_after_its_block(backend):
    x = pycg.constant(3.0)
    with pycg.GradientTape(persistent=True) as t:
        t.watch(x)
        y = x * x
    with t:
        z = y * x
    allclose(t.gradient(z, x), 27.0)


def test_batch_jacobian_matches_tensorflow(backend):
    import tensorflow as tf
    xv = np.arange(6.0).reshape(2, 3) / 4
    wv = np.arange(12.0).reshape(3, 4) / 10
    x = pycg.constant(xv)
    with pycg.GradientTape() as g:
        g.watch(x)
        y = ops.tanh(ops.matmul(x, pycg.constant(wv)))
    got = g.batch_jacobian(y, x)
    xt = tf.constant(xv)
    with tf.GradientTape() as gt:
        gt.watch(xt)
        yt = tf.tanh(xt @ tf.constant(wv))
    assert got.shape == (2, 4, 3)
    allclose(got, gt.batch_jacobian(yt, xt).numpy())


def test_batch_jacobian_of_an_elementwise_function_is_diagonal(backend):
    xv = np.array([[1.0, 2.0], [3.0, 4.0]])
    x = pycg.constant(xv)
    with pycg.GradientTape() as g:
        g.watch(x)
        y = x * x
    expected = np.stack([np.diag(2 * r) for r in xv])
    allclose(g.batch_jacobian(y, x), expected)


def test_batch_jacobian_needs_one_batch_dimension(backend):
    x = pycg.constant([[1.0, 2.0]])
    with pycg.GradientTape() as g:
        g.watch(x)
        y = ops.sum(x)
    with pytest.raises(ValueError, match="rank at least 2"):
        g.batch_jacobian(y, x)


def test_batch_jacobian_needs_equal_batch_sizes(backend):
    x = pycg.constant([[1.0, 2.0]])
    with pycg.GradientTape() as g:
        g.watch(x)
        y = ops.concatenate([x, x], axis=0)
    with pytest.raises(ValueError, match="same first"):
        g.batch_jacobian(y, x)


def test_batch_jacobian_of_an_empty_example_is_empty(backend):
    x = ops.zeros((1, 0))
    with pycg.GradientTape(persistent=True) as g:
        g.watch(x)
        y = x ** 2
    assert g.batch_jacobian(y, x).shape == (1, 0, 0)


def test_batch_jacobian_unconnected_is_none_or_zero(backend):
    x = pycg.constant([[1.0, 2.0]])
    c = pycg.constant([[5.0]])
    with pycg.GradientTape(persistent=True) as g:
        g.watch([x, c])
        y = c * 2.0
    assert g.batch_jacobian(y, x) is None
    allclose(g.batch_jacobian(y, x, unconnected_gradients="zero"),
             np.zeros((1, 1, 2)))
