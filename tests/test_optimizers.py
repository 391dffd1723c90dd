"""pycg.optimizers against Keras 3's own optimizers, step for step.

The problem: a logistic loss plus a quadratic pull, float32, two variables
(a vector and a scalar). Keras' side takes its gradients from TensorFlow's
GradientTape, pycg's from pycg; after 100 steps the variables must agree.
"""
import os

import numpy as np
import pytest

import pycg
from pycg import ops
from support import backend_switch

os.environ.setdefault("KERAS_BACKEND", "tensorflow")
keras = pytest.importorskip("keras")
tf = pytest.importorskip("tensorflow")

STEPS = 100
_rng = np.random.default_rng(0)
X = _rng.normal(size=(16, 4)).astype(np.float32)
T = np.where(_rng.normal(size=16) > 0, 1.0, -1.0).astype(np.float32)
C = np.array([1.5, -1.5, 2.0, -1.0], np.float32)
W0 = np.array([0.3, -0.2, 0.1, 0.4], np.float32)
B0 = np.float32(0.1)


def tf_loss(w, b):
    z = tf.linalg.matvec(X, w) + b
    return tf.reduce_mean(tf.nn.softplus(-T * z)) + \
        0.5 * tf.reduce_sum(tf.square(w - C))


def pycg_loss(w, b):
    z = ops.matmul(X, w) + b
    return ops.mean(ops.softplus(-T * z)) + 0.5 * ops.sum(ops.square(w - C))


def no_decay_on_b(opt):
    opt.exclude_from_weight_decay(var_names=["b"])
    return opt


# name -> builder(module): the same call on keras.optimizers and
# pycg.optimizers
CONFIGS = {
    "SGD": lambda m: m.SGD(learning_rate=0.05),
    "SGD-momentum": lambda m: m.SGD(learning_rate=0.05, momentum=0.9),
    "SGD-nesterov": lambda m: m.SGD(learning_rate=0.05, momentum=0.9,
                                    nesterov=True),
    "Adam": lambda m: m.Adam(learning_rate=0.05),
    "Adam-amsgrad": lambda m: m.Adam(learning_rate=0.05, amsgrad=True),
    "AdamW": lambda m: m.AdamW(learning_rate=0.05, weight_decay=0.1),
    "RMSprop": lambda m: m.RMSprop(learning_rate=0.01),
    # RMSprop's steps stay near lr wherever the gradient is, so where a
    # gradient crosses zero they bounce and magnify float32 rounding (to
    # 1e-3 in 100 steps); C and Keras' default rate keep these two on the
    # way down.
    "RMSprop-momentum": lambda m: m.RMSprop(momentum=0.5),
    "RMSprop-centered": lambda m: m.RMSprop(momentum=0.5, centered=True),
    "Adagrad": lambda m: m.Adagrad(learning_rate=0.1),
    "SGD-clipnorm": lambda m: m.SGD(learning_rate=0.1, clipnorm=0.5),
    "SGD-clipvalue": lambda m: m.SGD(learning_rate=0.1, clipvalue=0.2),
    "Adam-global_clipnorm": lambda m: m.Adam(learning_rate=0.05,
                                             global_clipnorm=0.3),
    "SGD-weight_decay": lambda m: m.SGD(learning_rate=0.05,
                                        weight_decay=0.2),
    "AdamW-exclude-b": lambda m: no_decay_on_b(m.AdamW(learning_rate=0.05,
                                                       weight_decay=0.5)),
    "Adam-ExponentialDecay": lambda m: m.Adam(
        learning_rate=m.schedules.ExponentialDecay(0.1, 10, 0.8,
                                                   staircase=True)),
    "SGD-PiecewiseConstantDecay": lambda m: m.SGD(
        learning_rate=m.schedules.PiecewiseConstantDecay([20, 50],
                                                         [0.1, 0.05, 0.01]),
        momentum=0.5),
    "SGD-CosineDecay-warmup": lambda m: m.SGD(
        learning_rate=m.schedules.CosineDecay(0.0, 80, alpha=0.1,
                                              warmup_target=0.1,
                                              warmup_steps=10)),
}
_keras_cache = {}


def keras_trajectory(name):
    if name not in _keras_cache:
        opt = CONFIGS[name](keras.optimizers)
        w, b = keras.Variable(W0, name="w"), keras.Variable(B0, name="b")
        for _ in range(STEPS):
            with tf.GradientTape() as tape:
                loss = tf_loss(w.value, b.value)
            opt.apply_gradients(zip(tape.gradient(loss, [w.value, b.value]),
                                    [w, b]))
        _keras_cache[name] = (np.asarray(w.numpy()), np.asarray(b.numpy()))
    return _keras_cache[name]


def pycg_trajectory(name, compiled):
    opt = CONFIGS[name](pycg.optimizers)
    w, b = pycg.Variable(W0, name="w"), pycg.Variable(B0, name="b")

    def step(w, b):
        grads = pycg.grad(pycg_loss, argnums=(0, 1))(w, b)
        opt.apply_gradients(zip(grads, [w, b]))
        return opt.iterations.read()
    if compiled:
        step = pycg.function(step)
    for _ in range(STEPS):
        step(w, b)
    assert int(opt.iterations) == STEPS
    if compiled and pycg.config.backend() == "tensorflow":
        # slots made during the first trace make TensorFlow trace once more
        assert step.trace_count <= 2
    return w.numpy(), b.numpy()


@pytest.fixture(params=["numpy", "tensorflow", "tensorflow-function"])
def compiled(request):
    """Eager on each backend, and compiled by pycg.function (tensorflow; on
    numpy pycg.function runs eagerly)."""
    previous = pycg.config.backend()
    pycg.config.set_backend(request.param.split("-")[0])
    yield request.param.endswith("function")
    pycg.config.set_backend(previous)


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_trajectory_matches_keras_after_100_steps(name, compiled):
    kw, kb = keras_trajectory(name)
    pw, pb = pycg_trajectory(name, compiled)
    assert not np.allclose(kw, W0)  # the optimizer moved
    diff = max(np.abs(kw - pw).max(), abs(float(kb) - float(pb)))
    assert diff < 1e-5, f"{name}: max abs difference {diff:.3g}"


# ---- schedules: the same values as Keras' ---------------------------------
SCHEDULES = {
    "ExponentialDecay": lambda s: s.ExponentialDecay(0.1, 7, 0.9),
    "ExponentialDecay-staircase": lambda s: s.ExponentialDecay(
        0.1, 7, 0.9, staircase=True),
    "PiecewiseConstantDecay": lambda s: s.PiecewiseConstantDecay(
        [10, 30, 60], [1.0, 0.5, 0.25, 0.125]),
    "CosineDecay": lambda s: s.CosineDecay(0.2, 50, alpha=0.05),
    "CosineDecay-warmup": lambda s: s.CosineDecay(
        0.01, 50, warmup_target=0.2, warmup_steps=20),
}


@pytest.mark.parametrize("name", sorted(SCHEDULES))
def test_schedule_values_match_keras(name, backend):
    ours = SCHEDULES[name](pycg.optimizers.schedules)
    theirs = SCHEDULES[name](keras.optimizers.schedules)
    steps = range(0, 121, 3)
    got = [float(ours(s)) for s in steps]
    want = [float(theirs(s)) for s in steps]
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-8)


# ---- state and settings -----------------------------------------------------
def quadratic_grads(*variables):
    return [ops.multiply(v, 2.0) for v in variables]


def test_iterations_count_applies_and_slots_are_listed(backend):
    w, b = pycg.Variable([1.0, 2.0], name="w"), pycg.Variable(0.5, name="b")
    opt = pycg.optimizers.Adam(amsgrad=True)
    for _ in range(3):
        opt.apply(quadratic_grads(w, b), [w, b])
    assert int(opt.iterations) == 3
    assert len(opt.variables) == 2 + 3 * 2  # iterations, lr, m, v, v_hat
    assert opt.variables[2].shape == (2,)


def test_building_before_compiling_traces_once():
    with backend_switch.on("tensorflow"):
        w = pycg.Variable([1.0, 2.0], name="w")
        opt = pycg.optimizers.Adam(learning_rate=0.1)
        opt.build([w])

        @pycg.function
        def step(w):
            opt.apply([pycg.grad(lambda v: ops.sum(v * v))(w)], [w])
        for _ in range(3):
            step(w)
    assert step.trace_count == 1 and int(opt.iterations) == 3
    assert np.allclose(w.numpy(), [0.7, 1.7], atol=5e-3)  # three ~lr steps


def test_apply_without_variables_uses_the_built_ones(backend):
    w = pycg.Variable([1.0], name="w")
    opt = pycg.optimizers.SGD(learning_rate=0.25)
    opt.build([w])
    opt.apply([pycg.constant([2.0])])
    assert w.numpy().tolist() == [0.5]


def test_learning_rate_float_can_be_set(backend):
    w = pycg.Variable([1.0])
    opt = pycg.optimizers.SGD(learning_rate=0.5)
    with pytest.raises(ValueError, match=r"`learning_rate` must be a "
                       r"finite float >= 0"):
        opt.learning_rate = -1.0
    opt.learning_rate = 0.25
    opt.apply([pycg.constant([1.0])], [w])
    assert float(opt.learning_rate) == 0.25
    assert w.numpy().tolist() == [0.75]


def test_learning_rate_plain_callable_takes_no_arguments(backend):
    w = pycg.Variable([1.0])
    opt = pycg.optimizers.SGD(learning_rate=lambda: 0.5)
    opt.apply([pycg.constant([1.0])], [w])
    assert w.numpy().tolist() == [0.5]


def test_numpy_gradient_is_converted_to_the_variable_dtype(backend):
    w = pycg.Variable([1.0, 1.0])
    pycg.optimizers.SGD(learning_rate=0.5).apply([np.array([1.0, 2.0])], [w])
    assert w.dtype == np.float32 and w.numpy().tolist() == [0.5, 0.0]


def test_float64_variables_update_in_float64(backend):
    w = pycg.Variable(np.array([1.0], np.float64))
    opt = pycg.optimizers.SGD(learning_rate=0.5)
    opt.apply([pycg.constant(np.array([1e-9], np.float64))], [w])
    assert w.dtype == np.float64
    assert w.numpy()[0] == pytest.approx(1.0 - 0.5e-9, abs=1e-15)


def test_none_gradient_warns_and_leaves_that_variable(backend):
    w, b = pycg.Variable([1.0], name="w"), pycg.Variable([1.0], name="b")
    opt = pycg.optimizers.SGD(learning_rate=0.5)
    with pytest.warns(UserWarning, match=r"no gradients for variables 1 "
                      r"\('b'\)"):
        opt.apply([pycg.constant([1.0]), None], [w, b])
    assert (w.numpy().tolist(), b.numpy().tolist()) == ([0.5], [1.0])
