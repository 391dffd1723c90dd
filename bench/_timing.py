"""Timing and machine facts: warm up, then the median of several repeats."""
import gc
import math
import os
import platform
import random
import statistics
import subprocess
import time
from dataclasses import dataclass


@dataclass
class Timing:
    """Seconds per call: the median of the repeats (wall clock), their
    spread, the first call (which includes any tracing or compiling), and
    the median CPU time of the calling thread per call (other processes on
    a busy machine do not add to it; work a framework hands to its worker
    threads is not in it), and the median CPU time of the whole process
    per call (its worker threads' too: the steady number for kernels that
    run on a thread pool, such as convolutions)."""
    median: float
    low: float
    high: float
    first: float
    cpu: float
    process: float = 0.0


def warm_up(fn, budget):
    """Time the first call alone, then warm up for about a tenth of
    `budget`. Returns (first-call seconds, estimated seconds per call, the
    first call's result)."""
    gc.collect()
    t0 = time.perf_counter()
    result = fn()
    first = time.perf_counter() - t0
    n, t0 = 0, time.perf_counter()
    while n < 2 or (time.perf_counter() - t0 < 0.1 * budget and n < 2000):
        fn()
        n += 1
    return first, (time.perf_counter() - t0) / n, result


def measure(fns, budget=1.0, min_rounds=7, max_rounds=25, repeat_s=0.02):
    """Time several implementations of one workload, interleaved.

    fns: {key: (first, estimate, fn)} from warm_up. Each round times
    one repeat of every fn in turn (a repeat runs fn enough times to last
    about `repeat_s`), so load from other processes falls on all of them
    alike; each gets the median over the rounds. The rounds fit about
    `budget` seconds per fn. Returns {key: Timing}.

    Each round takes the fns in a new order (shuffled, seeded), and each
    repeat starts with one untimed call: a fn would otherwise pay, in
    every round, for what the fn before it left (its garbage freed, caches
    and thread pools to warm again). With a fixed order, pycg.function's
    MLP row, timed right after two eager rows, measured 1.18-1.23x
    tf.function by calling-thread CPU time; with the two rows swapped,
    0.91x.
    """
    number = {k: max(1, math.ceil(repeat_s / est))
              for k, (_, est, _) in fns.items()}
    per_round = sum((number[k] + 1) * est for k, (_, est, _) in fns.items())
    rounds = int(0.9 * budget * len(fns) / per_round) if fns else 0
    rounds = max(min_rounds, min(max_rounds, rounds))
    times = {k: [] for k in fns}
    cpu = {k: [] for k in fns}
    process = {k: [] for k in fns}
    order, shuffle = list(fns), random.Random(0).shuffle
    for _ in range(rounds):
        shuffle(order)
        for k in order:
            fn = fns[k][2]
            fn()   # (untimed: see above)
            p0, c0 = time.process_time(), time.thread_time()
            t0 = time.perf_counter()
            for _ in range(number[k]):
                fn()
            t1, c1 = time.perf_counter(), time.thread_time()
            p1 = time.process_time()
            times[k].append((t1 - t0) / number[k])
            cpu[k].append((c1 - c0) / number[k])
            process[k].append((p1 - p0) / number[k])
    return {k: Timing(statistics.median(ts), min(ts), max(ts), fns[k][0],
                      statistics.median(cpu[k]), statistics.median(process[k]))
            for k, ts in times.items()}


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def git_revision(root):
    try:
        rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"],
                             cwd=root, capture_output=True, text=True,
                             check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "pycg"],
                               cwd=root, capture_output=True, text=True,
                               check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return rev + (" (pycg/ has uncommitted changes)" if dirty else "")


def machine():
    """A dict of the facts printed in the header."""
    blas = {k: os.environ[k] for k in ("OPENBLAS_CORETYPE",
                                       "OPENBLAS_NUM_THREADS",
                                       "OMP_NUM_THREADS") if k in os.environ}
    return {
        "cores": os.cpu_count(),
        "cpu": cpu_model(),
        "python": platform.python_version(),
        "os": f"{platform.system()} {platform.release()}",
        "blas_env": ", ".join(f"{k}={v}" for k, v in blas.items()) or "none",
        "load": os.getloadavg()[0],
    }
