"""Deep graphs, memory, threads: figures that must hold."""
import gc
import os
import threading
import time
import weakref

import numpy as np
import pytest

import pycg
from pycg import ops
from support import backend_switch


@pycg.custom_gradient
def scale(x):
    return x * 1.0001, lambda g: g * 1.0001


def rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


# ---- deep graphs ---------------------------------------------------------------
def test_gradient_of_a_100000_op_chain_has_no_recursion_limit():
    with backend_switch.on("numpy"):
        x = pycg.constant(np.float64(0.1))
        with pycg.GradientTape() as tape:
            tape.watch(x)
            y = x
            for i in range(100_000):
                y = ops.sin(y) if i % 2 else scale(y)
        g = tape.gradient(y, x)
        # closed form: the product of the local slopes along the chain
        v, slope = 0.1, 1.0
        for i in range(100_000):
            if i % 2:
                slope *= np.cos(v)
                v = np.sin(v)
            else:
                slope *= 1.0001
                v *= 1.0001
        assert float(g) == pytest.approx(slope, rel=1e-9)


# ---- no leaks --------------------------------------------------------------------
def _iteration(k):
    x = pycg.constant(0.5 + k % 7)
    with pycg.GradientTape(persistent=k % 2 == 0) as tape:
        tape.watch(x)
        y = ops.tanh(scale(x) * x)
    g = tape.gradient(y, x)
    del tape
    return g


@pytest.mark.parametrize("iterations", [20_000])
def test_rss_stays_flat_over_many_tapes(backend, iterations):
    n = iterations
    for k in range(500):
        _iteration(k)
    gc.collect()
    before = rss_mb()
    for k in range(n):
        _iteration(k)
    gc.collect()
    growth = rss_mb() - before
    print(f"RSS growth over {n} iterations on {backend}: {growth:.1f} MB")
    assert growth < 20


def test_non_persistent_tape_drops_intermediates_after_gradient(backend):
    x = pycg.constant([1.0, 2.0])
    with pycg.GradientTape() as tape:
        tape.watch(x)
        a = ops.exp(x)
        b = scale(a)
        y = ops.sum(b * a)
    refs = [weakref.ref(a), weakref.ref(b)]
    del a, b
    gc.collect()
    assert all(r() is not None for r in refs)  # the tape still needs them
    tape.gradient(y, x)
    gc.collect()
    assert [r() for r in refs] == [None, None]


def test_tape_whose_gradient_raised_drops_intermediates_too(backend):
    @pycg.custom_gradient
    def fragile(x):
        def grad(g):
            raise ValueError("no")
        return x * 2, grad

    x = pycg.constant(1.0)
    with pycg.GradientTape() as tape:
        tape.watch(x)
        a = ops.exp(x)
        y = fragile(a)
    ref = weakref.ref(a)
    del a
    with pytest.raises(ValueError):
        tape.gradient(y, x)
    gc.collect()
    assert ref() is None


# ---- threads -----------------------------------------------------------------------
def test_eight_threads_compute_different_gradients_for_two_seconds(backend):
    errors, counts = [], [0] * 8
    be = pycg.config.backend()

    def worker(k):
        try:
            end = time.time() + 2
            while time.time() < end:
                x = pycg.constant(float(k + 1))
                with pycg.GradientTape() as tape:
                    tape.watch(x)
                    y = scale(x) * x * (k + 1)
                g = float(tape.gradient(y, x))
                expected = 2 * 1.0001 * (k + 1) ** 2
                assert abs(g - expected) < 1e-3 * expected, (k, g)
                counts[k] += 1
        except Exception as e:  # reported below, with the thread's number
            errors.append((k, e))

    assert pycg.config.backend() == be
    threads = [threading.Thread(target=worker, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert all(c > 0 for c in counts)


def test_a_tape_records_nothing_from_another_thread(backend):
    x = pycg.constant(2.0)
    done = threading.Event()
    other = {}

    def elsewhere():
        other["y"] = x * x  # another thread, while the tape records here
        done.set()

    with pycg.GradientTape() as tape:
        tape.watch(x)
        t = threading.Thread(target=elsewhere)
        t.start()
        done.wait(10)
        t.join()
        mine = x * 3
    assert tape.gradient([other["y"], mine], x).numpy() == 3.0
    assert len(tape._rec.entries) == 0  # released after gradient
