"""The per-call cost of the bridges: one custom_gradient rule (log1pexp on
a float32 vector of 8) through pycg.to_jax (jax.grad, eager), pycg.to_torch
(forward and backward) and pycg.to_tensorflow (under tf.GradientTape),
forward and gradient, timed interleaved in one process
(bench/_timing.measure).

    .venv/bin/python bench/bridge_calls.py [--against REV] [--budget 1.0]

With ``--against REV`` the same rows also run through the bridge modules
of git revision REV (pycg/interop/{jax,torch,tensorflow}.py as they were
there, loaded beside today's, the rest of pycg today's), and each row's
ratio today / REV is printed: the before/after of a change to the
bridges, measured in one run.
"""
import argparse
import importlib.util
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import numpy as np  # noqa: E402

import pycg  # noqa: E402
from bench._timing import measure, warm_up  # noqa: E402
from pycg import ops  # noqa: E402

FRAMEWORKS = ("jax", "torch", "tensorflow")


@pycg.custom_gradient
def log1pexp(x):
    e = ops.exp(x)

    def grad(upstream):
        return upstream * (1 - 1 / (1 + e))
    return ops.log(1 + e), grad


def rows(bridges):
    """{framework: a callable doing one forward and gradient} for the
    bridge functions {framework: to_X}."""
    import jax
    import tensorflow as tf
    import torch
    x = np.linspace(-2, 2, 8).astype(np.float32)
    jf = bridges["jax"](log1pexp)
    jgrad = jax.grad(lambda v: jf(v).sum())
    jx = jax.numpy.asarray(x)
    tf_f = bridges["tensorflow"](log1pexp)
    tx = tf.constant(x)
    torch_f = bridges["torch"](log1pexp)

    def run_jax():
        return jgrad(jx).block_until_ready()

    def run_torch():
        tx_ = torch.tensor(x, requires_grad=True)
        torch_f(tx_).sum().backward()
        return tx_.grad

    def run_tf():
        with tf.GradientTape() as tape:
            tape.watch(tx)
            y = tf.reduce_sum(tf_f(tx))
        return tape.gradient(y, tx)
    return {"jax": run_jax, "torch": run_torch, "tensorflow": run_tf}


def bridges_of(rev):
    """{framework: to_X} from the bridge modules of git revision `rev`."""
    out, tmp = {}, tempfile.mkdtemp()
    for name in FRAMEWORKS:
        text = subprocess.run(
            ["git", "-C", ROOT, "show", f"{rev}:pycg/interop/{name}.py"],
            check=True, capture_output=True, text=True).stdout
        path = os.path.join(tmp, f"{name}.py")
        with open(path, "w") as fh:
            fh.write(text)
        spec = importlib.util.spec_from_file_location(
            f"pycg.interop._bench_{name}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        out[name] = getattr(module, f"to_{name}")
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--against", default=None)
    parser.add_argument("--budget", type=float, default=1.0)
    a = parser.parse_args()
    today = {"jax": pycg.to_jax, "torch": pycg.to_torch,
             "tensorflow": pycg.to_tensorflow}
    fns = {(k, "today"): fn for k, fn in rows(today).items()}
    if a.against:
        fns.update({(k, a.against): fn
                    for k, fn in rows(bridges_of(a.against)).items()})
    timed = measure({k: warm_up(fn, a.budget)[:2] + (fn,)
                     for k, fn in fns.items()}, a.budget)
    for k in FRAMEWORKS:
        line = f"{k:>10}: today {timed[k, 'today'].cpu * 1e6:8.1f} us"
        if a.against:
            then = timed[k, a.against].cpu
            line += (f", {a.against} {then * 1e6:8.1f} us, today/then "
                     f"{timed[k, 'today'].cpu / then:.3f}")
        print(line)


if __name__ == "__main__":
    main()
