"""Gradients at the points where rules have a choice or IEEE arithmetic
takes over (0, -0, +-inf, nan, the largest floats), against TensorFlow's own
GradientTape on the same float32 points, on both backends.

Left out on purpose: subnormal inputs (TensorFlow's CPU kernels flush them
to zero, NumPy does not), elu and selu at nan (TensorFlow's fused kernel
passes the gradient through, a composition gives 0), and softsign at +-inf
(its value there is nan in both, TensorFlow's fused gradient 0)."""
import math

import numpy as np
import pytest

import pycg
from pycg import ops

tf = pytest.importorskip("tensorflow")

POINTS = [0.0, -0.0, 1.0, -1.0, math.inf, -math.inf, math.nan, 1e38, -1e38]
CASES = {
    "sqrt": (ops.sqrt, tf.sqrt), "abs": (ops.abs, tf.abs),
    "log": (ops.log, tf.math.log), "exp": (ops.exp, tf.exp),
    "tanh": (ops.tanh, tf.tanh), "sigmoid": (ops.sigmoid, tf.sigmoid),
    "relu": (ops.relu, tf.nn.relu), "softplus": (ops.softplus, tf.nn.softplus),
    "square": (ops.square, tf.square),
    "reciprocal": (ops.reciprocal, tf.math.reciprocal),
    "rsqrt": (ops.rsqrt, tf.math.rsqrt), "log1p": (ops.log1p, tf.math.log1p),
    "expm1": (ops.expm1, tf.math.expm1), "sin": (ops.sin, tf.sin),
    "arctan": (ops.arctan, tf.atan), "erf": (ops.erf, tf.math.erf),
    "sign": (ops.sign, tf.sign), "x ** 2": (lambda x: x ** 2, tf.square),
    "maximum(x, 0)": (lambda x: ops.maximum(x, 0.0),
                      lambda x: tf.maximum(x, 0.0)),
    "minimum(x, 0)": (lambda x: ops.minimum(x, 0.0),
                      lambda x: tf.minimum(x, 0.0)),
    "where(x > 0, log(x), 0)": (
        lambda x: ops.where(x > 0, ops.log(x), 0.0),
        lambda x: tf.where(x > 0, tf.math.log(x), 0.0)),
    "elu": (ops.elu, tf.nn.elu), "selu": (ops.selu, tf.nn.selu),
    "silu": (ops.silu, tf.nn.silu),
    "leaky_relu": (ops.leaky_relu, lambda x: tf.nn.leaky_relu(x, 0.2)),
    "relu6": (ops.relu6, tf.nn.relu6),
    "log_sigmoid": (ops.log_sigmoid, tf.math.log_sigmoid),
    "softsign": (ops.softsign, tf.nn.softsign),
    "clip": (lambda x: ops.clip(x, -1.0, 1.0),
             lambda x: tf.clip_by_value(x, -1.0, 1.0)),
    "round": (ops.round, tf.round), "floor": (ops.floor, tf.floor),
    "cosh": (ops.cosh, tf.cosh), "arcsinh": (ops.arcsinh, tf.asinh),
}
LEFT_OUT = {("elu", "nan"), ("selu", "nan"), ("softsign", "inf"),
            ("softsign", "-inf")}


@pytest.mark.parametrize("name, point", [
    (n, p) for n in CASES for p in POINTS if (n, repr(p)) not in LEFT_OUT])
def test_gradient_at_an_edge_point_as_tensorflow(backend, name, point):
    f, tf_f = CASES[name]
    got = pycg.grad(f)(pycg.constant(np.float32(point)))
    x = tf.constant(np.float32(point))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf_f(x)
    want = tape.gradient(y, x)
    want = np.float32(0) if want is None else np.float32(want.numpy())
    got = np.float32(got.numpy())
    if math.isnan(want) or math.isinf(want):
        assert got == want or math.isnan(got) and math.isnan(want)
    else:
        assert got == pytest.approx(want, rel=1e-5, abs=1e-30)


def test_selu_at_zero_takes_tensorflows_side(backend):
    scale = 1.0507009873554804934193349852946
    for zero in (0.0, -0.0):
        g = pycg.grad(ops.selu)(pycg.constant(np.float32(zero)))
        assert float(g.numpy()) == pytest.approx(scale, rel=1e-6)


@pytest.mark.parametrize("approximate", [True, False])
def test_gelu_at_huge_float64_inputs_as_tensorflow(backend, approximate):
    # TensorFlow's float64 erf is nan beyond 1e154; gelu goes through erfc,
    # as TensorFlow's own gelu does
    xs = np.array([1e154, 1e155, -1e155, 1e200, -1e300, 3.0, -40.0,
                   math.inf, -math.inf])
    got = pycg.grad(lambda x: ops.sum(ops.gelu(x, approximate)))(xs)
    value = ops.gelu(pycg.constant(xs), approximate)
    x = tf.constant(xs)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.gelu(x, approximate=approximate)
        total = tf.reduce_sum(y)
    want = tape.gradient(total, x)
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-7)
    np.testing.assert_allclose(value.numpy(), y.numpy(), rtol=1e-7)


def test_erf_of_huge_float64_is_plus_or_minus_one(backend):
    xs = np.array([1e155, -1e155, math.inf, -math.inf, 7.0, math.nan])
    np.testing.assert_array_equal(ops.erf(pycg.constant(xs)).numpy(),
                                  [1, -1, 1, -1, math.erf(7.0), math.nan])
