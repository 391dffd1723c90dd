"""The hot path before and after a change, in one run: the 100-op scalar
chain's gradient (tanh and a log1pexp custom_gradient, every other) and one
custom_gradient call (log1pexp on 8 values, forward + gradient), on the
numpy and tensorflow backends, timed for today's pycg and for git revision
REV's (its pycg/ exported into a temporary folder), in alternating fresh
interpreters, so that both sides see the same machine load.

    .venv/bin/python bench/revisions.py REV [--rounds 5] [--backends numpy]

Prints each row's median CPU microseconds per call on both sides and the
ratio today / REV (below 1: today is faster).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# One side's timings, run in a fresh interpreter whose sys.path starts at
# the pycg it is given. Its own log1pexp and chain (those of bench/chain.py
# and bench/jvp.py import what an older pycg may lack, pycg.custom_jvp).
_CHILD = r"""
import json, os, sys, time
sys.path.insert(0, sys.argv[1])
os.environ["PYCG_BACKEND"] = sys.argv[2]
import numpy as np
import pycg
from pycg import ops

@pycg.custom_gradient
def log1pexp(x):
    e = ops.exp(x)
    def grad(upstream):
        return upstream * (1 - 1 / (1 + e))
    return ops.log(1 + e), grad

def chain(x):
    for i in range(100):
        x = log1pexp(x) if i % 2 else ops.tanh(x)
    return x

def step(f, x):
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x)

def cpu_us(fn, n):
    for _ in range(max(3, n // 10)):
        fn()
    t0 = time.thread_time()
    for _ in range(n):
        fn()
    return (time.thread_time() - t0) / n * 1e6

s = pycg.constant(0.3)
v = pycg.constant(np.linspace(-2, 2, 8).astype("float32"))
print(json.dumps({"chain": cpu_us(lambda: step(chain, s), 100),
                  "custom call": cpu_us(lambda: step(log1pexp, v), 1000)}))
"""


def _export(rev, into):
    archive = subprocess.run(["git", "-C", ROOT, "archive", rev, "pycg"],
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", into], input=archive, check=True)


def _side(path, backend):
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", PYTHONPATH=path)
    out = subprocess.run([sys.executable, "-c", _CHILD, path, backend],
                         env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rev")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--backends", default="numpy,tensorflow")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as before:
        _export(args.rev, before)
        print(f"today {time.strftime('%Y-%m-%d %H:%M')} against {args.rev}; "
              f"CPU us per call, median of {args.rounds} alternating rounds")
        print(f"{'backend':<11} {'row':<12} {'today':>9} {'before':>9} "
              f"{'ratio':>6}")
        for backend in args.backends.split(","):
            today, then = [], []
            for _ in range(args.rounds):
                today.append(_side(ROOT, backend))
                then.append(_side(before, backend))
            for row in today[0]:
                a = statistics.median(t[row] for t in today)
                b = statistics.median(t[row] for t in then)
                print(f"{backend:<11} {row:<12} {a:9.1f} {b:9.1f} "
                      f"{a / b:6.2f}")


if __name__ == "__main__":
    main()
