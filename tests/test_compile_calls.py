"""pycg.function's steady calls (eager tensors in, a signature seen
before) run the concrete function tf.function would run, without its
dispatch (pycg/compile/concrete_calls.py): each result is checked against the
same function under tf.function, or against NumPy."""
import threading

import numpy as np
import pytest
import tensorflow as tf

import pycg
from pycg import ops


def _kept(f, n=1):
    """How many signatures f's calls of n arguments run directly."""
    return len(f._calls[n].concrete)


def test_steady_calls_run_the_traced_graph_directly(tf_backend):
    f = pycg.function(lambda x, y: [ops.sin(x) * y, x - y])
    g = tf.function(lambda x, y: [tf.sin(x) * y, x - y])
    x, y = np.arange(3.0, dtype=np.float32), np.float32([2, -1, 0.5])
    for _ in range(4):
        got = f(pycg.constant(x), pycg.constant(y))
    assert _kept(f, 2) == 1 and f.trace_count == 1
    assert type(got) is list and all(type(t) is pycg.Tensor for t in got)
    for a, b in zip(got, g(x, y)):
        np.testing.assert_array_equal(a.numpy(), b.numpy())


@pytest.mark.parametrize("other", [np.ones((2, 3), np.float32),
                                   np.ones(3, np.float64),
                                   np.ones(3, np.int32)],
                         ids=["shape", "float64", "int32"])
def test_a_new_shape_or_dtype_traces_again(tf_backend, other):
    f = pycg.function(lambda x: x * 3)
    for _ in range(3):
        f(pycg.constant(np.ones(3, np.float32)))
    got = f(pycg.constant(other))
    assert f.trace_count == 2 and got.dtype == other.dtype
    np.testing.assert_array_equal(got.numpy(), other * 3)
    np.testing.assert_array_equal(
        f(pycg.constant(np.full(3, 2, np.float32))).numpy(), [6, 6, 6])


def test_steady_calls_read_variables_assigned_between_them(tf_backend):
    w = pycg.Variable(np.float32([1, 2]))
    f = pycg.function(lambda x: x * w)
    x = pycg.constant(np.float32([3, 3]))
    for value in ([1, 2], [5, 7], [-1, 0]):
        w.assign(np.float32(value))
        np.testing.assert_array_equal(f(x).numpy(), np.float32(value) * 3)
    assert _kept(f) == 1


def test_the_same_tensor_twice(tf_backend):
    f = pycg.function(lambda x, y: x * 10 + y)
    x = pycg.constant(np.float32([1, 2]))
    for _ in range(3):
        got = f(x, x)
    np.testing.assert_array_equal(got.numpy(), [11, 22])


def test_a_tensorflow_tape_sees_steady_calls(tf_backend):
    f = pycg.function(lambda x: ops.sum(ops.sin(x) ** 2))
    x = tf.constant([0.3, -1.2, 2.0])
    for _ in range(3):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(pycg.Tensor(x))._value
    np.testing.assert_allclose(tape.gradient(y, x).numpy(),
                               np.sin(2 * x.numpy()), rtol=1e-6)


def test_run_functions_eagerly_runs_python_each_call(tf_backend):
    runs = []

    def step(x):
        runs.append(1)
        return x + 1
    f = pycg.function(step)
    x = pycg.constant(np.float32([1]))
    for _ in range(3):
        f(x)
    assert len(runs) == 1
    tf.config.run_functions_eagerly(True)
    try:
        np.testing.assert_array_equal(f(x).numpy(), [2])
    finally:
        tf.config.run_functions_eagerly(False)
    assert len(runs) == 2


def test_called_while_tensorflow_traces_it_is_part_of_that_graph(tf_backend):
    f = pycg.function(lambda x: x * 2)
    x = pycg.constant(np.float32([1, 2]))
    for _ in range(3):
        f(x)
    outer = tf.function(lambda v: f(pycg.Tensor(v))._value + 1)
    np.testing.assert_array_equal(outer(x._value).numpy(), [3, 5])
    closing = tf.function(lambda: f(x)._value - 1)   # (x stays eager)
    np.testing.assert_array_equal(closing().numpy(), [1, 3])
    assert f.trace_count == 1   # (as tf.function: one concrete function)


def test_jit_compile_steady_calls_stay_compiled_with_xla(tf_backend):
    f = pycg.function(lambda x: ops.sin(x) * 2, jit_compile=True)
    x = pycg.constant(np.float32([0.5, 1.0]))
    for _ in range(3):
        got = f(x)
    (concrete,) = f._calls[1].concrete.values()
    assert concrete.function_def.attr["_XlaMustCompile"].b
    np.testing.assert_allclose(got.numpy(), np.sin([0.5, 1.0]) * 2,
                               rtol=1e-6)


def test_reduce_retracing_gives_each_shape_its_values(tf_backend):
    f = pycg.function(lambda x: ops.sum(x, axis=0), reduce_retracing=True)
    for n in (2, 3, 4, 5, 3, 2, 5):
        x = np.arange(2.0 * n, dtype=np.float32).reshape(n, 2)
        np.testing.assert_array_equal(f(pycg.constant(x)).numpy(),
                                      x.sum(axis=0))
    assert f.trace_count <= 2


def test_steady_calls_from_threads(tf_backend):
    f = pycg.function(lambda x: x * x)
    results, errors = {}, []

    def work(i):
        try:
            x = pycg.constant(np.float32([i, i + 1]))
            for _ in range(20):
                results[i] = f(x).numpy()
        except Exception as e:   # (reported below)
            errors.append(e)
    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for i in range(4):
        np.testing.assert_array_equal(results[i], np.float32([i, i + 1]) ** 2)
    assert f.trace_count == 1


def test_numpy_arguments_take_the_direct_way(tf_backend):
    f = pycg.function(lambda x, s: x * s)
    for s in (2.0, 3.0, 0.5):
        got = f(np.float32([1, 2]), np.float32(s))
        np.testing.assert_array_equal(got.numpy(), np.float32([1, 2]) * s)
    assert f.trace_count == 1 and _kept(f, 2) == 1


@pytest.mark.parametrize("values", [(2, 3, 2, 3), (2.0, 3.0, 2.0, 3.0)])
def test_int_and_float_arguments_trace_per_value(tf_backend, values):
    f = pycg.function(lambda x, k: x * k)
    x = pycg.constant(np.float32([1, 2]))
    for k in values:
        np.testing.assert_array_equal(f(x, k).numpy(), [k, 2 * k])
    assert f.trace_count == 2 and _kept(f, 2) == 0


def _adam_trajectory(compiled, steps=20):
    w = pycg.Variable(np.float32([1.0, -2.0, 0.5]))
    opt = pycg.optimizers.Adam(learning_rate=0.05)

    def step(x):   # (the optimizer makes its slots during the first trace)
        with pycg.GradientTape() as tape:
            loss = ops.sum(ops.square(w * x - 1.0))
        opt.apply_gradients([(tape.gradient(loss, w), w)])
        return loss
    if compiled:
        step = pycg.function(step)
    x = pycg.constant(np.float32([0.5, 1.5, -1.0]))
    losses = [float(step(x)) for _ in range(steps)]
    return losses, w.numpy(), step


def test_a_training_step_closing_over_variables_matches_eager(tf_backend):
    want_losses, want_w, _ = _adam_trajectory(False)
    losses, w, step = _adam_trajectory(True)
    np.testing.assert_allclose(losses, want_losses, rtol=1e-6)
    np.testing.assert_allclose(w, want_w, rtol=1e-6)
    assert _kept(step) == 1 and step.trace_count <= 2
