"""ops.polar against TensorFlow's tf.complex(r * cos(t), r * sin(t)) (what
keras.ops.polar runs on TensorFlow): the parts at infinities, NaN and
signed zeros, the dtypes, and the gradient of both inputs under a complex
cotangent."""
import itertools
import math
import warnings

import numpy as np
import pytest
import tensorflow as tf

import pycg
from pycg import ops

R = [0.0, -0.0, 1.0, -2.0, math.inf, -math.inf, math.nan]
T = [0.0, -0.0, math.pi / 2, math.pi, -math.pi / 4, math.inf, math.nan,
     1e300]


def _tf_polar(r, t):
    r, t = tf.constant(r), tf.constant(t)   # (arrays: TF caches scalars by
    return tf.complex(r * tf.cos(t), r * tf.sin(t)).numpy()   # value, -0 == 0)


def _same_part(got, want):
    """NaN where TensorFlow's is NaN, the same infinities and zero signs,
    the rest within float32's cos and sin (each backend's own kernels)."""
    assert (np.isnan(got) == np.isnan(want)).all()
    finite = np.isfinite(want)
    assert (got[~finite & ~np.isnan(want)] == want[~finite & ~np.isnan(want)]
            ).all()
    zero = want == 0
    assert (np.signbit(got[zero]) == np.signbit(want[zero])).all()
    np.testing.assert_allclose(got[finite], want[finite], rtol=1e-6)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_polar_gives_tensorflow_s_parts_at_every_edge(backend, dtype):
    r, t = (np.array(v, dtype) for v in zip(*itertools.product(R, T)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # (1e300 is inf in float32)
        got = ops.polar(r, t).numpy()
        want = _tf_polar(r, t)
    assert got.dtype == want.dtype
    _same_part(got.real, want.real)
    _same_part(got.imag, want.imag)


def test_polar_takes_integers_as_floatx_and_the_wider_float(backend):
    assert ops.polar(2, 0).dtype == "complex64"
    assert ops.polar(np.float16(1), np.float16(1)).dtype == "complex64"
    assert ops.polar(np.float64(1), np.float32(1)).dtype == "complex128"
    assert ops.polar(2, 0).numpy().item() == 2 + 0j


def test_polar_broadcasts(backend):
    r = np.array([[1.0], [2.0]])
    t = np.array([0.0, math.pi / 2, 1.0])
    np.testing.assert_allclose(ops.polar(r, t).numpy(),
                               r * np.cos(t) + 1j * r * np.sin(t))


def test_polar_refuses_a_complex_input_by_name(backend):
    with pytest.raises(TypeError, match=r"^pycg.ops.polar: expected a real "
                       r"tensor, got complex64"):
        ops.polar(np.complex64(1), 0.0)


def test_polar_gradient_of_a_complex_cotangent_is_tensorflow_s(backend):
    rng = np.random.default_rng(0)
    r, t = rng.standard_normal((2, 3)), rng.standard_normal(3)
    ct = rng.standard_normal((2, 3)) + 1j * rng.standard_normal((2, 3))
    pr, pt = pycg.constant(r), pycg.constant(t)
    with pycg.GradientTape() as tape:
        tape.watch([pr, pt])
        z = ops.polar(pr, pt)
    got = tape.gradient(z, [pr, pt], output_gradients=pycg.constant(ct))
    tr, tt = tf.constant(r), tf.constant(t)
    with tf.GradientTape() as tft:
        tft.watch([tr, tt])
        w = tf.complex(tr * tf.cos(tt), tr * tf.sin(tt))
    want = tft.gradient(w, [tr, tt], output_gradients=tf.constant(ct))
    for g, w in zip(got, want):
        assert g.dtype == "float64"
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-12)


def test_view_as_complex_keeps_infinite_and_signed_zero_parts(backend):
    # (polar's mechanism: the numpy backend built re + 1j * im, whose real
    # part was NaN for an infinite im, and lost the sign of a zero)
    parts = np.array([[1.0, math.inf], [-0.0, -0.0], [math.inf, -math.inf],
                      [math.nan, 0.0]], "float32")
    got = ops.view_as_complex(parts).numpy()
    want = tf.complex(tf.constant(parts[:, 0]), tf.constant(parts[:, 1])
                      ).numpy()
    _same_part(got.real, want.real)
    _same_part(got.imag, want.imag)
