"""How a custom_gradient op's call costs with the way it is called.

    .venv/bin/python bench/custom_calls.py [--backend numpy] [--budget 1.5]

Four rows, timed interleaved in one process (bench/_timing.measure): a
100-element chain, each element one call of a custom-gradient op, forward
and backward under a GradientTape, on a scalar float32:

- positional: ``log1pexp(x)``, the one-parameter call;
- keyword: ``log1pexp(x=x)``, the same op called by name;
- two parameters: ``log1pexp2(x, one)``, the same maths with the ``1`` of
  ``log(1 + e)`` passed as a second tensor (a constant: grad_fn gives it no
  gradient), so the op count is the same;
- variable read: ``log1pexp_v(x)``, whose forward reads a trainable
  Variable holding that ``1`` (grad_fn returns its gradient by the
  ``variables`` convention, so the backward computes one more product);

and the scalar chain of workload (a) (bench/chain.py's pycg row: tanh and
log1pexp alternating) as the reference for the built-in path. Prints us per
element and each row's ratio to the positional row.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402

import pycg  # noqa: E402
from bench._timing import measure, warm_up  # noqa: E402
from pycg import ops  # noqa: E402

N = 100


@pycg.custom_gradient
def log1pexp(x):
    e = ops.exp(x)

    def grad(upstream):
        return upstream * (1 - 1 / (1 + e))
    return ops.log(1 + e), grad


@pycg.custom_gradient
def log1pexp2(x, one):
    e = ops.exp(x)

    def grad(upstream):
        return upstream * (1 - 1 / (1 + e)), None
    return ops.log(one + e), grad


def make_variable_op(one):
    @pycg.custom_gradient
    def log1pexp_v(x):
        e = ops.exp(x)
        s = one + e

        def grad(upstream, variables=None):
            return upstream * (1 - 1 / s), [upstream / s]
        return ops.log(s), grad
    return log1pexp_v


def step(call, x):
    def run():
        with pycg.GradientTape() as tape:
            tape.watch(x)
            y = x
            for _ in range(N):
                y = call(y)
        return tape.gradient(y, x)
    return run


def rows(backend):
    pycg.config.set_backend(backend)
    x = pycg.constant(np.float32(0.5))
    one = pycg.constant(np.float32(1.0))
    var_op = make_variable_op(pycg.Variable(np.float32(1.0)))
    mixed = [log1pexp if i % 2 else ops.tanh for i in range(N)]

    def chain():
        with pycg.GradientTape() as tape:
            tape.watch(x)
            y = x
            for f in mixed:
                y = f(y)
        return tape.gradient(y, x)
    return {
        "positional log1pexp(x)": step(log1pexp, x),
        "keyword log1pexp(x=x)": step(lambda y: log1pexp(x=y), x),
        "two parameters log1pexp2(x, one)": step(
            lambda y: log1pexp2(y, one), x),
        "variable read log1pexp_v(x)": step(var_op, x),
        "scalar chain (a): tanh, log1pexp": chain,
    }


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--backend", default="numpy")
    p.add_argument("--budget", type=float, default=1.5)
    args = p.parse_args(argv)
    fns = rows(args.backend)
    results = [float(fn()) for fn in fns.values()]
    if len({round(r, 5) for r in results[:4]}) != 1:
        raise SystemExit(f"the custom rows disagree: {results[:4]}")
    timed = measure({k: _warm(fn, args.budget) for k, fn in fns.items()},
                    budget=args.budget)
    base = timed["positional log1pexp(x)"].median
    cpu = timed["positional log1pexp(x)"].cpu
    print(f"backend {args.backend}, {N} calls per step; us per element "
          f"(median, spread), ratio to positional; CPU us, ratio")
    for k, t in timed.items():
        print(f"{k:36s} {t.median / N * 1e6:7.2f}  "
              f"({t.low / N * 1e6:.2f}-{t.high / N * 1e6:.2f})  "
              f"{t.median / base:5.2f}x  cpu {t.cpu / N * 1e6:6.2f} "
              f"{t.cpu / cpu:5.2f}x")


def _warm(fn, budget):
    first, est, _ = warm_up(fn, budget)
    return first, est, fn


if __name__ == "__main__":
    main()
