"""pycg.config.set_backend while other threads compute: the backend is one
for the whole process (as Keras'), so a switch while another thread runs
pycg's code is refused with pycg's error naming set_backend and those
threads, and a call that starts during a switch waits for it: every call
runs on one backend, start to end. Before, an op that read the backend
twice met the new backend halfway (``'DType' object has no attribute
'kind'``, a torch kernel handed a NumPy value)."""
import sys
import threading
import time

import numpy as np
import pytest

import pycg
from pycg import ops
from conftest import BACKENDS

X = np.linspace(-1.0, 1.0, 6).astype("float32")
VALUE = float(np.sum(2.0 * np.sin(X.astype("float64")) + 1.0))
GRADIENT = 2.0 * np.cos(X.astype("float64"))


def refusal(name, threads, old):
    return (
        f"pycg.config.set_backend({name!r}): another thread is running "
        f"pycg's code ({threads}) on the {old!r} backend; the backend is one "
        f"for the whole process, as Keras' is, so it can only switch while "
        f"no other thread is inside a pycg call. Switch it before starting "
        f"the threads or after they finish, or give one thread's calls their "
        f"own backend with pycg.to_torch, to_jax or to_tensorflow")


@pytest.fixture(autouse=True)
def restore_backend():
    previous = pycg.config.backend()
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    yield
    sys.setswitchinterval(old)
    pycg.config.set_backend(previous)


def one_call():
    """sum(2 sin x + 1) and its gradient, through a tape."""
    x = ops.convert_to_tensor(X)
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = ops.sum(ops.sin(x) * 2.0 + 1.0)
    return float(y), np.asarray(tape.gradient(y, x).numpy(), "float64")


def test_every_call_is_right_or_the_switch_is_refused_never_a_raw_error():
    assert len(BACKENDS) >= 2
    for name in BACKENDS[::-1]:   # (each loaded, and its first call made)
        pycg.config.set_backend(name)
        one_call()
    stop, wrong, calls = threading.Event(), [], [0, 0]

    def compute():
        while not stop.is_set():
            try:
                value, gradient = one_call()
                if abs(value - VALUE) > 1e-4 or not np.allclose(
                        gradient, GRADIENT, atol=1e-5):
                    wrong.append((value, gradient))
                calls[0] += 1
            except Exception as e:   # (no error belongs to a compute call)
                wrong.append(repr(e))
            time.sleep(0.001)   # (outside pycg: a moment to switch in)

    threads = [threading.Thread(target=compute, name=f"compute-{i}")
               for i in range(2)]
    for t in threads:
        t.start()
    end, i = time.monotonic() + 3.0, 0
    try:
        while time.monotonic() < end:
            name = BACKENDS[i % len(BACKENDS)]
            try:
                pycg.config.set_backend(name)
                i += 1
            except RuntimeError as e:
                old = pycg.config.backend()
                assert str(e) in {refusal(name, threads, old) for threads in (
                    "'compute-0'", "'compute-1'", "'compute-0', 'compute-1'")}
                calls[1] += 1
            time.sleep(0.0002)
    finally:
        stop.set()
        for t in threads:
            t.join()
    assert wrong == []
    assert calls[0] > 50 and i > 10, (calls, i)   # (both happened, often)


def test_a_switch_while_another_thread_is_inside_a_call_is_refused():
    pycg.config.set_backend(BACKENDS[0])
    inside, leave, out = threading.Event(), threading.Event(), []

    @pycg.custom_gradient
    def waits(x):
        inside.set()
        leave.wait(30)
        return x * 2.0, lambda d: d * 2.0

    worker = threading.Thread(name="trainer", target=lambda: out.append(
        float(waits(ops.convert_to_tensor(1.5)))))
    worker.start()
    try:
        assert inside.wait(30)
        with pytest.raises(RuntimeError) as e:
            pycg.config.set_backend(BACKENDS[1])
        assert str(e.value) == refusal(BACKENDS[1], "'trainer'", BACKENDS[0])
        assert pycg.config.backend() == BACKENDS[0]   # (it stays)
    finally:
        leave.set()
        worker.join()
    assert out == [3.0]


def test_a_thread_between_calls_does_not_hold_the_switch():
    pycg.config.set_backend(BACKENDS[0])
    made, leave, out = threading.Event(), threading.Event(), []

    def work():
        x = ops.convert_to_tensor(X)   # (a tensor of the first backend)
        made.set()
        leave.wait(30)   # (in the user's code, not pycg's)
        out.append(float(ops.sum(x)))

    worker = threading.Thread(target=work)
    worker.start()
    try:
        assert made.wait(30)
        assert pycg.config.set_backend(BACKENDS[1]) == BACKENDS[1]
    finally:
        leave.set()
        worker.join()
    assert out == [pytest.approx(float(np.sum(X.astype("float64"))),
                                 abs=1e-5)]
