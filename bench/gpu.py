"""pycg's jax backend beside plain JAX on whatever device JAX runs on (the
GPU machine of the `device` tool: `JAX_PLATFORMS=cuda`), with no
TensorFlow: that machine has none, and the TensorFlow wheel is larger
than what can be carried there.

    python bench/gpu.py [--quick]      # prints a Markdown report

Workloads: the 100-op chain (every other element log1pexp with a custom
gradient, as bench/chain.py) on a scalar and on a vector of 1M floats, and
the MLP step of bench/mlp.py. Rows: pycg eager (jax backend), pycg.function
(jax.jit on the jax backend), jax.jit(jax.grad(pycg.to_jax(f))), plain
JAX jitted and un-jitted (jax.custom_vjp for the rule). Each row's gradient
is checked against plain jitted JAX first; timings are interleaved medians
(bench/_timing.py), results waited for with block_until_ready.
"""
import argparse
import os
import sys
import traceback

os.environ.setdefault("JAX_PLATFORMS", "cpu")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

import pycg  # noqa: E402
from bench._timing import measure, warm_up  # noqa: E402
from pycg import ops  # noqa: E402

N_OPS = 100
CUSTOM = [i % 2 == 1 for i in range(N_OPS)]


def _chain(fns):
    def run(x):
        for f in fns:
            x = f(x)
        return x
    return run


@pycg.custom_gradient
def pycg_log1pexp(x):
    e = ops.exp(x)

    def grad(upstream):
        return upstream * (1 - 1 / (1 + e))
    return ops.log(1 + e), grad


@jax.custom_vjp
def jax_log1pexp(x):
    return jnp.log(1 + jnp.exp(x))


def _fwd(x):
    e = jnp.exp(x)
    return jnp.log(1 + e), e


jax_log1pexp.defvjp(_fwd, lambda e, g: (g * (1 - 1 / (1 + e)),))
pycg_chain = _chain([pycg_log1pexp if c else ops.tanh for c in CUSTOM])
jax_chain = _chain([jax_log1pexp if c else jnp.tanh for c in CUSTOM])


def _ready(value):
    if isinstance(value, (list, tuple)):
        return [_ready(v) for v in value]
    return np.asarray(value.numpy() if hasattr(value, "numpy") else
                      jax.block_until_ready(value))


def chain_rows(x0):
    pycg.config.set_backend("jax")
    x = pycg.constant(x0)

    def pycg_step(x):
        with pycg.GradientTape() as tape:
            tape.watch(x)
            y = pycg_chain(x)
        return tape.gradient(y, x)

    def jax_step(x):
        y, pullback = jax.vjp(jax_chain, x)
        return pullback(jnp.ones_like(y))[0]

    compiled = pycg.function(pycg_step)
    bridged = jax.jit(jax.grad(lambda v: jnp.sum(pycg.to_jax(pycg_chain)(v))))
    xj = jnp.asarray(x0)
    jitted = jax.jit(jax_step)
    return {
        "pycg_eager": ("pycg eager, jax backend", lambda: pycg_step(x)),
        "pycg_function": ("pycg.function (jax.jit)", lambda: compiled(x)),
        "to_jax_jit": ("jax.jit(jax.grad(pycg.to_jax(f)))",
                       lambda: bridged(xj)),
        "jax_jit": ("JAX, jax.jit(jax.vjp), jax.custom_vjp",
                    lambda: jitted(xj)),
        "jax_eager": ("JAX, un-jitted jax.vjp", lambda: jax_step(xj)),
    }


def mlp_data(seed=0, batch=256, sizes=(784, 256, 10)):
    rng = np.random.default_rng(seed)
    n_in, n_hidden, n_out = sizes
    x = rng.normal(size=(batch, n_in)).astype(np.float32)
    labels = np.eye(n_out, dtype=np.float32)[rng.integers(0, n_out, batch)]
    params = [rng.normal(0, n_in ** -0.5, (n_in, n_hidden)).astype(np.float32),
              np.zeros(n_hidden, np.float32),
              rng.normal(0, n_hidden ** -0.5, (n_hidden, n_out)).astype(
                  np.float32),
              np.zeros(n_out, np.float32)]
    return x, labels, params


def mlp_rows(x0, labels0, params0):
    pycg.config.set_backend("jax")
    x, labels = pycg.constant(x0), pycg.constant(labels0)
    params = [pycg.Variable(p) for p in params0]

    def pycg_step(x, labels):
        w1, b1, w2, b2 = params
        with pycg.GradientTape() as tape:
            logits = ops.matmul(ops.relu(ops.matmul(x, w1) + b1), w2) + b2
            loss = -ops.mean(ops.sum(labels * ops.log_softmax(logits),
                                     axis=-1))
        return tape.gradient(loss, params)

    def loss(params, x, labels):
        w1, b1, w2, b2 = params
        logits = jnp.matmul(jax.nn.relu(jnp.matmul(x, w1) + b1), w2) + b2
        return -jnp.mean(jnp.sum(labels * jax.nn.log_softmax(logits),
                                 axis=-1))
    args = ([jnp.asarray(p) for p in params0], jnp.asarray(x0),
            jnp.asarray(labels0))
    compiled, jitted, eager = (pycg.function(pycg_step),
                               jax.jit(jax.grad(loss)), jax.grad(loss))
    return {
        "pycg_eager": ("pycg eager, jax backend", lambda: pycg_step(x, labels)),
        "pycg_function": ("pycg.function (jax.jit)",
                          lambda: compiled(x, labels)),
        "jax_jit": ("JAX, jax.jit(jax.grad)", lambda: jitted(*args)),
        "jax_eager": ("JAX, un-jitted jax.grad", lambda: eager(*args)),
    }


def race(title, rows, budget, rtol):
    print(f"\n## {title}\n")
    fns, failed = {}, []
    for key, (label, fn) in rows.items():
        def timed(fn=fn):
            return _ready(fn())
        try:
            first, est, result = warm_up(timed, budget)
            fns[key] = (first, est, timed)
            rows[key] = (label, result)
        except Exception as e:   # noqa: BLE001 (reported in the table)
            failed.append((key, label, f"{type(e).__name__}: {e}"))
            traceback.print_exc(file=sys.stderr)
    reference = rows["jax_jit"][1]
    for key in list(fns):
        got = rows[key][1]
        pairs = zip(got, reference) if isinstance(got, list) else \
            [(got, reference)]
        if not all(np.allclose(g, r, rtol=rtol, atol=1e-6)
                   for g, r in pairs):
            failed.append((key, rows[key][0], "gradient disagrees with JAX"))
            del fns[key]
    times = measure(fns, budget=budget)
    base = times["jax_jit"].median if "jax_jit" in times else None
    print("| row | median us | x jax.jit | first call ms | thread CPU us |")
    print("|---|---|---|---|---|")
    for key, t in times.items():
        ratio = f"{t.median / base:.2f}" if base else "-"
        print(f"| {rows[key][0]} | {t.median * 1e6:,.1f} | {ratio} | "
              f"{t.first * 1e3:,.1f} | {t.cpu * 1e6:,.1f} |")
    for _key, label, why in failed:
        print(f"| {label} | FAILED: {why[:160]} | | | |")
    return not failed


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true")
    budget = 0.3 if p.parse_args(argv).quick else 1.0
    print(f"# pycg jax backend on {jax.devices()[0].device_kind} "
          f"({jax.default_backend()}), jax {jax.__version__}")
    ok = race("100-op chain, scalar float32", chain_rows(np.float32(0.5)),
              budget, 2e-4)
    big = np.random.default_rng(0).uniform(-2, 2, 1_000_000).astype(np.float32)
    ok &= race("100-op chain, 1M float32", chain_rows(big), budget, 2e-4)
    ok &= race("MLP step 784-256-10, batch 256", mlp_rows(*mlp_data()),
               budget, 1e-3)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
