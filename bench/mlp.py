"""Workload (c): the gradient of a small MLP's loss.

784-256-10, relu hidden layer, softmax cross-entropy on one-hot labels,
batch 256, float32, random data from a fixed seed. Every framework computes

    logits = relu(x @ w1 + b1) @ w2 + b2
    loss   = -mean(sum(labels * log_softmax(logits), axis=-1))

with its own log_softmax and returns d loss / d (w1, b1, w2, b2).
"""
import numpy as np

from bench._peers import (autograd, jax, on_backend, pycg_function, tf,
                          torch)

import pycg
from pycg import ops

BATCH, SIZES = 256, (784, 256, 10)


def data(seed=0):
    """(x, labels, [w1, b1, w2, b2]) as float32 NumPy arrays."""
    rng = np.random.default_rng(seed)
    n_in, n_hidden, n_out = SIZES
    x = rng.normal(size=(BATCH, n_in)).astype(np.float32)
    labels = np.eye(n_out, dtype=np.float32)[rng.integers(0, n_out, BATCH)]
    params = [
        rng.normal(0, n_in ** -0.5, (n_in, n_hidden)).astype(np.float32),
        np.zeros(n_hidden, np.float32),
        rng.normal(0, n_hidden ** -0.5, (n_hidden, n_out)).astype(np.float32),
        np.zeros(n_out, np.float32),
    ]
    return x, labels, params


# ---- pycg -------------------------------------------------------------------
def _pycg_step(params):
    """The weights are variables the step closes over (a model's weights),
    as in the TensorFlow rows."""
    def step(x, labels):
        w1, b1, w2, b2 = params
        with pycg.GradientTape() as tape:
            logits = ops.matmul(ops.relu(ops.matmul(x, w1) + b1), w2) + b2
            loss = -ops.mean(ops.sum(labels * ops.log_softmax(logits),
                                     axis=-1))
        return tape.gradient(loss, params)
    return step


def pycg_eager(backend):
    def make(x, labels, params):
        pycg.config.set_backend(backend)
        x, labels = pycg.constant(x), pycg.constant(labels)
        step = _pycg_step([pycg.Variable(p) for p in params])
        return on_backend(backend, step, x, labels)
    return make


def pycg_compiled(jit_compile, backend="tensorflow"):
    def make(x, labels, params):
        pycg.config.set_backend(backend)
        x, labels = pycg.constant(x), pycg.constant(labels)
        step = pycg_function()(_pycg_step([pycg.Variable(p) for p in params]),
                               jit_compile=jit_compile)
        if backend == "jax":   # (as the jax_jit row: wait for the result)
            return on_backend(backend, lambda: jax.block_until_ready(
                [g._value for g in step(x, labels)]))
        return on_backend(backend, step, x, labels)
    return make


# ---- TensorFlow -------------------------------------------------------------
def _tf_step(params):
    def step(x, labels):
        w1, b1, w2, b2 = params
        with tf.GradientTape() as tape:
            logits = tf.matmul(tf.nn.relu(tf.matmul(x, w1) + b1), w2) + b2
            loss = -tf.reduce_mean(tf.reduce_sum(
                labels * tf.nn.log_softmax(logits), axis=-1))
        return tape.gradient(loss, params)
    return step


def tf_mode(mode):
    def make(x, labels, params):
        x, labels = tf.constant(x), tf.constant(labels)
        step = _tf_step([tf.Variable(p) for p in params])
        if mode != "eager":
            step = tf.function(step, jit_compile=mode == "xla")
        return lambda: step(x, labels)
    return make


# ---- JAX --------------------------------------------------------------------
def jax_grad(jit):
    def make(x, labels, params):
        jnp = jax.numpy

        def loss(params, x, labels):
            w1, b1, w2, b2 = params
            logits = jnp.matmul(jax.nn.relu(jnp.matmul(x, w1) + b1), w2) + b2
            return -jnp.mean(jnp.sum(labels * jax.nn.log_softmax(logits),
                                     axis=-1))
        step = jax.grad(loss)
        step = jax.jit(step) if jit else step
        args = ([jnp.asarray(p) for p in params], jnp.asarray(x),
                jnp.asarray(labels))
        return lambda: jax.block_until_ready(step(*args))
    return make


# ---- PyTorch ----------------------------------------------------------------
def torch_eager(x, labels, params):
    x, labels = torch.tensor(x), torch.tensor(labels)
    params = [torch.tensor(p, requires_grad=True) for p in params]

    def step():
        w1, b1, w2, b2 = params
        logits = torch.relu(x @ w1 + b1) @ w2 + b2
        loss = -torch.mean(torch.sum(labels * torch.log_softmax(logits, -1),
                                     -1))
        return list(torch.autograd.grad(loss, params))
    return step


# ---- HIPS autograd ----------------------------------------------------------
def autograd_grad(x, labels, params):
    anp = autograd.numpy
    from autograd.scipy.special import logsumexp

    def loss(params):
        w1, b1, w2, b2 = params
        logits = anp.matmul(anp.maximum(anp.matmul(x, w1) + b1, 0), w2) + b2
        log_softmax = logits - logsumexp(logits, axis=-1, keepdims=True)
        return -anp.mean(anp.sum(labels * log_softmax, axis=-1))
    step = autograd.grad(loss)
    return lambda: step(params)


def implementations():
    """(key, label, make or None, why not), as in bench.chain."""
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
        # ---- the peers ----
        ("tf_eager", "TF eager GradientTape", tf_mode("eager"), ""),
        ("tf_function", "tf.function + GradientTape", tf_mode("graph"), ""),
        ("tf_function_xla", "tf.function, jit_compile=True", tf_mode("xla"),
         ""),
        ("jax_jit", "JAX jit(grad)", jax_grad(True) if jax else None,
         "jax not installed"),
        ("jax_eager", "JAX grad, no jit", jax_grad(False) if jax else None,
         "jax not installed"),
        ("torch", "PyTorch eager", torch_eager if torch else None,
         "torch not installed"),
        ("autograd", "HIPS autograd", autograd_grad if autograd else None,
         "autograd not installed"),
    ]
