"""Run by tests/test_jax_sharding.py in a fresh interpreter on two CPU
devices (XLA_FLAGS=--xla_force_host_platform_device_count=2, which must be
set before JAX starts): the blocks of docs/backend-jax.md, then a compiled
pycg step and a jax.jit of a pycg.to_jax rule on a batch split over the
devices, each against the same on one device (values, gradients, variable
updates, draws) and against the same step written in JAX (the sharding of
every output). Prints one JSON line: {check: [passed, detail]}."""
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))   # (tests/: test_quickstart)

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P  # noqa: E402

import pycg  # noqa: E402
from pycg import ops  # noqa: E402
from test_quickstart import run_blocks  # noqa: E402

pycg.config.set_backend("jax")
checks = {"two devices": [len(jax.devices()) == 2, str(jax.devices())]}
DOC = os.path.join(os.path.dirname(os.path.dirname(HERE)), "docs",
                   "backend-jax.md")
with open(DOC, encoding="utf-8") as f:
    checks["the doc's blocks run"] = [run_blocks(f.read(), DOC) == 2, ""]

mesh = Mesh(np.array(jax.devices()), ("data",))
rows = NamedSharding(mesh, P("data"))
rng = np.random.default_rng(1)
X = rng.standard_normal((8, 3)).astype("float32")
Y = rng.standard_normal((8, 1)).astype("float32")
W0 = rng.standard_normal((3, 1)).astype("float32")


@pycg.custom_gradient
def log1pexp(x):   # the README's rule
    e = ops.exp(x)
    return ops.log(1 + e), lambda up: up * (1 - 1 / (1 + e))


def pycg_step():
    w = pycg.Variable(W0, name="w")
    opt = pycg.optimizers.SGD(0.1)

    @pycg.function
    def step(x, y):
        with pycg.GradientTape() as tape:
            pred = log1pexp(ops.matmul(x, w))
            loss = ops.mean((pred - y) ** 2)
        g = tape.gradient(loss, w)
        opt.apply([g], [w])
        return loss, g, pred
    return w, step


@jax.jit
def jax_step(w, x, y):
    def loss_of(w):
        pred = jnp.log1p(jnp.exp(x @ w))
        return jnp.mean((pred - y) ** 2), pred
    (loss, pred), g = jax.value_and_grad(loss_of, has_aux=True)(w)
    return loss, g, pred, w - 0.1 * g


def same(a, b, tol=1e-6):
    return bool(np.allclose(np.asarray(a), np.asarray(b), rtol=tol,
                            atol=tol))


xs, ys = jax.device_put(X, rows), jax.device_put(Y, rows)
w_one, step_one = pycg_step()
w_split, step_split = pycg_step()
for _ in range(3):
    one = step_one(pycg.constant(X), pycg.constant(Y))
    split = step_split(pycg.constant(xs), pycg.constant(ys))
checks["compiled step: values and gradients as one device"] = [all(
    same(a.numpy(), b.numpy()) for a, b in zip(one, split)), ""]
checks["compiled step: variable updates as one device"] = [
    same(w_one.numpy(), w_split.numpy()), ""]
want = jax_step(jnp.asarray(w_split.numpy()), xs, ys)
got = [t._value.sharding for t in split] + [w_split._value.sharding]
checks["compiled step: the shardings of the step written in JAX"] = [
    got == [a.sharding for a in want], f"{got} vs "
    f"{[a.sharding for a in want]}"]
checks["compiled step: the prediction stays split by rows"] = [
    split[2]._value.sharding == rows, str(split[2]._value.sharding)]

rule = pycg.to_jax(lambda v: ops.sum(log1pexp(v) * 2))
value, grad = jax.jit(jax.value_and_grad(rule))(xs)
jvalue, jgrad = jax.jit(jax.value_and_grad(
    lambda v: jnp.sum(jnp.log1p(jnp.exp(v)) * 2)))(xs)
checks["jax.jit of a to_jax rule: JAX's values and shardings"] = [
    same(value, jvalue) and same(grad, jgrad) and
    (value.sharding, grad.sharding) == (jvalue.sharding, jgrad.sharding),
    f"{value.sharding}, {grad.sharding}"]


def draws(x):
    gen = pycg.random.SeedGenerator(3)
    compiled = pycg.function(lambda v: pycg.random.dropout(v, 0.5, seed=gen))
    via_jax = jax.jit(pycg.to_jax(
        lambda v: pycg.random.dropout(v, 0.5, seed=gen)))
    return [np.asarray(compiled(pycg.constant(x)).numpy()),
            np.asarray(via_jax(x)), np.asarray(compiled(pycg.constant(x))
                                               .numpy())]


ones = np.ones((8, 4), "float32")
checks["draws in sharded steps are one device's"] = [all(
    np.array_equal(a, b) for a, b in zip(
        draws(ones), draws(jax.device_put(ones, rows)))), ""]
print(json.dumps(checks))
