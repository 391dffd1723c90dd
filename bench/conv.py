"""Workloads (d) and (e): convolution and pooling, forward + backward.

(d) conv2d: a 3x3 'same' convolution of an (8, 32, 32, 16) float32 input
with 32 filters; each row returns d sum(conv(x, k) * w) / d (x, k).
(e) pooling: 2x2 max and average pooling (stride 2) of the same input;
each row returns d sum(pool(x) * w) / d x.

Every row computes the same gradients (checked against TF eager's before
timing). TensorFlow reads TF_ENABLE_ONEDNN_OPTS once, at import: run once
with it unset (oneDNN on where the CPU has AVX-512-class features) and once
with TF_ENABLE_ONEDNN_OPTS=0, and say which.

    PYTHONPATH=$PWD .venv/bin/python bench/run.py --workloads conv,pool
"""
import os

import numpy as np

from bench._peers import on_backend, pycg_function, tf

import pycg
from pycg import ops

SHAPE, FILTERS, KERNEL, POOL = (8, 32, 32, 16), 32, 3, 2


def conv_data(seed=0):
    """(x, kernel, w) as float32 NumPy arrays; w weighs the output."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(SHAPE).astype(np.float32)
    k = (rng.standard_normal((KERNEL, KERNEL, SHAPE[-1], FILTERS))
         / np.sqrt(KERNEL * KERNEL * SHAPE[-1])).astype(np.float32)
    w = rng.standard_normal(SHAPE[:-1] + (FILTERS,)).astype(np.float32)
    return x, k, w


def pool_data(seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(SHAPE).astype(np.float32)
    out = (SHAPE[0], SHAPE[1] // POOL, SHAPE[2] // POOL, SHAPE[3])
    return x, rng.standard_normal(out).astype(np.float32)


# ---- pycg -------------------------------------------------------------------
def _pycg_conv(x, k, w):
    with pycg.GradientTape() as tape:
        tape.watch([x, k])
        loss = ops.sum(ops.conv(x, k, padding="same") * w)
    return tape.gradient(loss, [x, k])


def _pycg_pool(kind):
    pool = ops.max_pool if kind == "max" else ops.average_pool

    def step(x, w):
        with pycg.GradientTape() as tape:
            tape.watch(x)
            loss = ops.sum(pool(x, POOL) * w)
        return tape.gradient(loss, x)
    return step


def pycg_eager(backend, step):
    def make(*arrays):
        pycg.config.set_backend(backend)
        return on_backend(backend, step, *[pycg.constant(a) for a in arrays])
    return make


def pycg_compiled(step):
    def make(*arrays):
        pycg.config.set_backend("tensorflow")
        return on_backend("tensorflow", pycg_function()(step),
                          *[pycg.constant(a) for a in arrays])
    return make


# ---- TensorFlow -------------------------------------------------------------
def _tf_conv(x, k, w):
    with tf.GradientTape() as tape:
        tape.watch([x, k])
        loss = tf.reduce_sum(tf.nn.conv2d(x, k, 1, "SAME") * w)
    return tape.gradient(loss, [x, k])


def _tf_pool(kind):
    pool = tf.nn.max_pool2d if kind == "max" else tf.nn.avg_pool2d

    def step(x, w):
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = tf.reduce_sum(pool(x, POOL, POOL, "VALID") * w)
        return tape.gradient(loss, x)
    return step


def tf_mode(step, graph):
    def make(*arrays):
        fn = tf.function(step) if graph else step
        args = [tf.constant(a) for a in arrays]
        return lambda: fn(*args)
    return make


def _rows(pycg_step, tf_step):
    return [
        ("pycg_numpy", "pycg eager, numpy backend",
         pycg_eager("numpy", pycg_step), ""),
        ("pycg_tf", "pycg eager, tensorflow backend",
         pycg_eager("tensorflow", pycg_step), ""),
        ("pycg_function", "pycg.function (compiled)",
         pycg_compiled(pycg_step), ""),
        ("tf_eager", "TF eager GradientTape", tf_mode(tf_step, False), ""),
        ("tf_function", "tf.function + GradientTape",
         tf_mode(tf_step, True), ""),
    ]


def conv_implementations():
    """(key, label, make, why not), as in bench.chain."""
    return _rows(_pycg_conv, _tf_conv)


def pool_implementations(kind):
    return _rows(_pycg_pool(kind), _tf_pool(kind))


def main():
    """Standalone: the rows of (d) and (e), interleaved over many rounds,
    with the wall-clock median and the median CPU time of the whole process
    (all its threads: steadier than wall time when other processes load
    the machine) per call."""
    import argparse
    import random
    import statistics
    import time
    p = argparse.ArgumentParser(description=main.__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=30)
    args = p.parse_args()
    races = [("conv2d 3x3 'same'", conv_implementations(), conv_data())] + [
        (f"2x2 {kind} pool", pool_implementations(kind), pool_data())
        for kind in ("max", "average")]
    print(f"TF_ENABLE_ONEDNN_OPTS={os.environ.get('TF_ENABLE_ONEDNN_OPTS', 'unset')}"
          f", OPENBLAS_NUM_THREADS="
          f"{os.environ.get('OPENBLAS_NUM_THREADS', 'unset')}, load "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for title, impls, arrays in races:
        fns = {key: make(*arrays) for key, _, make, _ in impls}
        wall = {k: [] for k in fns}
        cpu = {k: [] for k in fns}
        for fn in fns.values():
            for _ in range(3):
                fn()
        order = list(fns)
        for _ in range(args.rounds):
            random.shuffle(order)
            for k in order:
                fns[k]()
                c0, t0 = time.process_time(), time.perf_counter()
                for _ in range(3):
                    fns[k]()
                wall[k].append((time.perf_counter() - t0) / 3)
                cpu[k].append((time.process_time() - c0) / 3)
        ref_w = statistics.median(wall["tf_eager"])
        ref_c = statistics.median(cpu["tf_eager"])
        print(f"\n{title}: ms per call (x TF eager); quartiles of wall")
        for k in fns:
            w, c = statistics.median(wall[k]), statistics.median(cpu[k])
            q = statistics.quantiles(wall[k], n=4)
            print(f"  {k:14s} wall {w * 1e3:7.2f} ({w / ref_w:.2f}x) "
                  f"[{q[0] * 1e3:.1f}-{q[2] * 1e3:.1f}]  process CPU "
                  f"{c * 1e3:7.2f} ({c / ref_c:.2f}x)")


if __name__ == "__main__":   # PYTHONPATH=$PWD python bench/conv.py
    main()
