"""pycg.function on the jax backend against plain jax.jit, and where its
time goes: the 100-op scalar chain (forward + backward, a custom rule at
every other op; plain JAX with jax.custom_vjp), the MLP loss gradient of
bench/mlp.py (weights closed over), and one SGD step of that MLP whose
new weights are written back into its variables (plain JAX: a jitted step
returning the new weights).

Rows per workload, timed interleaved in one process (bench._timing):
- pycg: the pycg.function call, as a user makes it;
- pycg jitted core: the same jax.jit function pycg built, called directly
  with arrays (no argument flattening, no variable reads, no write-back,
  no Tensors made): pycg minus this is pycg's own per-call cost;
- plain JAX: jax.jit of the same computation written in JAX;
- (chain only) pycg eager on the jax backend and JAX's un-jitted jax.vjp.

    PYTHONPATH=$PWD python bench/jax_compiled.py [--budget SECONDS]
"""
import argparse
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402

import pycg  # noqa: E402
from bench import chain, mlp  # noqa: E402
from bench._timing import measure, warm_up  # noqa: E402

jnp = jax.numpy


def _core(step):
    """The jax.jit function pycg built for `step`'s tensor calls, and the
    variables' arrays it takes."""
    compiled = step._jax
    stores = compiled.stores
    return next(iter(compiled._jitted.values())), stores


def chain_rows():
    custom = chain.pattern(100, "mixed")
    x0 = chain.input_of(0)
    pycg.config.set_backend("jax")
    x = pycg.constant(x0)
    step = pycg.function(chain._pycg_step(custom))
    step(x)
    core, _ = _core(step)
    jx = jnp.asarray(x0)
    eager = chain._pycg_step(custom)
    return {
        "pycg.function": lambda: step(x)._value.block_until_ready(),
        "pycg jitted core": lambda: core([jx], [])[0].block_until_ready(),
        "plain JAX jit(vjp)": chain.jax_grad(True)(x0, custom),
        "pycg eager (jax backend)": lambda: eager(x)._value
        .block_until_ready(),
        "JAX vjp, no jit": chain.jax_grad(False)(x0, custom),
    }


def mlp_rows():
    x0, labels0, params0 = mlp.data()
    pycg.config.set_backend("jax")
    x, labels = pycg.constant(x0), pycg.constant(labels0)
    step = pycg.function(mlp._pycg_step([pycg.Variable(p)
                                         for p in params0]))
    step(x, labels)
    core, stores = _core(step)
    arrays = [jnp.asarray(x0), jnp.asarray(labels0)]
    values = [s.value for s in stores]
    return {
        "pycg.function": lambda: jax.block_until_ready(
            [g._value for g in step(x, labels)]),
        "pycg jitted core": lambda: jax.block_until_ready(
            core(arrays, values)[0]),
        "plain JAX jit(grad)": mlp.jax_grad(True)(x0, labels0, params0),
    }


def _loss_jax(params, x, labels):
    w1, b1, w2, b2 = params
    logits = jnp.matmul(jax.nn.relu(jnp.matmul(x, w1) + b1), w2) + b2
    return -jnp.mean(jnp.sum(labels * jax.nn.log_softmax(logits), axis=-1))


def sgd_rows(lr=0.01):
    x0, labels0, params0 = mlp.data()
    pycg.config.set_backend("jax")
    x, labels = pycg.constant(x0), pycg.constant(labels0)
    variables = [pycg.Variable(p) for p in params0]
    grads_of = mlp._pycg_step(variables)

    @pycg.function
    def step(x, labels):
        for v, g in zip(variables, grads_of(x, labels)):
            v.assign_sub(lr * g)
        return variables[0].read()
    step(x, labels)
    core, stores = _core(step)
    arrays = [jnp.asarray(x0), jnp.asarray(labels0)]
    values = [s.value for s in stores]

    @jax.jit
    def plain(params, x, labels):
        grads = jax.grad(_loss_jax)(params, x, labels)
        return [p - lr * g for p, g in zip(params, grads)]
    state = {"params": [jnp.asarray(p) for p in params0]}
    jx, jl = jnp.asarray(x0), jnp.asarray(labels0)

    def plain_step():
        state["params"] = plain(state["params"], jx, jl)
        return jax.block_until_ready(state["params"])
    return {
        "pycg.function": lambda: step(x, labels)._value.block_until_ready(),
        "pycg jitted core": lambda: jax.block_until_ready(
            core(arrays, values)[1]),
        "plain JAX jit(step)": plain_step,
    }


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--budget", type=float, default=2.0)
    args = p.parse_args(argv)
    print(f"jax {jax.__version__}, load {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores")
    for name, make in (("100-op scalar chain, forward + backward",
                        chain_rows), ("MLP loss gradient (bench/mlp.py)",
                                      mlp_rows),
                       ("MLP SGD step, weights written back", sgd_rows)):
        fns = {}
        for k, fn in make().items():
            first, est, _ = warm_up(fn, args.budget)
            fns[k] = (first, est, fn)
        timings = measure(fns, args.budget)
        base = list(timings.values())[2]
        print(f"\n## {name}\n\n| row | us per call (wall) | CPU us (thread) "
              f"| CPU us (process) | vs plain JAX (wall / thread CPU) |\n"
              f"|---|---:|---:|---:|---:|")
        for k, t in timings.items():
            print(f"| {k} | {t.median * 1e6:,.1f} | {t.cpu * 1e6:,.1f} | "
                  f"{t.process * 1e6:,.1f} | {t.median / base.median:.2f}x / "
                  f"{t.cpu / base.cpu:.2f}x |")


if __name__ == "__main__":
    main()
