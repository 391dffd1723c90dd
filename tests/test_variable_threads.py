"""Variable updates and optimizer steps from several threads: each update
is atomic (as a TensorFlow resource variable's), none is lost."""
import sys
import threading

import keras
import numpy as np
import pytest
import tensorflow as tf

import pycg

THREADS, CALLS = 4, 1000


@pytest.fixture(autouse=True)
def frequent_thread_switches():
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(old)


def in_threads(work, n=THREADS):
    errors = []

    def run():
        try:
            work()
        except BaseException as e:   # (reported by the test, not lost)
            errors.append(e)
    threads = [threading.Thread(target=run) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


@pytest.mark.parametrize("method, sign", [("assign_add", 1.0),
                                          ("assign_sub", -1.0)])
def test_updates_from_four_threads_lose_none(backend, method, sign):
    v = pycg.Variable(np.zeros(2))
    update = getattr(v, method)
    in_threads(lambda: [update(1.0) for _ in range(CALLS)])
    assert v.numpy().tolist() == [sign * THREADS * CALLS] * 2


def test_assign_from_threads_leaves_one_whole_value(backend):
    v = pycg.Variable(np.zeros(64))
    values = [np.full(64, float(i)) for i in range(THREADS)]
    index = iter(range(THREADS))

    def work():
        mine = values[next(index)]
        for _ in range(200):
            v.assign(mine)
    in_threads(work)
    assert len(set(v.numpy().tolist())) == 1


def test_sgd_steps_from_threads_are_each_applied(backend):
    w = pycg.Variable(np.zeros(3))
    opt = pycg.optimizers.SGD(learning_rate=0.5)
    opt.build([w])
    steps = 250
    in_threads(lambda: [opt.apply([np.ones(3)], [w]) for _ in range(steps)])
    assert w.numpy().tolist() == [-0.5 * THREADS * steps] * 3
    assert int(opt.iterations) == THREADS * steps


def test_adam_steps_from_threads_match_keras_sequential_steps(backend):
    grad = np.array([0.3, -1.0, 2.0])
    steps = 50
    w = pycg.Variable(np.ones(3))
    opt = pycg.optimizers.Adam(learning_rate=0.01)
    opt.build([w])
    in_threads(lambda: [opt.apply([grad], [w]) for _ in range(steps)])
    ref = tf.Variable(np.ones(3))
    ref_opt = keras.optimizers.Adam(learning_rate=0.01)
    for _ in range(THREADS * steps):
        ref_opt.apply_gradients([(tf.constant(grad), ref)])
    np.testing.assert_allclose(w.numpy(), ref.numpy(), rtol=1e-12)
    assert int(opt.iterations) == THREADS * steps


def test_assign_add_broadcasts_a_delta(backend):
    v = pycg.Variable(np.zeros((2, 3)))
    v.assign_add(np.array([1.0, 2.0, 3.0]))
    v.assign_sub(1.0)
    np.testing.assert_array_equal(v.numpy(), np.array([[0.0, 1.0, 2.0]] * 2))


def test_a_delta_that_does_not_broadcast_is_refused(backend):
    v = pycg.Variable(np.zeros(2), name="w")
    with pytest.raises(ValueError, match=r"^pycg.Variable.assign_add: delta "
                       r"has shape \(3,\), which does not broadcast to the "
                       r"shape \(2,\) of variable 'w'$"):
        v.assign_add(np.ones(3))
    with pytest.raises(ValueError, match=r"^pycg.Variable.assign_sub: delta "
                       r"has shape \(2, 2\), which does not broadcast"):
        v.assign_sub(np.ones((2, 2)))
    assert v.numpy().tolist() == [0.0, 0.0]


def test_compiled_updates_from_threads_lose_none(tf_backend):
    v = pycg.Variable(0.0)

    @pycg.function
    def increment():
        v.assign_add(1.0)
        return v.read()
    increment()
    in_threads(lambda: [increment() for _ in range(200)])
    assert float(v.numpy()) == 1 + THREADS * 200


@pytest.mark.parametrize("to", ["tensorflow", "jax"])
def test_variables_moving_to_a_new_backend_in_threads_lose_no_update(to):
    # A variable made on numpy moves its storage to the backend in use at
    # its first read or update there: threads reading and updating it at
    # once make one move (before, a read's move could put back the value
    # from before another thread's update: lost updates, and on tensorflow
    # repeated draws of the global seed generator).
    pytest.importorskip(to)
    previous = pycg.config.backend()
    try:
        lost = 0
        for _ in range(10):
            pycg.config.set_backend("numpy")
            v = pycg.Variable(np.zeros(2, np.float32))
            pycg.config.set_backend(to)
            start = threading.Barrier(THREADS)

            def work(v=v, start=start):
                start.wait()
                v.numpy()
                v.assign_add(np.ones(2, np.float32))
            in_threads(work)
            lost += THREADS - int(v.numpy()[0])
    finally:
        pycg.config.set_backend(previous)
    assert lost == 0
