"""pycg.to_tensorflow: a pycg rule as a TensorFlow function, checked under
tf.GradientTape (first and second order), tf.function and XLA, in Keras
model.fit and under tf.distribute, against closed forms and TensorFlow's own
gradient of the same maths."""
import os
import re
import subprocess
import sys

import numpy as np
import pytest

os.environ.setdefault("KERAS_BACKEND", "tensorflow")

import keras  # noqa: E402
import tensorflow as tf  # noqa: E402

import pycg  # noqa: E402
from pycg import ops  # noqa: E402
from support.log1pexp_case import R_LOG1PEXP, log1pexp  # noqa: E402
from support.r_bridge_helpers import ROOT, r_env, require_r  # noqa: E402


pytestmark = pytest.mark.usefixtures("tf_backend")


@pycg.custom_gradient
def triple_gradient(x):
    """The identity, whose rule triples the gradient: a rule that differs
    from the true gradient in a known way."""
    return x + 0.0, lambda upstream: 3 * upstream


@pycg.custom_gradient
def scaled_product(x, y):
    """x * y**2, rule written with pycg ops (Keras convention)."""
    def grad(*args, upstream=None):
        return upstream * y * y, 2 * upstream * x * y
    return x * y * y, grad


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def sigmoid_slope(x):
    """s * (1 - s), written so that it does not round to 0 at large x."""
    e = np.exp(-np.abs(x))
    return e / (1 + e) ** 2


X = np.array([-3.0, -0.5, 0.0, 0.7, 4.0])


def first_and_second(fn, x):
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = fn(x)
        d1 = inner.gradient(y, x)
    return y, d1, outer.gradient(d1, x)


# ---- under tf.GradientTape --------------------------------------------------

def test_first_and_second_order_match_the_closed_forms():
    y, d1, d2 = first_and_second(pycg.to_tensorflow(log1pexp),
                                 tf.constant(X))
    s = sigmoid(X)
    np.testing.assert_allclose(y.numpy(), np.log1p(np.exp(X)), rtol=1e-12)
    np.testing.assert_allclose(d1.numpy(), s, rtol=1e-12)
    np.testing.assert_allclose(d2.numpy(), sigmoid_slope(X), rtol=1e-12)


def test_first_and_second_order_match_tensorflows_own_gradient():
    x = tf.constant(X)
    _, d1, d2 = first_and_second(pycg.to_tensorflow(log1pexp), x)
    _, t1, t2 = first_and_second(lambda v: tf.math.log(1 + tf.exp(v)), x)
    np.testing.assert_allclose(d1.numpy(), t1.numpy(), rtol=1e-12)
    np.testing.assert_allclose(d2.numpy(), t2.numpy(), rtol=1e-12)


def test_the_rule_is_the_gradient_at_large_x_where_the_naive_one_is_nan():
    x = tf.constant([100.0, 1000.0])  # exp overflows float32
    _, d1, _ = first_and_second(pycg.to_tensorflow(log1pexp), x)
    _, naive, _ = first_and_second(lambda v: tf.math.log(1 + tf.exp(v)), x)
    assert d1.numpy().tolist() == [1.0, 1.0]
    assert np.isnan(naive.numpy()).all()


def test_a_rule_that_differs_from_the_true_gradient_is_the_one_used():
    x = tf.constant([1.0, -2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(pycg.to_tensorflow(triple_gradient)(x) * x)
    # d/dx sum(id(x) * x) = 3 * x (through the rule) + x (directly)
    assert tape.gradient(y, x).numpy().tolist() == [4.0, -8.0]


def test_several_inputs_and_a_nested_output_get_their_gradients():
    def parts(x, pair, scale):
        return {"prod": scaled_product(x, pair[0]) * scale,
                "mix": [ops.sin(x) + pair[1], pair[0]]}
    f = pycg.to_tensorflow(parts)
    x, y, z = (tf.constant(v, tf.float64) for v in (0.3, 1.7, -0.4))
    with tf.GradientTape() as tape:
        tape.watch([x, y, z])
        out = f(x, (y, z), scale=2)
        loss = out["prod"] + 5 * out["mix"][0] + 7 * out["mix"][1]
    gx, gy, gz = (float(g) for g in tape.gradient(loss, [x, y, z]))
    xv, yv = 0.3, 1.7
    assert set(out) == {"prod", "mix"} and len(out["mix"]) == 2
    assert gx == pytest.approx(2 * yv * yv + 5 * np.cos(xv), rel=1e-12)
    assert gy == pytest.approx(4 * xv * yv + 7, rel=1e-12)
    assert gz == pytest.approx(5.0, rel=1e-12)


def test_second_order_of_a_two_input_rule_matches_the_hessian():
    f = pycg.to_tensorflow(scaled_product)
    x, y = tf.constant(0.6, tf.float64), tf.constant(-1.3, tf.float64)
    with tf.GradientTape(persistent=True) as outer:
        outer.watch([x, y])
        with tf.GradientTape() as inner:
            inner.watch([x, y])
            out = f(x, y)
        gx, gy = inner.gradient(out, [x, y])
    hessian = [[outer.gradient(g, v) for v in (x, y)] for g in (gx, gy)]
    xv, yv = 0.6, -1.3
    expected = [[None, 2 * yv], [2 * yv, 2 * xv]]  # d2/dx2 is unconnected
    assert hessian[0][0] is None
    for i, j in ((0, 1), (1, 0), (1, 1)):
        assert float(hessian[i][j]) == pytest.approx(expected[i][j],
                                                     rel=1e-12)


def test_inputs_reach_f_by_reference():
    seen = []

    def record(x):
        seen.append(x._value)
        return x * 2.0
    x = tf.constant([1.0, 2.0])
    pycg.to_tensorflow(record)(x)
    assert seen[0] is x


def test_tf_and_keras_variables_as_arguments_get_gradients():
    f = pycg.to_tensorflow(scaled_product)
    v = tf.Variable(0.5, dtype=tf.float64)
    k = keras.Variable(np.float64(2.0), dtype="float64")
    with tf.GradientTape() as tape:
        out = f(v, k)
    gv, gk = tape.gradient(out, [v, k.value])
    assert float(gv) == pytest.approx(4.0) and float(gk) == pytest.approx(2.0)


def test_pycg_tensors_arrays_and_floats_are_inputs_and_ints_flags():
    f = pycg.to_tensorflow(lambda x, power: x ** power)
    for x in (pycg.constant(2.0), np.float32(2.0), 2.0, tf.constant(2.0)):
        y = f(x, 3)
        assert isinstance(y, tf.Tensor) and float(y) == 8.0


def test_a_closed_over_pycg_variable_is_a_constant_read_when_called():
    w = pycg.Variable(np.float32(3.0))
    f = pycg.to_tensorflow(lambda x: w * x * x)

    @tf.function
    def slope(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        return tape.gradient(y, x)
    x = tf.constant(2.0)
    assert float(slope(x)) == 12.0
    w.assign(5.0)
    assert float(slope(x)) == 20.0


# ---- tf.function and XLA ----------------------------------------------------

@pytest.mark.parametrize("jit_compile", [False, True])
def test_inside_tf_function_first_and_second_order(jit_compile):
    fn = pycg.to_tensorflow(log1pexp)
    step = tf.function(lambda x: first_and_second(fn, x),
                       jit_compile=jit_compile)
    y, d1, d2 = step(tf.constant(X))
    s = sigmoid(X)
    np.testing.assert_allclose(y.numpy(), np.log1p(np.exp(X)), rtol=1e-12)
    np.testing.assert_allclose(d1.numpy(), s, rtol=1e-12)
    np.testing.assert_allclose(d2.numpy(), sigmoid_slope(X), rtol=1e-12)


def test_tf_gradients_in_a_graph_uses_the_rule():
    fn = pycg.to_tensorflow(triple_gradient)
    graph = tf.function(lambda x: tf.gradients(fn(x), x)[0])
    assert graph(tf.constant([1.0, 2.0])).numpy().tolist() == [3.0, 3.0]


# ---- Keras ------------------------------------------------------------------

def _one_sgd_step(head, jit_compile):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((16, 3)).astype("float32")
    y = rng.standard_normal((16, 1)).astype("float32")
    inputs = keras.Input((3,))
    dense = keras.layers.Dense(1, kernel_initializer="ones",
                               bias_initializer="zeros")
    model = keras.Model(inputs, head(dense(inputs)))
    model.compile(keras.optimizers.SGD(0.01), "mse", jit_compile=jit_compile)
    model.fit(x, y, batch_size=16, epochs=1, verbose=0, shuffle=False)
    kernel, bias = dense.get_weights()
    return kernel - 1.0, bias


@pytest.mark.parametrize("jit_compile", [False, True])
def test_keras_fit_trains_through_the_rule_in_a_lambda_layer(jit_compile):
    rule = keras.layers.Lambda(pycg.to_tensorflow(triple_gradient))
    moved = _one_sgd_step(rule, jit_compile)
    plain = _one_sgd_step(lambda h: h, jit_compile)  # keras' own gradient
    for m, p in zip(moved, plain):
        assert np.abs(p).min() > 1e-4
        np.testing.assert_allclose(m, 3 * p, rtol=1e-4)


class Softplus(keras.layers.Layer):
    """softplus(w * x + b) with trainable w, b, through the pycg rule."""

    def build(self, input_shape):
        self.w = self.add_weight(shape=(), initializer="zeros")
        self.b = self.add_weight(shape=(), initializer="zeros")
        self.rule = pycg.to_tensorflow(lambda x, w, b: log1pexp(w * x + b))

    def call(self, x):
        return self.rule(x, self.w, self.b)


def test_a_custom_keras_layer_learns_its_weights_through_the_rule():
    x = np.linspace(-2, 2, 64).astype("float32")[:, None]
    y = np.log1p(np.exp(2 * x - 0.5)).astype("float32")
    layer = Softplus()
    model = keras.Sequential([keras.Input((1,)), layer])
    model.compile(keras.optimizers.Adam(0.1), "mse")
    history = model.fit(x, y, batch_size=16, epochs=60, verbose=0)
    assert history.history["loss"][-1] < 1e-3
    assert float(layer.w.numpy()) == pytest.approx(2.0, abs=0.05)
    assert float(layer.b.numpy()) == pytest.approx(-0.5, abs=0.05)


@keras.saving.register_keras_serializable("pycg_tests")
class Log1pexp(keras.layers.Layer):
    """A layer that is the rule: saved and loaded by name."""

    rule = staticmethod(pycg.to_tensorflow(log1pexp))

    def call(self, x):
        return self.rule(x)


def test_a_model_with_a_rule_layer_saves_and_loads(tmp_path):
    x = np.linspace(-2, 2, 64, dtype="float32")[:, None]
    model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1),
                              Log1pexp()])
    model.compile(keras.optimizers.Adam(0.1), "mse")
    model.fit(x, np.log1p(np.exp(2 * x - 0.5)), epochs=3, batch_size=16,
              verbose=0)
    model.save(tmp_path / "model.keras")
    loaded = keras.models.load_model(tmp_path / "model.keras")
    np.testing.assert_array_equal(loaded.predict(x, verbose=0),
                                  model.predict(x, verbose=0))
    assert isinstance(loaded.layers[-1], Log1pexp)


def test_a_rule_with_a_reduction_trains_with_batches_of_one_size():
    keras.utils.set_random_seed(0)
    rule = pycg.to_tensorflow(
        lambda h: ops.sum(log1pexp(h), axis=1, keepdims=True))
    x = np.linspace(-2, 2, 64, dtype="float32")[:, None]
    y = 2 * np.log1p(np.exp(2 * x - 0.5))
    model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(2),
                              keras.layers.Lambda(rule, output_shape=(1,))])
    model.compile(keras.optimizers.Adam(0.1), "mse")
    history = model.fit(x, y, epochs=30, batch_size=16, verbose=0)
    assert history.history["loss"][-1] < 0.01


def test_unknown_dimensions_get_an_error_that_says_to_give_full_shapes():
    # an array index is a static gather: it needs every dimension known
    total = pycg.to_tensorflow(lambda x: ops.sum(x[:, [0, 2]]))

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def slope(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = total(x)
        return tape.gradient(y, x)
    with pytest.raises(ValueError, match=r"to_tensorflow\(<lambda>\): the "
                       r"forward of <lambda> failed on inputs of shape "
                       r"\(None, 3\) \(ValueError: pycg.ops.getitem: needs "
                       r"every dimension of its input known.*that op needs "
                       r"every dimension known"):
        slope(tf.ones((4, 3)))


# ---- tf.distribute ----------------------------------------------------------

DISTRIBUTED = """
import os
os.environ["KERAS_BACKEND"] = "tensorflow"
import numpy as np
import tensorflow as tf
cpu = tf.config.list_physical_devices("CPU")[0]
tf.config.set_logical_device_configuration(
    cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
import keras
import pycg
from pycg import ops
pycg.config.set_backend("tensorflow")

@pycg.custom_gradient
def triple_gradient(x):
    return x + 0.0, lambda upstream: 3 * upstream

rule = pycg.to_tensorflow(triple_gradient)
rng = np.random.default_rng(0)
X = rng.standard_normal((64, 5)).astype(np.float32)
Y = rng.standard_normal((64, 1)).astype(np.float32)
w0 = rng.standard_normal((5, 1)).astype(np.float32)

strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
with strategy.scope():
    w = tf.Variable(w0)

@tf.function
def distributed(dist_x, dist_y):
    def fn(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(rule(x @ w) * y)
        ctx = tf.distribute.get_replica_context()
        return ctx.all_reduce("sum", tape.gradient(loss, w))
    return strategy.run(fn, args=(dist_x, dist_y))

data = tf.data.Dataset.from_tensor_slices((X, Y)).batch(64)
x_dist, y_dist = next(iter(strategy.experimental_distribute_dataset(data)))
reduced = strategy.experimental_local_results(distributed(x_dist, y_dist))
print("replicas", strategy.num_replicas_in_sync, len(reduced))
expected = 3 * X.T @ Y  # d/dw sum((X w) * Y), tripled by the rule
for r in reduced:
    np.testing.assert_allclose(r.numpy(), expected, rtol=1e-5, atol=1e-5)

with strategy.scope():
    model = keras.Sequential([keras.Input((5,)), keras.layers.Dense(1),
                              keras.layers.Lambda(rule)])
    model.compile(keras.optimizers.SGD(0.01), "mse")
history = model.fit(X, Y, batch_size=32, epochs=3, verbose=0)
losses = history.history["loss"]
assert np.isfinite(losses).all() and losses[-1] < losses[0], losses
print("ok")
"""


def test_mirrored_strategy_on_two_cpus_uses_the_rule():
    env = dict(os.environ, PYCG_BACKEND="tensorflow", TF_CPP_MIN_LOG_LEVEL="3",
               PYTHONPATH=os.pathsep.join([ROOT, os.environ.get(
                   "PYTHONPATH", "")]))
    run = subprocess.run([sys.executable, "-c", DISTRIBUTED], env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "replicas 2 2" in run.stdout and "ok" in run.stdout


R_DISTRIBUTED = '''
import numpy as np
import tensorflow as tf
cpu = tf.config.list_physical_devices("CPU")[0]
tf.config.set_logical_device_configuration(
    cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
import pycg, pycg.r
pycg.config.set_backend("tensorflow")
rule = pycg.to_tensorflow(pycg.r.function("""
op_custom_gradient(function(x) {
  tuple(x * 1, function(upstream) upstream * 3)
})"""))
rng = np.random.default_rng(0)
X = rng.standard_normal((64, 5)).astype(np.float32)
Y = rng.standard_normal((64, 1)).astype(np.float32)
strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
with strategy.scope():
    w = tf.Variable(rng.standard_normal((5, 1)).astype(np.float32))

@tf.function
def distributed(dist_x, dist_y):
    def fn(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(rule(x @ w) * y)
        ctx = tf.distribute.get_replica_context()
        return ctx.all_reduce("sum", tape.gradient(loss, w))
    return strategy.run(fn, args=(dist_x, dist_y))

data = tf.data.Dataset.from_tensor_slices((X, Y)).batch(64)
x_dist, y_dist = next(iter(strategy.experimental_distribute_dataset(data)))
reduced = strategy.experimental_local_results(distributed(x_dist, y_dist))
print("replicas", len(reduced))
for r in reduced:
    np.testing.assert_allclose(r.numpy(), 3 * X.T @ Y, rtol=1e-5, atol=1e-5)
print("ok")
'''


def test_an_r_rule_under_mirrored_strategy_on_two_cpus():
    require_r()
    env = dict(r_env(), PYCG_BACKEND="tensorflow")
    run = subprocess.run([sys.executable, "-c", R_DISTRIBUTED], env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "replicas 2" in run.stdout and "ok" in run.stdout


# ---- an R rule --------------------------------------------------------------
def test_an_r_rule_from_pycg_r_works_under_tf_gradient_tape():
    require_r()
    import pycg.r
    fn = pycg.to_tensorflow(pycg.r.function(R_LOG1PEXP))
    x = tf.constant(np.append(X, 200.0))
    y, d1, d2 = first_and_second(fn, x)
    s = sigmoid(x.numpy())
    np.testing.assert_allclose(d1.numpy(), s, rtol=1e-12)
    np.testing.assert_allclose(d2.numpy(), sigmoid_slope(x.numpy()),
                               rtol=1e-12)
    graph = tf.function(lambda v: tf.gradients(fn(v), v)[0])
    np.testing.assert_allclose(graph(x).numpy(), s, rtol=1e-12)


# ---- the README walkthrough --------------------------------------------------

def test_the_readme_keras_walkthrough_runs_quietly():
    # in a fresh interpreter, as a user runs it: TensorFlow's start-up log
    # lines (printed when Keras, not pycg, loads TensorFlow) stay out
    with open(os.path.join(ROOT, "README.md")) as f:
        readme = f.read()
    section = readme.split("## Rules that travel", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert blocks
    code = "\n".join(blocks) + "\nprint(history.history['loss'][-1])\n"
    env = {k: v for k, v in os.environ.items() if k not in (
        "TF_CPP_MIN_LOG_LEVEL", "PYCG_BACKEND", "PYCG_TF_LOGS")}
    run = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    assert float(run.stdout.split()[-1]) < 0.01
    for line in ("absl::InitializeLog", "oneDNN custom operations",
                 "cpu_feature_guard"):
        assert line not in run.stderr, run.stderr[-3000:]


# ---- the public name and bad input ------------------------------------------

def test_to_tensorflow_is_public_and_converting_twice_is_harmless():
    assert "to_tensorflow" in pycg.__all__
    fn = pycg.to_tensorflow(log1pexp)
    assert pycg.to_tensorflow(fn) is fn and fn.__name__ == "log1pexp"


def test_something_not_callable_is_refused_with_what_to_pass():
    with pytest.raises(TypeError, match=r"pycg.to_tensorflow: expected a "
                       r"function written with pycg .*got int"):
        pycg.to_tensorflow(3)


@pytest.mark.parametrize("tf_callable", [
    tf.function(lambda x: x), keras.layers.Dense(1)])
def test_a_tensorflow_callable_is_refused_as_needing_no_conversion(
        tf_callable):
    with pytest.raises(TypeError, match="is a TensorFlow/Keras callable .*"
                       "call it directly"):
        pycg.to_tensorflow(tf_callable)


def test_a_function_returning_tf_tensors_is_named_in_the_error():
    def tf_exp(x):
        return tf.exp(x._value)
    with pytest.raises(TypeError, match=r"to_tensorflow\(tf_exp\): tf_exp "
                       r"returned a tf.Tensor; it must compute with pycg.ops"):
        pycg.to_tensorflow(tf_exp)(tf.constant(1.0))


def test_an_undecorated_rule_is_told_to_use_custom_gradient():
    def bare(x):
        return x * 2.0, lambda upstream: upstream
    with pytest.raises(TypeError, match=r"bare returned a function beside "
                       r"its output.*@pycg.custom_gradient"):
        pycg.to_tensorflow(bare)(tf.constant(1.0))


def test_a_function_returning_a_non_tensor_is_named_in_the_error():
    def label(x):
        return "done"
    with pytest.raises(TypeError, match=r"to_tensorflow\(label\): label must "
                       r"return a pycg tensor .*got str"):
        pycg.to_tensorflow(label)(tf.constant(1.0))


def test_a_rule_whose_gradient_is_not_a_tensor_is_named_in_the_error():
    @pycg.custom_gradient
    def wordy(x):
        return x * 2.0, lambda upstream: "two"
    fn = pycg.to_tensorflow(wordy)
    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x)
    with pytest.raises(TypeError, match=r"wordy: gradient for 'x' is a str; "
                       r"expected a tensor"):
        tape.gradient(y, x)


def test_a_rule_whose_output_is_not_a_tensor_is_named_in_the_error():
    @pycg.custom_gradient
    def labelled(x):
        return "out", lambda upstream: upstream
    with pytest.raises(TypeError, match=r"labelled: outputs must be tensors "
                       r"or numbers, got str"):
        pycg.to_tensorflow(labelled)(tf.constant(1.0))
