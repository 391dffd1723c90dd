"""Deep graphs: the gradient of a 10,000- and a 100,000-op scalar chain
(every other op a custom gradient), numpy backend; time and peak memory
should grow linearly (issue 8: 10k vs 100k within 12x). Prints Markdown.

    .venv/bin/python bench/deep.py
"""
import gc
import os
import resource
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import pycg  # noqa: E402
from pycg import ops  # noqa: E402


@pycg.custom_gradient
def scale(x):
    return x * 1.0001, lambda g: g * 1.0001


def run(n):
    x = pycg.constant(0.1)
    t0 = time.perf_counter()
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = x
        for i in range(n):
            y = ops.sin(y) if i % 2 else scale(y)
    tape.gradient(y, x)
    return time.perf_counter() - t0


def main():
    pycg.config.set_backend("numpy")
    run(1000)
    print("| chain length | seconds (median of 3) | with Python's GC off "
          "| peak RSS so far (MiB) |")
    print("|---:|---:|---:|---:|")
    times = {}
    for n in (10_000, 100_000):
        on = statistics.median(run(n) for _ in range(3))
        gc.disable()
        try:
            off = statistics.median(run(n) for _ in range(3))
        finally:
            gc.enable()
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        times[n] = (on, off)
        print(f"| {n:,} | {on:.3f} | {off:.3f} | {rss:.0f} |")
    ratio_on = times[100_000][0] / times[10_000][0]
    ratio_off = times[100_000][1] / times[10_000][1]
    print(f"\n100k / 10k time ratio: {ratio_on:.1f}x ({ratio_off:.1f}x with "
          f"the GC off; linear is 10x, the target within 12x). GC on / off "
          f"at 100,000 ops: {times[100_000][0] / times[100_000][1]:.2f}x "
          f"(issue 15: within 1.5x; the difference is Python's cyclic GC "
          f"scanning the live tape, which pycg.core.gc_policy keeps down while a "
          f"tape records).")


if __name__ == "__main__":
    main()
