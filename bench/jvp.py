"""Forward mode's cost (issue 46): pycg.jvp, pycg.jacfwd and a
Hessian-vector product, against pycg's reverse mode and JAX's own eager
forward mode, timed interleaved in one process (bench/_timing.measure).

    .venv/bin/python bench/jvp.py [--backend numpy] [--budget 0.5]

Rows, each a ratio to its reference (targets from issue 46):

1. the 100-op scalar chain of workload (a) (bench/chain.py: tanh and a
   custom-gradient log1pexp alternating): pycg.jvp against pycg.grad
   (target at most 1.0x), and JAX's eager jax.jvp against its eager
   jax.grad (its jax.custom_jvp log1pexp) for comparison; the same chain
   with the built-in ops.softplus (every op with a tangent rule) and with
   a pycg.custom_jvp log1pexp;
2. pycg.jacfwd of an n-input function (a 10-op elementwise chain of the
   same ops on a vector of n, n = 1, 10, 100) against jax.jacfwd without
   jit (target at most 2x at n = 100 on numpy) and against n calls of
   pycg.jvp (target well under 1x: tangents batched);
3. a Hessian-vector product of sum(chain(x)) (n = 10) by forward over
   reverse (pycg.jvp of pycg.grad) against two reverse passes (pycg.grad
   of <pycg.grad, v>).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402

import pycg  # noqa: E402
from bench._timing import measure, warm_up  # noqa: E402
from pycg import ops  # noqa: E402

N_CHAIN = 100
N_SHORT = 10


@pycg.custom_gradient
def log1pexp(x):
    e = ops.exp(x)

    def grad(upstream):
        return upstream * (1 - 1 / (1 + e))
    return ops.log(1 + e), grad


@pycg.custom_jvp
def log1pexp_jvp(x):
    return ops.log(1 + ops.exp(x))


@log1pexp_jvp.defjvp
def _log1pexp_rule(primals, tangents):
    (x,), (t,) = primals, tangents
    return log1pexp_jvp(x), t * ops.sigmoid(x)


def chain(n, custom=log1pexp, tanh=ops.tanh):
    fns = [custom if i % 2 else tanh for i in range(n)]

    def run(x):
        for f in fns:
            x = f(x)
        return x
    return run


def _jax_parts():
    import jax
    jnp = jax.numpy

    @jax.custom_jvp
    def jlog1pexp(x):
        return jnp.log1p(jnp.exp(x))

    @jlog1pexp.defjvp
    def _rule(primals, tangents):
        (x,), (t,) = primals, tangents
        return jlog1pexp(x), t * jax.nn.sigmoid(x)
    return jax, jnp, jlog1pexp


def chain_rows(jax_parts):
    x = pycg.constant(np.float32(0.5))
    one = pycg.constant(np.float32(1.0))
    f, fj = chain(N_CHAIN), chain(N_CHAIN, log1pexp_jvp)
    fb = chain(N_CHAIN, ops.softplus)
    rows = {
        "chain: pycg.grad": lambda: pycg.grad(f)(x),
        "chain: pycg.jvp": lambda: pycg.jvp(f, (x,), (one,))[1],
        "chain built-in: pycg.grad": lambda: pycg.grad(fb)(x),
        "chain built-in: pycg.jvp": lambda: pycg.jvp(fb, (x,), (one,))[1],
        "chain custom_jvp: pycg.grad": lambda: pycg.grad(fj)(x),
        "chain custom_jvp: pycg.jvp": lambda: pycg.jvp(fj, (x,), (one,))[1],
    }
    if jax_parts:
        jax, jnp, jl = jax_parts
        g = chain(N_CHAIN, jl, jnp.tanh)
        xj, oj = jnp.float32(0.5), jnp.float32(1.0)
        rows["chain: jax.grad (eager)"] = lambda: jax.grad(g)(xj)
        rows["chain: jax.jvp (eager)"] = lambda: jax.jvp(g, (xj,), (oj,))[1]
    return rows, [
        ("chain: pycg.jvp", "chain: pycg.grad", "<= 1.0"),
        ("chain built-in: pycg.jvp", "chain built-in: pycg.grad", ""),
        ("chain custom_jvp: pycg.jvp", "chain custom_jvp: pycg.grad", ""),
        ("chain custom_jvp: pycg.grad", "chain: pycg.grad", ""),
        ("chain: jax.jvp (eager)", "chain: jax.grad (eager)", "")]


def jacfwd_rows(n, jax_parts):
    f = chain(N_SHORT)
    x = pycg.constant(np.linspace(-1, 1, n).astype(np.float32))
    eye = np.eye(n, dtype=np.float32)

    def n_jvps():
        return [pycg.jvp(f, (x,), (eye[i],))[1] for i in range(n)]
    rows = {f"jacfwd n={n}: pycg.jacfwd": lambda: pycg.jacfwd(f)(x),
            f"jacfwd n={n}: {n} pycg.jvp": n_jvps}
    pairs = [(f"jacfwd n={n}: pycg.jacfwd", f"jacfwd n={n}: {n} pycg.jvp",
              "well under 1")]
    if jax_parts:
        jax, jnp, jl = jax_parts
        g = chain(N_SHORT, jl, jnp.tanh)
        xj = jnp.asarray(x.numpy())
        rows[f"jacfwd n={n}: jax.jacfwd (eager)"] = lambda: jax.jacfwd(g)(xj)
        pairs.append((f"jacfwd n={n}: pycg.jacfwd",
                      f"jacfwd n={n}: jax.jacfwd (eager)",
                      "<= 2 (n=100, numpy)" if n == 100 else ""))
    return rows, pairs


def hvp_rows():
    f = chain(N_SHORT)
    x = pycg.constant(np.linspace(-1, 1, 10).astype(np.float32))
    v = pycg.constant(np.ones(10, np.float32))

    def loss(y):
        return ops.sum(f(y))
    return {
        "hvp: forward over reverse": lambda: pycg.jvp(
            pycg.grad(loss), (x,), (v,))[1],
        "hvp: reverse over reverse": lambda: pycg.grad(
            lambda y: ops.sum(pycg.grad(loss)(y) * v))(x),
    }, [("hvp: forward over reverse", "hvp: reverse over reverse", "")]


def _agree(rows, pairs):
    """The rows of each comparison compute the same numbers (pycg's n jvp
    calls stacked as jacfwd's columns)."""
    for a, b, _ in pairs:
        got, want = rows[a](), rows[b]()
        if isinstance(want, list):
            want = np.stack([np.asarray(w) for w in want], axis=-1)
        got = np.asarray(got.numpy() if hasattr(got, "numpy") else got)
        if not np.allclose(got, np.asarray(want), rtol=1e-4, atol=1e-5):
            raise SystemExit(f"{a} and {b} disagree: {got} vs {want}")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--backend", default="numpy")
    p.add_argument("--budget", type=float, default=0.5)
    args = p.parse_args(argv)
    pycg.config.set_backend(args.backend)
    try:
        jax_parts = _jax_parts()
    except ImportError:
        jax_parts = None
    rows, pairs = chain_rows(jax_parts)
    for n in (1, 10, 100):
        r, q = jacfwd_rows(n, jax_parts)
        rows.update(r)
        pairs += q
    r, q = hvp_rows()
    rows.update(r)
    pairs += q
    _agree(rows, pairs)
    timed = measure({k: _warm(fn, args.budget) for k, fn in rows.items()},
                    budget=args.budget)
    print(f"backend {args.backend}; ms per call (median, spread)")
    for k, t in timed.items():
        print(f"{k:40s} {t.median * 1e3:9.3f}  ({t.low * 1e3:.3f}-"
              f"{t.high * 1e3:.3f})")
    print("\nratios (median wall clock; CPU time of the calling thread)")
    for a, b, target in pairs:
        ta, tb = timed[a], timed[b]
        print(f"{a} / {b}: {ta.median / tb.median:6.2f}x  cpu "
              f"{ta.cpu / tb.cpu:6.2f}x" + (f"  (target {target})"
                                            if target else ""))


def _warm(fn, budget):
    first, est, _ = warm_up(fn, budget)
    return first, est, fn


if __name__ == "__main__":
    main()
