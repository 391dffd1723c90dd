"""Where pycg's time goes on the scalar chain of workload (a).

    .venv/bin/python bench/profile_chain.py [numpy|tensorflow|jax|torch] [--cprofile]

Splits the cost of one chain element into the backend's kernels, pycg's
dispatch and recording, the custom_gradient machinery, and the backward
loop, by timing each piece alone (timeit, best of 5, thread CPU time so
that a busy machine does not blur it). --cprofile adds the
top functions of a profile of the whole step (cProfile inflates cheap
calls, so read it for shares, not for absolute times).
"""
import cProfile
import os
import pstats
import sys
import time
import timeit

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402

import pycg  # noqa: E402
from pycg import ops  # noqa: E402
from pycg.ops._dispatch import RULES  # noqa: E402

N = 100


def log1pexp_body(x):
    """bench.chain.pycg_log1pexp without the decorator."""
    e = ops.exp(x)

    def grad(upstream):
        return upstream * (1 - 1 / (1 + e))
    return ops.log(1 + e), grad


log1pexp = pycg.custom_gradient(log1pexp_body)


def us(stmt, scope, number):
    """Best of 5, in CPU time of this thread: other processes on a shared
    machine do not count (the pieces are single-threaded Python)."""
    best = min(timeit.repeat(stmt, globals=scope, number=number, repeat=5,
                             timer=time.thread_time))
    return best / number * 1e6


def chain_step(x, custom):
    fns = [log1pexp if c else ops.tanh for c in custom]

    def forward():
        tape = pycg.GradientTape()
        with tape:
            tape.watch(x)
            y = x
            for f in fns:
                y = f(y)
        return tape, y

    def step():
        tape, y = forward()
        return tape.gradient(y, x)
    return forward, step


def breakdown(backend):
    pycg.config.set_backend(backend)
    K = pycg.backends.active
    x = pycg.constant(np.asarray(0.5, np.float32))
    y = ops.tanh(x)   # a value as the chain sees it (0-d result of an op)
    v, one = y._value, K.scalar_like(1, y._value) \
        if hasattr(K, "scalar_like") else 1
    scope = dict(globals(), K=K, x=x, y=y, v=v, one=one)
    fast = 20000 if backend == "numpy" else 4000
    rows = {}

    # ---- the kernels alone: the floor ----
    rows["kernel: tanh"] = us("K.tanh(v)", scope, fast)
    rows["kernel: tanh's gradient (tanh_grad)"] = us("K.tanh_grad(v, v)",
                                                     scope, fast)
    rows["kernels: log1pexp forward (3: exp, add, log)"] = us(
        "K.log(K.add(one, K.exp(v)))", scope, fast)
    rows["kernels: log1pexp grad (4: add, divide, subtract, multiply)"] = us(
        "K.multiply(v, K.subtract(one, K.divide(one, K.add(one, v))))",
        scope, fast)

    # ---- pycg ops with no tape: dispatch ----
    rows["ops.tanh(y), no tape"] = us("ops.tanh(y)", scope, fast)
    rows["1 - y (Python number promoted), no tape"] = us("1 - y", scope, fast)
    rows["y * y, no tape"] = us("y * y", scope, fast)
    scope["tanh_vjp"] = RULES["tanh"].fns[0]
    rows["tanh's VJP rule as registered, no tape"] = us(
        "tanh_vjp(y, y, x)", scope, fast)
    rows["undecorated log1pexp body, no tape"] = us(
        "log1pexp_body(y)", scope, fast)
    rows["custom log1pexp, no tape"] = us("log1pexp(y)", scope, fast)
    _, g = log1pexp_body(y)
    scope["g"] = g
    rows["its grad_fn alone (4 ops), no tape"] = us("g(y)", scope, fast)

    # ---- whole chains, per element ----
    for kind, custom in (("mixed", [i % 2 == 1 for i in range(N)]),
                         ("tanh", [False] * N), ("custom", [True] * N)):
        forward, step = chain_step(x, custom)
        scope.update(forward=forward, step=step)
        n = 300 if backend == "numpy" else 40
        f = us("forward()", scope, n) / N
        fb = us("step()", scope, n) / N
        rows[f"{kind} chain: forward, per element"] = f
        rows[f"{kind} chain: backward, per element"] = fb - f
        rows[f"{kind} chain: forward + backward, per element"] = fb
    return rows


def derived(r):
    """The overheads, by difference."""
    return {
        "dispatch of a unary op (ops.tanh - kernel)":
            r["ops.tanh(y), no tape"] - r["kernel: tanh"],
        "recording a built-in op (tanh chain forward - ops.tanh)":
            r["tanh chain: forward, per element"]
            - r["ops.tanh(y), no tape"],
        "custom_gradient forward machinery, no tape (decorated - body)":
            r["custom log1pexp, no tape"]
            - r["undecorated log1pexp body, no tape"],
        "custom_gradient forward machinery, recorded (custom chain "
        "forward - body)":
            r["custom chain: forward, per element"]
            - r["undecorated log1pexp body, no tape"],
        "backward loop per built-in op (tanh backward - its VJP rule)":
            r["tanh chain: backward, per element"]
            - r["tanh's VJP rule as registered, no tape"],
        "custom_gradient backward machinery (custom backward - grad_fn)":
            r["custom chain: backward, per element"]
            - r["its grad_fn alone (4 ops), no tape"],
    }


def per_element(r):
    """The mixed chain's microseconds per element by piece (half its
    elements tanh, half custom log1pexp): the pieces add up to the mean of
    the tanh-only and custom-only chains, printed beside the mixed chain
    measured; None where a row is missing (an older checkout's pycg)."""
    g = r.get
    k = ["kernel: tanh", "kernel: tanh's gradient (tanh_grad)",
         "kernels: log1pexp forward (3: exp, add, log)",
         "kernels: log1pexp grad (4: add, divide, subtract, multiply)"]
    need = k + ["ops.tanh(y), no tape", "undecorated log1pexp body, no tape",
                "its grad_fn alone (4 ops), no tape"] + [
        f"{c} chain: {p}, per element" for c in ("tanh", "custom", "mixed")
        for p in ("forward", "backward", "forward + backward")]
    if any(g(n) is None for n in need):
        return None
    ktanh, kgrad, kfwd, kbwd = (g(n) for n in k)
    body, grad_fn = g(need[5]), g(need[6])
    tanh_f, tanh_b = g(need[7]), g(need[8])
    custom_f, custom_b = g(need[10]), g(need[11])
    return {
        "kernels (the backend's own, as in the floor)":
            (ktanh + kgrad + kfwd + kbwd) / 2,
        "dispatch: pycg's ops around their kernels (ops.tanh; log1pexp's "
        "3 forward and 4 gradient ops)":
            (g(need[4]) - ktanh + body - kfwd + grad_fn - kbwd) / 2,
        "record: a built-in op on the tape (tanh)":
            (tanh_f - g(need[4])) / 2,
        "custom_gradient: its forward and backward machinery":
            (custom_f - body + custom_b - grad_fn) / 2,
        "backward loop: a built-in op's step, less its kernel":
            (tanh_b - kgrad) / 2,
        "sum of the pieces (mean of the tanh-only and custom-only chains)":
            (g(need[9]) + g(need[12])) / 2,
        "mixed chain, measured": g(need[15]),
    }


def profile(backend, top=25):
    pycg.config.set_backend(backend)
    x = pycg.constant(np.asarray(0.5, np.float32))
    _, step = chain_step(x, [i % 2 == 1 for i in range(N)])
    for _ in range(10):
        step()
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(100 if backend == "numpy" else 20):
        step()
    prof.disable()
    pstats.Stats(prof).sort_stats("tottime").print_stats(top)


def main():
    backend = next((a for a in sys.argv[1:] if not a.startswith("-")),
                   "numpy")
    rows = breakdown(backend)
    print(f"pycg {pycg.__version__}, {backend} backend, float32 scalar, "
          f"microseconds of CPU time (best of 5)")
    width = max(map(len, rows)) + 2
    for name, value in rows.items():
        print(f"  {name:<{width}}{value:8.2f}")
    print("derived:")
    for name, value in derived(rows).items():
        print(f"  {name:<{width}}{value:8.2f}")
    print("per element of the mixed chain:")
    for name, value in per_element(rows).items():
        print(f"  {name:<{width}}{value:8.2f}")
    if "--cprofile" in sys.argv:
        profile(backend)


if __name__ == "__main__":
    main()
