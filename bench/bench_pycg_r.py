"""What pycg.r costs: R inside Python through rpy2 and reticulate.

    .venv/bin/python bench/bench_pycg_r.py [--budget SECONDS]

Prints a Markdown table of microseconds per call (median of interleaved
repeats, see bench/_timing.py):
* a round trip Python -> R -> Python: an R identity function, and an R
  function applying one pycg op (`op_exp`, which calls back into Python),
  against the same op called from Python;
* the gradient of log1pexp at x = 100 under `pycg.grad`, its custom rule
  written in R (keras3's example through `op_custom_gradient`) against the
  same rule written in Python with `pycg.custom_gradient`.
Both backends; the last columns are R's extra cost and its ratio to Python's.
"""
import argparse
import functools
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import pycg  # noqa: E402
import pycg.r  # noqa: E402
from bench._timing import measure, warm_up  # noqa: E402
from pycg import ops  # noqa: E402
from tests.support.log1pexp_case import R_LOG1PEXP  # noqa: E402


@pycg.custom_gradient
def py_log1pexp(x):
    e = ops.exp(x)

    def grad(*args, upstream=None):
        return ops.multiply(upstream, 1.0 - 1.0 / ops.add(1, e))
    return ops.log(1 + e), grad


def workloads():
    """(name, R callable, Python callable) per row."""
    r_identity = pycg.r.function("function(x) x")
    r_exp = pycg.r.function("function(x) op_exp(x)")
    r_log1pexp = pycg.r.function(R_LOG1PEXP)
    grad_r, grad_py = pycg.grad(r_log1pexp), pycg.grad(py_log1pexp)
    return [
        ("round trip: identity", r_identity, lambda x: x),
        ("round trip: one op (exp)", r_exp, ops.exp),
        ("log1pexp gradient (custom rule)", grad_r, grad_py),
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=1.0,
                        help="seconds of timing per row and language")
    budget = parser.parse_args().budget
    lines = ["| workload | backend | R (us) | Python (us) | R - Python (us) "
             "| R / Python |", "|---|---|---:|---:|---:|---:|"]
    for backend in ("numpy", "tensorflow"):
        pycg.config.set_backend(backend)
        x = pycg.constant(100.0, "float64")
        for name, r_fn, py_fn in workloads():
            check_r, check_py = r_fn(x), py_fn(x)
            assert float(check_r) == float(check_py), (name, backend)
            fns = {}
            for lang, fn in (("r", r_fn), ("py", py_fn)):
                call = functools.partial(fn, x)
                first, estimate, _ = warm_up(call, budget)
                fns[lang] = (first, estimate, call)
            t = measure(fns, budget=budget)
            r_us, py_us = t["r"].median * 1e6, t["py"].median * 1e6
            lines.append(f"| {name} | {backend} | {r_us:,.0f} | "
                         f"{py_us:,.1f} | {r_us - py_us:,.0f} | "
                         f"{r_us / py_us:,.0f}x |")
            print(lines[-1], file=sys.stderr, flush=True)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
