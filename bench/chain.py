"""Workloads (a) and (b): the gradient of a chain of elementwise ops.

Each chain element is tanh or log1pexp(x) = log(1 + exp(x)) with a custom
gradient, written in every framework with that framework's own
custom-gradient API and the same formula:

    forward   e = exp(x); out = log(1 + e)
    backward  upstream * (1 - 1 / (1 + e))

Every implementation takes the gradient of the chain's output with respect
to its input, seeded with ones (a vector-Jacobian product, which is what
GradientTape.gradient does for a non-scalar target), forward + backward in
each call.
"""
import numpy as np

from bench import _peers
from bench._peers import (autograd, jax, on_backend, pycg_function, tf,
                          torch)

import pycg
from pycg import ops


def pattern(n, kind):
    """Which chain elements are custom: 'mixed' (every other), 'tanh' (none),
    'custom' (all)."""
    if kind == "mixed":
        return [i % 2 == 1 for i in range(n)]
    return [kind == "custom"] * n


def _chain(fns):
    def run(x):
        for f in fns:
            x = f(x)
        return x
    return run


# ---- pycg -------------------------------------------------------------------
@pycg.custom_gradient
def pycg_log1pexp(x):
    e = ops.exp(x)

    def grad(upstream):
        return upstream * (1 - 1 / (1 + e))
    return ops.log(1 + e), grad


def _pycg_step(custom):
    run = _chain([pycg_log1pexp if c else ops.tanh for c in custom])

    def step(x):
        with pycg.GradientTape() as tape:
            tape.watch(x)
            y = run(x)
        return tape.gradient(y, x)
    return step


def pycg_eager(backend):
    def make(x0, custom):
        pycg.config.set_backend(backend)
        x = pycg.constant(x0)
        step = _pycg_step(custom)
        return on_backend(backend, step, x)
    return make


def pycg_compiled(jit_compile, backend="tensorflow"):
    def make(x0, custom):
        pycg.config.set_backend(backend)
        x = pycg.constant(x0)
        step = pycg_function()(_pycg_step(custom), jit_compile=jit_compile)
        if backend == "jax":   # (as the jax_jit row: wait for the result)
            return on_backend(backend, lambda: step(x)._value
                              .block_until_ready())
        return on_backend(backend, step, x)
    return make


# ---- TensorFlow -------------------------------------------------------------
@tf.custom_gradient
def tf_log1pexp(x):
    e = tf.exp(x)

    def grad(upstream):
        return upstream * (1 - 1 / (1 + e))
    return tf.math.log(1 + e), grad


def _tf_step(custom):
    run = _chain([tf_log1pexp if c else tf.math.tanh for c in custom])

    def step(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = run(x)
        return tape.gradient(y, x)
    return step


def tf_eager(x0, custom):
    x = tf.constant(x0)
    step = _tf_step(custom)
    return lambda: step(x)


def tf_function(jit_compile):
    def make(x0, custom):
        x = tf.constant(x0)
        step = tf.function(_tf_step(custom), jit_compile=jit_compile)
        return lambda: step(x)
    return make


# ---- JAX --------------------------------------------------------------------
def _jax_parts():
    jnp = jax.numpy

    @jax.custom_vjp
    def log1pexp(x):
        return jnp.log(1 + jnp.exp(x))

    def fwd(x):
        e = jnp.exp(x)
        return jnp.log(1 + e), e

    def bwd(e, upstream):
        return (upstream * (1 - 1 / (1 + e)),)

    log1pexp.defvjp(fwd, bwd)
    return jnp, log1pexp


def jax_grad(jit):
    def make(x0, custom):
        jnp, log1pexp = _jax_parts()
        run = _chain([log1pexp if c else jnp.tanh for c in custom])

        def step(x):
            y, pullback = jax.vjp(run, x)
            return pullback(jnp.ones_like(y))[0]
        step = jax.jit(step) if jit else step
        x = jnp.asarray(x0)
        return lambda: step(x).block_until_ready()
    return make


# ---- PyTorch ----------------------------------------------------------------
def torch_eager(x0, custom):
    class Log1pExp(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            e = torch.exp(x)
            ctx.save_for_backward(e)
            return torch.log(1 + e)

        @staticmethod
        def backward(ctx, upstream):
            (e,) = ctx.saved_tensors
            return upstream * (1 - 1 / (1 + e))

    run = _chain([Log1pExp.apply if c else torch.tanh for c in custom])
    x = torch.tensor(x0, requires_grad=True)

    def step():
        y = run(x)
        return torch.autograd.grad(y, x, torch.ones_like(y))[0]
    return step


# ---- HIPS autograd ----------------------------------------------------------
def autograd_grad(x0, custom):
    from autograd import elementwise_grad
    from autograd.extend import defvjp, primitive
    anp = autograd.numpy

    @primitive
    def log1pexp(x):
        return anp.log(1 + anp.exp(x))

    def vjp(ans, x):
        return lambda upstream: upstream * (1 - 1 / (1 + np.exp(x)))
    defvjp(log1pexp, vjp)
    step = elementwise_grad(_chain([log1pexp if c else anp.tanh
                                    for c in custom]))
    return lambda: step(x0)


# ---- the rows ---------------------------------------------------------------
def implementations():
    """(key, label, make or None, why not) for every row, pycg first; the
    reference row is 'tf_eager'."""
    return [
        ("pycg_numpy", "pycg eager, numpy backend", pycg_eager("numpy"), ""),
        ("pycg_tf", "pycg eager, tensorflow backend",
         pycg_eager("tensorflow"), ""),
        ("pycg_function", "pycg.function (compiled)", pycg_compiled(False),
         ""),
        ("pycg_function_xla", "pycg.function, jit_compile=True",
         pycg_compiled(True), ""),
        ("pycg_jax", "pycg eager, jax backend",
         pycg_eager("jax") if jax else None, "jax not installed"),
        ("pycg_function_jax", "pycg.function, jax backend (jax.jit)",
         pycg_compiled(False, "jax") if jax else None, "jax not installed"),
        ("pycg_torch", "pycg eager, torch backend",
         pycg_eager("torch") if torch else None, "torch not installed"),
        # ---- the peers ----
        ("tf_eager", "TF eager GradientTape", tf_eager, ""),
        ("tf_function", "tf.function + GradientTape", tf_function(False), ""),
        ("tf_function_xla", "tf.function, jit_compile=True",
         tf_function(True), ""),
        ("jax_jit", "JAX jit(vjp)", jax_grad(True) if jax else None,
         "jax not installed"),
        ("jax_eager", "JAX vjp, no jit", jax_grad(False) if jax else None,
         "jax not installed"),
        ("torch", "PyTorch eager", torch_eager if torch else None,
         "torch not installed"),
        ("autograd", "HIPS autograd", autograd_grad if autograd else None,
         "autograd not installed"),
    ]


def input_of(size, seed=0):
    """float32 input: a 0-d array for size 0 (a scalar), else a vector."""
    if size == 0:
        return np.asarray(0.5, np.float32)
    rng = np.random.default_rng(seed)
    return rng.uniform(-2.0, 2.0, size).astype(np.float32)


def check_close(key, got, reference, rtol=2e-4, atol=0.0):
    """Assert the gradients agree, so the race compares like with like."""
    assert got is not None, f"{key}: the gradient is None"
    got, ref = _peers.to_numpy(got), _peers.to_numpy(reference)
    assert got.shape == ref.shape, (key, got.shape, ref.shape)
    np.testing.assert_allclose(got, ref, rtol=rtol, atol=atol,
                               err_msg=f"{key}: gradient differs from TF's")
