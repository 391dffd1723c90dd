"""The Python half of bench/r_bench.R's training steps: the data, the
Python steps that the R steps are written after, and a loop that times
them inside Python, so that R pays for no Python call per step.

The MLP step is bench/train.py's: 20 inputs, 64 tanh units, 3 logits, mean
sparse softmax cross-entropy, batch 512, float32, Adam(1e-3), weights as
variables the step closes over. The log1pexp step is a tape over keras3's
custom-gradient example (the rule bench/r_bench.R writes in R).
"""
import time

import numpy as np

import pycg
from pycg import ops

BATCH, SIZES, LR = 512, (20, 64, 3), 1e-3


def mlp_data(seed=0):
    """(x, y, [w1, b1, w2, b2]) as NumPy arrays (y: 0-based labels)."""
    rng = np.random.default_rng(seed)
    n_in, n_hidden, n_out = SIZES
    x = rng.normal(size=(BATCH, n_in)).astype(np.float32)
    y = rng.integers(0, n_out, BATCH).astype(np.int32)
    params = [
        rng.normal(0, n_in ** -0.5, (n_in, n_hidden)).astype(np.float32),
        np.zeros(n_hidden, np.float32),
        rng.normal(0, n_hidden ** -0.5, (n_hidden, n_out)).astype(np.float32),
        np.zeros(n_out, np.float32),
    ]
    return x, y, params


def mlp_setup(seed=0):
    """A dict of tensors for both languages: x, y (0-based), y1 (1-based,
    for R's op_sparse_categorical_crossentropy), and fresh variables and an
    Adam optimizer for each side (the same initial weights)."""
    x, y, params = mlp_data(seed)
    out = {"x": pycg.constant(x), "y": pycg.constant(y),
           "y1": pycg.constant(y + 1)}
    for side in ("py", "r"):
        variables = [pycg.Variable(p) for p in params]
        opt = pycg.optimizers.Adam(learning_rate=LR)
        opt.build(variables)
        out[side + "_vars"], out[side + "_opt"] = variables, opt
    return out


def mlp_step(x, y, variables, opt):
    """One Adam step of the MLP; returns the loss."""
    def step():
        w1, b1, w2, b2 = variables
        with pycg.GradientTape() as tape:
            logits = ops.matmul(ops.tanh(ops.matmul(x, w1) + b1), w2) + b2
            loss = ops.mean(ops.sparse_categorical_crossentropy(
                y, logits, from_logits=True))
        opt.apply(tape.gradient(loss, variables), variables)
        return loss
    return step


def compiled(step):
    """pycg.function(step)."""
    return pycg.function(step)


@pycg.custom_gradient
def log1pexp(x):
    e = ops.exp(x)

    def grad(upstream):
        return upstream * (1 - 1 / (1 + e))
    return ops.log(1 + e), grad


def log1pexp_step(x):
    """The gradient of log1pexp at x through a tape."""
    def step():
        with pycg.GradientTape() as tape:
            tape.watch(x)
            y = log1pexp(x)
        return tape.gradient(y, x)
    return step


def noop(*args):
    """Nothing (the floor of a call from R into Python)."""


def calling(fn, *args):
    """A step calling fn(*args) (R's callbacks timed from Python)."""
    return lambda: fn(*args)


def run(step, n):
    """Calls step() n times; returns [wall s, process CPU s, minor page
    faults] per call (faults NaN where `resource` is missing)."""
    faults = _page_faults()
    w0, c0 = time.perf_counter(), time.process_time()
    for _ in range(n):
        step()
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    return [wall / n, cpu / n, (_page_faults() - faults) / n]


def _page_faults():
    try:
        import resource
    except ImportError:   # (not on Windows)
        return float("nan")
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt
