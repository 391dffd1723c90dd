"""Memory of compiled functions on the jax backend: what each new input
shape of one pycg.function costs, against jax.jit of the same computation,
measured in one process.

    .venv/bin/python bench/jax_trace_memory.py [--shapes 300] [--block 25]

Both functions see the shapes (n,) for n = 2 .. shapes + 1, in alternating
blocks of `block` shapes (pycg's block, then jax.jit's, then jax.jit's
first, ...), and each block's growth of the resident set (RSS) is added to
its function's total.
The inputs are JAX arrays made before any is measured: JAX's own
conversion of a NumPy array of a new shape (jnp.asarray) costs about as
much as a trace (1.4 MB), once per shape in the process, so whichever
function met a shape first would pay it, and look twice as dear (so the
first measurement of this read: pycg 3 MB a trace against jax.jit's 1.5).
Rows: a forward function (sum(sin(x) ** 2)) and a gradient (pycg.grad of
it; jax.grad for jax.jit). Prints the MB and KB per trace of each, and
pycg's ratio to jax.jit's.
"""
import argparse
import gc
import os
import sys

os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ["PYCG_BACKEND"] = "jax"
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import warnings  # noqa: E402

import jax  # noqa: E402
import numpy as np  # noqa: E402

import pycg  # noqa: E402
from pycg import ops  # noqa: E402

jnp = jax.numpy


def rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _pycg_forward(x):
    return ops.sum(ops.sin(x) ** 2)


def _jax_forward(x):
    return jnp.sum(jnp.sin(x) ** 2)


def rows():
    """{row: (pycg call, jax.jit call)}, each taking a JAX array and
    waiting for its result."""
    pf, pg = pycg.function(_pycg_forward), \
        pycg.function(pycg.grad(_pycg_forward))
    jf, jg = jax.jit(_jax_forward), jax.jit(jax.grad(_jax_forward))

    def pycg_call(f):
        return lambda a: f(pycg.constant(a))._value.block_until_ready()

    def jax_call(f):
        return lambda a: f(a).block_until_ready()
    return {"forward sum(sin(x)**2)": (pycg_call(pf), jax_call(jf)),
            "gradient of it": (pycg_call(pg), jax_call(jg))}


def measure(calls, inputs, block):
    """MB of RSS growth per function over the shapes of `inputs`."""
    grown = [0.0] * len(calls)
    for k, start in enumerate(range(0, len(inputs), block)):
        order = list(enumerate(calls))   # (each goes first in turn: the
        for i, call in order[k % 2:] + order[:k % 2]:   # first pays more)
            gc.collect()
            before = rss_mb()
            for a in inputs[start:start + block]:
                call(a)
            gc.collect()
            grown[i] += rss_mb() - before
    return grown


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--shapes", type=int, default=300)
    p.add_argument("--block", type=int, default=25)
    args = p.parse_args(argv)
    warnings.simplefilter("ignore")   # (pycg's retracing warning: expected)
    print(f"{args.shapes} new shapes each, in blocks of {args.block}, one "
          f"process; RSS growth")
    inputs = [jnp.asarray(np.ones(n, np.float32))
              for n in range(1, args.shapes + 2)]
    for name, (pycg_call, jax_call) in rows().items():
        for call in (pycg_call, jax_call):   # (each traced once before)
            call(inputs[0])
        p_mb, j_mb = measure([pycg_call, jax_call], inputs[1:], args.block)
        per = 1024 / args.shapes
        print(f"{name:24s} pycg.function {p_mb:7.1f} MB ({p_mb * per:5.0f} "
              f"KB a trace)  jax.jit {j_mb:7.1f} MB ({j_mb * per:5.0f} KB a "
              f"trace)  ratio {p_mb / j_mb if j_mb else float('nan'):.2f}")


if __name__ == "__main__":
    main()
