"""pycg.function: tapes, grad and custom gradients traced into one graph;
retracing counted; data-parallel steps under tf.distribute."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import pycg
from pycg import ops
from support.log1pexp_case import log1pexp
from support import backend_switch


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def test_compiled_gradient_through_a_custom_rule(tf_backend):
    slope = pycg.function(pycg.grad(lambda x: log1pexp(x) * x))
    x = 0.8
    expected = np.log1p(np.exp(x)) + x * sigmoid(x)
    assert float(slope(x)) == pytest.approx(expected, rel=1e-6)
    big = 30.0  # exp(30) is finite in float32; the slope tends to 2x
    assert float(slope(big)) == pytest.approx(
        np.log1p(np.exp(big)) + big * sigmoid(big), rel=1e-6)


def test_new_array_value_does_not_retrace_new_shape_or_float_does(
        tf_backend):
    f = pycg.function(lambda x: ops.sum(x * x))
    f(np.array([1.0, 2.0], np.float32))
    f(np.array([3.0, 4.0], np.float32))
    assert f.trace_count == 1
    assert float(f(2.0)) == 4.0 and float(f(3.0)) == 9.0   # (as tf.function:
    assert f.trace_count == 3                      # a Python float is a value)
    f(np.ones((3, 3), np.float32))
    assert f.trace_count == 4


def test_tape_inside_a_compiled_function_sees_assigned_variables(tf_backend):
    w = pycg.Variable(np.ones(3, np.float32), name="w")

    @pycg.function
    def step(x):
        with pycg.GradientTape() as tape:
            loss = ops.sum(log1pexp(w * x))
        return tape.gradient(loss, w)

    x = np.array([1.0, 2.0, 3.0], np.float32)
    assert np.allclose(step(x).numpy(), x * sigmoid(x), rtol=1e-6)
    w.assign(np.zeros(3, np.float32))
    assert np.allclose(step(x).numpy(), x * 0.5, rtol=1e-6)
    assert step.trace_count == 1


def test_jit_compile_gives_the_same_gradient(tf_backend):
    f = lambda x: ops.sum(ops.tanh(log1pexp(x)))  # noqa: E731
    x = np.linspace(-3, 3, 7).astype(np.float32)
    eager = pycg.grad(f)(x).numpy()
    xla = pycg.function(pycg.grad(f), jit_compile=True)(x).numpy()
    # XLA uses its own fast float32 tanh/exp: agree to ~1e-4, not bitwise
    assert np.allclose(eager, xla, rtol=1e-4, atol=1e-6)


def test_python_control_flow_on_a_traced_value_says_what_to_do(tf_backend):
    @pycg.function
    def branchy(x):
        if x > 0:
            return x
        return -x

    with pytest.raises(TypeError, match=r"a traced tensor was used as "
                       r"bool\(\).*Use ops.where"):
        branchy(pycg.constant(1.0))


def test_numpy_backend_runs_eagerly_with_one_warning():
    with backend_switch.on("numpy"):
        f = pycg.function(lambda x: x * 2)
        with pytest.warns(UserWarning, match="numpy backend has no graphs"):
            assert float(f(2.0)) == 4.0
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert float(f(3.0)) == 6.0


DISTRIBUTED = textwrap.dedent("""
    import numpy as np
    import tensorflow as tf
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(
        cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    import pycg
    from pycg import ops
    pycg.config.set_backend("tensorflow")

    @pycg.custom_gradient
    def softplus(x):
        e = ops.exp(-ops.abs(x))
        def grad(g):
            return g * ops.where(x >= 0, 1 / (1 + e), e / (1 + e))
        return ops.maximum(x, 0) + ops.log1p(e), grad

    rng = np.random.default_rng(0)
    X = rng.standard_normal((64, 5)).astype(np.float32)
    Y = rng.standard_normal((64, 1)).astype(np.float32)
    w0 = rng.standard_normal((5, 1)).astype(np.float32)

    def loss_grads(w, x, y):
        with pycg.GradientTape() as tape:
            loss = ops.sum(softplus(ops.matmul(x, w)) - y)
        return tape.gradient(loss, w)

    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    with strategy.scope():
        w = pycg.Variable(w0, name="w")
    replica_step = pycg.function(lambda x, y: loss_grads(w, x, y))

    @tf.function
    def distributed(dist_x, dist_y):
        def fn(x, y):
            g = replica_step(x, y)
            ctx = tf.distribute.get_replica_context()
            return ctx.all_reduce("sum", g._value)
        return strategy.run(fn, args=(dist_x, dist_y))

    data = tf.data.Dataset.from_tensor_slices((X, Y)).batch(64)
    x_dist, y_dist = next(iter(strategy.experimental_distribute_dataset(data)))
    per_replica = distributed(x_dist, y_dist)
    reduced = [v.numpy() for v in strategy.experimental_local_results(
        per_replica)]
    print("replicas", strategy.num_replicas_in_sync)

    w_single = pycg.Variable(w0, name="w_single")
    single = loss_grads(w_single, pycg.constant(X), pycg.constant(Y)).numpy()
    for r in reduced:
        np.testing.assert_allclose(r, single, rtol=1e-5, atol=1e-5)
    print("ok", float(np.abs(single).sum()))
""")


def test_mirrored_strategy_all_reduced_gradients_equal_single_device():
    env = dict(os.environ, PYCG_BACKEND="tensorflow",
               TF_CPP_MIN_LOG_LEVEL="3")
    run = subprocess.run([sys.executable, "-c", DISTRIBUTED], env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "replicas 2" in run.stdout and "ok" in run.stdout


def test_variables_passed_as_arguments_get_gradients(tf_backend):
    v = pycg.Variable(np.array([1.0, 2.0], np.float32), name="v")
    w = pycg.Variable(np.array([3.0, 4.0], np.float32), name="w")

    @pycg.function
    def grads(x, variables):
        with pycg.GradientTape() as tape:
            loss = ops.sum(variables[0] * x * x)
        return tape.gradient(loss, variables)

    x = pycg.constant([1.0, 2.0])
    assert grads(x, [v])[0].numpy().tolist() == [1.0, 4.0]
    assert grads(x, [w])[0].numpy().tolist() == [1.0, 4.0]
    w.assign([0.0, 0.0])
    total = pycg.function(lambda vs: ops.sum(vs[0]))
    assert float(total([v])) == 3.0 and float(total([w])) == 0.0


def test_a_tape_around_a_compiled_function_sees_its_ops(tf_backend):
    """The gradient through a pycg.function called under a tape (grad of
    jit): its inputs, a variable it reads from its closure, its custom rule
    and a second derivative, each against the closed form; then the same
    function called with no tape runs its graph again."""
    w = pycg.Variable(np.float32(1.5), name="w")
    f = pycg.function(lambda x: log1pexp(x) * w * x)
    x = pycg.constant(0.8)
    with pycg.GradientTape(persistent=True) as outer:
        outer.watch(x)
        with pycg.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        dx, dw = inner.gradient(y, [x, w])
    s = sigmoid(0.8)
    assert float(dx) == pytest.approx(1.5 * (np.log1p(np.exp(0.8)) + 0.8 * s),
                                      rel=1e-6)
    assert float(dw) == pytest.approx(0.8 * np.log1p(np.exp(0.8)), rel=1e-6)
    d2 = outer.gradient(dx, x)   # 1.5 * (2 s + x s (1 - s))
    assert float(d2) == pytest.approx(1.5 * (2 * s + 0.8 * s * (1 - s)),
                                      rel=1e-5)
    assert float(pycg.grad(f)(2.0)) == pytest.approx(
        1.5 * (np.log1p(np.exp(2.0)) + 2.0 * sigmoid(2.0)), rel=1e-6)
    traces = f.trace_count
    assert float(f(x)) == pytest.approx(1.5 * 0.8 * np.log1p(np.exp(0.8)),
                                        rel=1e-6)
    assert f.trace_count == traces + 1


def test_positional_keyword_and_optional_arguments(tf_backend):
    """One graph per number of positional arguments, one for calls with
    keywords; each gives the eager value, outputs keep their structure."""
    def f(x, y=None, scale=2.0):
        out = x * scale if y is None else x * y * scale
        return [out, ops.sum(out)]

    compiled = pycg.function(f)
    x, y = pycg.constant([1.0, 2.0]), pycg.constant([3.0, 4.0])
    for args, kwargs in (((x,), {}), ((x, y), {}), ((x,), {"y": y}),
                         ((x, y), {"scale": 0.5}), ((x,), {})):
        got, want = compiled(*args, **kwargs), f(*args, **kwargs)
        assert type(got) is list and len(got) == 2
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g.numpy(), w.numpy())
    assert compiled.trace_count == 4   # (the last call reuses the first)
