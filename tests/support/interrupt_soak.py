"""Ctrl-C at random points: SIGINT, sent by a timer thread at a random
moment of a gradient (eager forward and backward, a Python custom rule, a
pycg.function trace, and with --r R code run by pycg.r: an R forward and an
R rule), must either let the run finish with the reference gradient or
raise KeyboardInterrupt; either way no tape is left recording, Python's
garbage collector is as it was, and the next gradient is right.

    python tests/support/interrupt_soak.py ROUNDS SEED [--r]

prints one JSON line of figures: runs, finished, interrupted, wrong (a
finished run's gradient, or the next one, not the reference), dirty (state
left behind), stuck (a run that outlived its interrupt by more than 5 s),
other (an exception other than KeyboardInterrupt), with the first few
problems. The references are NumPy's, in float64, by the chain rule written
out (forward-mode derivatives of each step)."""
import gc
import json
import os
import random
import signal
import sys
import threading
import time
import traceback

import numpy as np

import pycg
from pycg import ops
from pycg.core import gc_policy, recorder, sigint, thread_state

X = np.linspace(-2.0, 2.0, 64)
STEPS = 60


@pycg.custom_gradient
def log1pexp(x):
    e = ops.exp(x)

    def grad(upstream):   # (a rule of several ops, so SIGINT lands in it)
        s = 1.0 - 1.0 / (1.0 + e)
        return upstream * ops.clip(s, 0.0, 1.0)
    return ops.log(1.0 + e), grad


def chain(x):
    y = x
    for _ in range(STEPS):
        y = ops.sin(y) + 0.5 * y
    return ops.sum(y)


def chain_reference(steps=STEPS):
    y, d = X.copy(), np.ones_like(X)
    for _ in range(steps):
        d = d * (np.cos(y) + 0.5)
        y = np.sin(y) + 0.5 * y
    return d


def rule_chain(x):
    y = x
    for _ in range(STEPS // 2):
        y = log1pexp(0.5 * y)
    return ops.sum(y)


def rule_chain_reference():
    y, d = X.copy(), np.ones_like(X)
    for _ in range(STEPS // 2):
        d = d * 0.5 / (1.0 + np.exp(-0.5 * y))
        y = np.log1p(np.exp(0.5 * y))
    return d


def tape_chain(x):
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = chain(x)
    return tape.gradient(y, x)


def short_chain(x):
    y = x
    for _ in range(STEPS // 4):
        y = ops.sin(y) + 0.5 * y
    return ops.sum(y)


def traced(x):   # a new function each time: the trace is in the run
    return pycg.function(pycg.grad(short_chain))(x)


R_CODE = {
    "forward": """function(x) { y <- x
      for (i in 1:%d) y <- op_add(op_sin(y), op_multiply(0.5, y))
      op_sum(y) }""" % STEPS,
    "rule": """op_custom_gradient(function(x) {
      e <- op_exp(x)
      tuple(op_log(1 + e), function(upstream) {
        s <- 0; for (i in 1:200) s <- s + i   # (R work in the rule)
        upstream * (1 - 1 / (1 + e)) })
    })""",
}


def workloads(with_r):
    """name -> (backends, fn(x) -> gradient, reference)."""
    both = ("numpy", "tensorflow")
    out = {
        "forward and backward": (both, pycg.grad(chain), chain_reference()),
        "GradientTape": (both, tape_chain, chain_reference()),
        "custom rule": (both, pycg.grad(rule_chain), rule_chain_reference()),
        "pycg.function trace": (("tensorflow",), traced,
                                chain_reference(STEPS // 4)),
    }
    if with_r:
        from pycg import r
        r_chain = r.function(R_CODE["forward"])
        r_rule = r.function(R_CODE["rule"])

        def r_rule_chain(x):
            y = x
            for _ in range(STEPS // 2):
                y = r_rule(0.5 * y)
            return ops.sum(y)
        out["R forward"] = (both, pycg.grad(r_chain), chain_reference())
        out["R rule"] = (both, pycg.grad(r_rule_chain),
                         rule_chain_reference())
    return out


def settle():
    """Wait while pycg.r still decides whose an interrupt is (it then asks
    for it again: it lands here, inside the run's try)."""
    while sigint.pending():   # (pycg's own: a Ctrl-C in a state change)
        time.sleep(0.001)
    if "pycg.r" in sys.modules:
        from pycg.r import _interrupts
        while _interrupts._following or sigint.pending():
            time.sleep(0.005)


def state_problems(gc_threshold):
    tls = recorder.state()   # (this thread's recording state)
    problems = []
    if tls.recorders or tls.watching or tls.branch is not None or \
            tls.active or thread_state.collecting.stack:
        problems.append("a tape or watcher left on the thread")
    if "tensorflow" in sys.modules and \
            not sys.modules["tensorflow"].executing_eagerly():
        problems.append("TensorFlow left building a graph")
    if gc_policy.recording() or gc.get_freeze_count() or \
            gc.get_threshold() != gc_threshold:
        problems.append("the garbage collector left changed")
    if "pycg.r" in sys.modules:
        from pycg.r import _interrupts, _session
        if _interrupts.IN_R[0] or _interrupts._flags[0].value:
            problems.append("R left interrupted or entered")
        if not _session.LOCK.acquire(blocking=False):
            problems.append("the R lock left held")
        else:
            _session.LOCK.release()
    return problems


def close(got, want):
    return np.allclose(np.asarray(got.numpy(), np.float64), want,
                       rtol=1e-9, atol=1e-12)


def soak(rounds, seed, with_r):
    rng = random.Random(seed)
    figures = dict(runs=0, finished=0, interrupted=0, wrong=0, dirty=0,
                   stuck=0, other=0)
    problems, spans = [], {}
    gc_threshold = gc.get_threshold()
    loads = workloads(with_r)
    cases = [(name, b) for name, (bs, _, _) in loads.items() for b in bs
             if name in os.environ.get("SOAK_ONLY", name)]
    for backend_name in ("numpy", "tensorflow"):   # warm up; time each case
        pycg.config.set_backend(backend_name)
        for name, b in cases:
            if b == backend_name:
                _, fn, want = loads[name]
                start = time.perf_counter()
                assert close(fn(pycg.constant(X)), want), name
                spans[name, b] = time.perf_counter() - start
    for _ in range(rounds):
        name, backend_name = rng.choice(cases)
        pycg.config.set_backend(backend_name)
        _, fn, want = loads[name]
        x = pycg.constant(X)
        delay = rng.uniform(0.0, 1.3 * spans[name, backend_name])
        timer = threading.Timer(delay, os.kill, (os.getpid(), signal.SIGINT))
        figures["runs"] += 1
        start = time.perf_counter()
        outcome, landed = None, ""
        try:
            try:
                timer.start()
                got = fn(x)
                outcome = "finished" if close(got, want) else "wrong"
            finally:
                timer.cancel()
                timer.join()
                settle()
        except KeyboardInterrupt:
            outcome = outcome or "interrupted"
            landed = traceback.format_exc()[-1200:]
        except Exception as e:   # noqa: BLE001 (counted, and reported)
            outcome = "other"
            problems.append(f"{name} on {backend_name}: {e!r:.200}\n"
                            f"{traceback.format_exc()[-1500:]}")
        if time.perf_counter() - start > delay + 5 + spans[name,
                                                            backend_name]:
            figures["stuck"] += 1
        figures[outcome] += 1
        left = state_problems(gc_threshold)
        if left:
            figures["dirty"] += 1
            problems.append(f"{name} on {backend_name}: {left}\n{landed}")
        if not close(fn(pycg.constant(X)), want):   # the next gradient
            figures["wrong"] += 1
            problems.append(f"{name} on {backend_name}: next gradient wrong")
    return figures, problems


if __name__ == "__main__":
    # (a shell's background job starts with SIGINT ignored, and Python then
    # installs no handler: this soak needs Python's, which pycg replaces by
    # its own when imported, pycg.core.sigint)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    sigint.arm()
    import tensorflow as tf
    tf.get_logger().setLevel("ERROR")   # (each run traces anew, on purpose)
    figures, problems = soak(int(sys.argv[1]), int(sys.argv[2]),
                             "--r" in sys.argv)
    print(json.dumps(dict(figures, problems=problems[:10])))
