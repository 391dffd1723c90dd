"""Max and average pooling at the edges (NaN, inf, -inf, signed zeros,
windows of nothing but NaN and -inf, 'same' borders), against TensorFlow's
kernels: MaxPool skips NaN and starts from the lowest finite value, its
gradient goes where TensorFlow's MaxPoolGrad sends it, its second order
where MaxPoolGradGrad reads. 3-D values and gradients are checked against
TensorFlow's 2-D pooling over (H, W) and then 1-D pooling over D, as the
tensorflow backend computes them: TensorFlow's own MaxPool3DGrad sends dy
to every cell within 1e-5 of the maximum, its MaxPool3D takes no float64,
and without oneDNN (AVX2-only CPUs, TF_ENABLE_ONEDNN_OPTS=0) its Eigen
MaxPool3D lets a NaN hand the window to the next cell ([3, nan, -1] gives
-1, [1, nan] gives nan), where its 2-D kernel and oneDNN's 3-D give 3
and 1."""
import numpy as np
import pytest
import tensorflow as tf

import pycg
from pycg import ops
from pycg.backends import finfo
from support import backend_switch

NAN, INF = np.nan, np.inf
# (spatial shape, pool_size, strides): overlapping windows for 'valid',
# windows past the border for 'same'
GEOMETRY = {1: ((7,), 2, 1), 2: ((4, 5), (2, 3), (1, 2)),
            3: ((3, 4, 4), (2, 2, 3), (1, 2, 2))}
CASES = [(d, fmt, pad) for d in (1, 2, 3)
         for fmt in ("channels_last", "channels_first")
         for pad in ("valid", "same")]


def _edgy(d, dtype=np.float32, seed=0):
    """(2, spatial..., 3) with NaN, inf, -inf, +0, -0 and ties, and a
    corner of NaN and -inf only (a window of it has no finite value)."""
    rng = np.random.default_rng(seed + d)
    shape = (2,) + GEOMETRY[d][0] + (3,)
    pick = np.array([NAN, -INF, INF, 0.0, -0.0, 1.0, 2.0, -1.0])
    x = np.where(rng.uniform(size=shape) < 0.3, rng.choice(pick, shape),
                 rng.integers(-2, 3, shape).astype(float))
    corner = (0,) + (slice(0, 2),) * d
    x[corner] = rng.choice(np.array([NAN, -INF]), x[corner].shape)
    return x.astype(dtype)


def _to_last(x, fmt):
    return np.moveaxis(x, 1, -1) if fmt == "channels_first" else x


def _to_fmt(y, fmt):
    return np.moveaxis(y, -1, 1) if fmt == "channels_first" else y


def _tf_max_pool(x, size, strides, padding):
    """TensorFlow's MaxPool on channels-last x; 3-D as the tensorflow
    backend composes it (2-D over (H, W), then 1-D over D)."""
    size, strides = [np.broadcast_to(a, (x.shape.rank - 2,)).tolist()
                     for a in (size, strides)]
    if x.shape.rank < 5:
        return tf.nn.max_pool(x, size, strides, padding.upper())
    n, d, h, w, c = x.shape
    y2 = tf.nn.max_pool2d(tf.reshape(x, (n * d, h, w, c)), size[1:],
                          strides[1:], padding.upper())
    h2, w2 = y2.shape[1:3]
    flat = tf.reshape(tf.transpose(tf.reshape(y2, (n, d, h2, w2, c)),
                                   (0, 2, 3, 1, 4)), (n * h2 * w2, d, c))
    y1 = tf.nn.max_pool1d(flat, size[:1], strides[:1], padding.upper())
    return tf.transpose(tf.reshape(y1, (n, h2, w2, -1, c)), (0, 3, 1, 2, 4))


def _assert_same_bits(got, want):
    np.testing.assert_array_equal(got, want)   # (NaN where NaN)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


@pytest.mark.parametrize("d, fmt, padding", CASES)
def test_max_pool_skips_nan_as_tensorflow(backend, d, fmt, padding):
    _, size, strides = GEOMETRY[d]
    x = _edgy(d)
    y = ops.max_pool(_to_fmt(x, fmt), size, strides, padding, fmt).numpy()
    want = _tf_max_pool(tf.constant(x), size, strides, padding).numpy()
    _assert_same_bits(_to_last(y, fmt), want)


def _weights(shape, seed):
    return np.random.default_rng(seed).standard_normal(shape).astype(
        np.float32)


@pytest.mark.parametrize("d, fmt, padding", CASES)
def test_max_pool_gradient_goes_where_tensorflow_sends_it(backend, d, fmt,
                                                          padding):
    _, size, strides = GEOMETRY[d]
    x = _edgy(d)
    tx = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(tx)
        ty = _tf_max_pool(tx, size, strides, padding)
        w = _weights(ty.shape, 1)
        loss = tf.reduce_sum(ty * w)
    want = tape.gradient(loss, tx).numpy()

    px = pycg.constant(_to_fmt(x, fmt))
    with pycg.GradientTape() as ptape:
        ptape.watch(px)
        py = ops.max_pool(px, size, strides, padding, fmt)
        ploss = ops.sum(py * _to_fmt(w, fmt))
    got = ptape.gradient(ploss, px).numpy()
    np.testing.assert_allclose(_to_last(got, fmt), want, rtol=1e-6, atol=0)


@pytest.mark.parametrize("d, fmt, padding", CASES)
def test_max_pool_second_order_reads_where_tensorflow_does(backend, d, fmt,
                                                           padding):
    _, size, strides = GEOMETRY[d]
    x = _edgy(d)
    v = _weights(x.shape, 2)
    tx = tf.constant(x)
    tw = tf.constant(_weights(_tf_max_pool(tx, size, strides,
                                           padding).shape, 1))
    with tf.GradientTape() as outer:
        outer.watch(tw)
        with tf.GradientTape() as inner:
            inner.watch(tx)
            loss = tf.reduce_sum(_tf_max_pool(tx, size, strides, padding)
                                 * tw)
        gv = tf.reduce_sum(inner.gradient(loss, tx) * v)
    want = outer.gradient(gv, tw).numpy()

    px = pycg.constant(_to_fmt(x, fmt))
    pw = pycg.constant(_to_fmt(tw.numpy(), fmt))
    with pycg.GradientTape() as pouter:
        pouter.watch(pw)
        with pycg.GradientTape() as pinner:
            pinner.watch(px)
            ploss = ops.sum(ops.max_pool(px, size, strides, padding, fmt)
                            * pw)
        pgv = ops.sum(pinner.gradient(ploss, px) * _to_fmt(v, fmt))
    got = pouter.gradient(pgv, pw).numpy()
    np.testing.assert_array_equal(_to_last(got, fmt), want)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32",
                                   "float64"])
def test_max_pool_of_nan_and_minus_inf_is_the_lowest_finite_value(
        backend, dtype):
    # TensorFlow's own kernel (oneDNN's half-precision one gives -inf); the
    # gradient goes to each window's first cell, even a NaN one: [nan, 1]
    # sends it to the NaN, as TensorFlow's MaxPoolGrad does
    x = np.array([NAN, -INF, NAN, NAN, -INF, -INF, NAN, 1.0, 1.0, NAN])
    px = pycg.constant(x.reshape(1, -1, 1), dtype=dtype)
    with pycg.GradientTape() as tape:
        tape.watch(px)
        y = ops.max_pool(px, 2)
    grad = tape.gradient(y, px)
    lowest = float(finfo(dtype).min)
    np.testing.assert_array_equal(y.numpy().astype(float).ravel(),
                                  [lowest, lowest, lowest, 1.0, 1.0])
    np.testing.assert_array_equal(grad.numpy().astype(float).ravel(),
                                  [1, 0] * 5)


def test_max_pool_lowest_finite_value_is_tensorflows_in_float64(backend):
    x = np.array([NAN, -INF, NAN, NAN, 2.0, NAN]).reshape(1, 1, -1, 1)
    y = ops.max_pool(x, (1, 2)).numpy()
    _assert_same_bits(y, tf.nn.max_pool2d(tf.constant(x), (1, 2), (1, 2),
                                          "VALID").numpy())


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32",
                                   "float64"])
def test_max_pool_keeps_the_first_of_equal_signed_zeros(backend, dtype):
    x = np.array([-0.0, 0.0, 0.0, -0.0, NAN, -0.0, -INF, 0.0])
    y = ops.max_pool(pycg.constant(x.reshape(1, -1, 1), dtype=dtype), 2)
    want = tf.nn.max_pool1d(x.reshape(1, -1, 1).astype(np.float32), 2, 2,
                            "VALID").numpy()
    np.testing.assert_array_equal(np.signbit(y.numpy().astype(float)),
                                  np.signbit(want))
    np.testing.assert_array_equal(np.signbit(want).ravel(),
                                  [True, False, True, False])


@pytest.mark.parametrize("d, fmt, padding", CASES)
def test_average_pool_propagates_nan_and_inf_as_tensorflow(backend, d, fmt,
                                                           padding):
    _, size, strides = GEOMETRY[d]
    x = _edgy(d)   # (float32: AvgPool3D takes no float64)
    y = ops.average_pool(_to_fmt(x, fmt), size, strides, padding, fmt)
    size_d, strides_d = [np.broadcast_to(a, (d,)).tolist()
                         for a in (size, strides)]
    want = tf.nn.avg_pool(x, size_d, strides_d, padding.upper()).numpy()
    assert np.isnan(want).any() and np.isinf(want).any()   # (it checks them)
    np.testing.assert_allclose(_to_last(y.numpy(), fmt), want, rtol=1e-6)


def test_max_pool_traces_inside_jax_jit():
    # the jax kernels branch on no value, so jax.jit can trace them
    jax = pytest.importorskip("jax")
    with backend_switch.on("jax"):
        x = np.array([NAN, 1.0, -INF, -INF, 0.0, 2.0],
                     np.float32).reshape(1, -1, 1)
        w = np.array([3.0, 5.0, 7.0], np.float32).reshape(1, -1, 1)
        pool = jax.jit(pycg.to_jax(lambda x: ops.max_pool(x, 2)))
        grad = jax.jit(jax.grad(pycg.to_jax(
            lambda x: ops.sum(ops.max_pool(x, 2) * w))))
        y, g = np.asarray(pool(x)), np.asarray(grad(x))
    np.testing.assert_array_equal(
        y.ravel(), [1.0, np.finfo(np.float32).min, 2.0])
    np.testing.assert_array_equal(g.ravel(), [3.0, 0, 5.0, 0, 0, 7.0])
