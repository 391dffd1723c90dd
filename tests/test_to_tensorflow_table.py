"""Second order through pycg.to_tensorflow, for every case of the VJP table
(tests/support/vjp_suite.py): a Hessian-vector product taken by two nested
tf.GradientTapes through the converted pycg function equals central
differences (float64) of TensorFlow's own first-order gradient of the same
maths (the case's tf_fn), eagerly and under XLA (where XLA compiles
TensorFlow's own version; an XLA compilation a case, so `make test` runs
every fourth case under XLA and `make soak` all: tests/support/grids.py).
TensorFlow's first-order gradients are the oracle rather than its
second-order ones: some of its gradient kernels have no gradient of their
own (SoftsignGrad) or a simplified one (moments)."""
import numpy as np
import pytest
import tensorflow as tf

import pycg
from support.grids import every
from support.vjp_suite import PARAMS, _arrays, _flat


pytestmark = pytest.mark.usefixtures("tf_backend")


def _inexact(o):
    """An output the products project: float, or complex (its real part
    against the cotangent: <o, c>, as TensorFlow's gradients read it)."""
    return o.dtype.is_floating or o.dtype.is_complex


def _hvp(fn, arrays, seed=7):
    """d/dx <d/dx <fn(x), c>, v> for fixed random c and v."""
    rng = np.random.default_rng(seed)
    xs = [tf.constant(a) for a in arrays]
    vs = [tf.constant(rng.standard_normal(a.shape)) for a in arrays]
    with tf.GradientTape() as outer:
        outer.watch(xs)
        with tf.GradientTape() as inner:
            inner.watch(xs)
            outs = [o for o in _flat(fn(*xs)) if _inexact(o)]
            cts = [tf.constant(rng.standard_normal(o.shape), o.dtype)
                   for o in outs]
            total = tf.add_n([tf.reduce_sum(tf.math.real(o * c)) for o, c in
                              zip(outs, cts)])
        gs = inner.gradient(total, xs, unconnected_gradients="zero")
        gv = tf.add_n([tf.reduce_sum(g * v) for g, v in zip(gs, vs)])
    return outer.gradient(gv, xs, unconnected_gradients="zero")


def _fd_hvp(fn, arrays, seed=7, h=1e-5):
    """The same product by central differences of TensorFlow's gradient."""
    rng = np.random.default_rng(seed)
    vs = [rng.standard_normal(a.shape) for a in arrays]
    outs = [o for o in _flat(fn(*[tf.constant(a) for a in arrays]))
            if _inexact(o)]
    cts = [tf.constant(rng.standard_normal(o.shape), o.dtype) for o in outs]

    def grad(args):
        xs = [tf.constant(a) for a in args]
        with tf.GradientTape() as tape:
            tape.watch(xs)
            total = tf.add_n([tf.reduce_sum(tf.math.real(o * c)) for o, c in zip(
                [o for o in _flat(fn(*xs)) if _inexact(o)], cts)])
        return [tf.convert_to_tensor(g) for g in tape.gradient(
            total, xs, unconnected_gradients="zero")]
    up = grad([a + h * v for a, v in zip(arrays, vs)])
    down = grad([a - h * v for a, v in zip(arrays, vs)])
    return [(u - d) / (2 * h) for u, d in zip(up, down)]


def _compare(ours, theirs):
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a.numpy(), np.asarray(b), rtol=1e-5,
                                   atol=1e-7)


# Where the comparison is known to fail, and why (strict: a fix shows up).
TF_FUSED_XENT = ("the oracle, TensorFlow's fused "
                 "softmax_cross_entropy_with_logits, takes labels to sum to "
                 "1 (its gradient is softmax - labels), so its derivative "
                 "off the simplex is not the true one")
KNOWN = {
    "categorical_crossentropy-1": TF_FUSED_XENT,
}
KNOWN_XLA = dict(KNOWN, **{
    "fori_loop-0": "XLA cannot differentiate a while loop twice "
                   "(TensorFlow: 'Cannot find body function ..._grad')",
    "scan-0": "XLA cannot differentiate a while loop twice "
              "(TensorFlow: 'Cannot find body function ..._grad')",
    "segment_max-0": "segment ops without num_segments read values: they "
                     "cannot trace",
    "segment_min-0": "segment ops without num_segments read values: they "
                     "cannot trace",
    "segment_prod-0": "segment ops without num_segments read values: they "
                      "cannot trace",
})


def _params(known, params=PARAMS):
    return [pytest.param(*p.values, id=p.id, marks=pytest.mark.xfail(
        strict=True, reason=known[p.id])) if p.id in known else p
        for p in params]


@pytest.mark.parametrize("name, case", _params(KNOWN))
def test_second_order_matches_tensorflows_own(name, case):
    arrays = _arrays(case, 0)
    _compare(_hvp(pycg.to_tensorflow(case.fn), arrays),
             _fd_hvp(case.tf_fn, arrays))


@pytest.mark.parametrize("name, case", _params(KNOWN_XLA, every(PARAMS, 4)))
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
    _compare(got, _fd_hvp(case.tf_fn, arrays))
