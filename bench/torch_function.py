"""pycg.function on the torch backend: eager (its choice) against
torch.compile of the same pycg function and against raw torch
(docs/backend-torch.md). One process, one torch thread, best of 5 x 300
calls."""
import time
import warnings

import torch

import pycg
from pycg import ops


def step(x, w):
    h = ops.tanh(ops.matmul(x, w))
    return ops.mean(ops.log1p(ops.exp(h)))


def per_call(fn, n=300):
    """Best of 5 rounds of n calls, in microseconds a call."""
    for _ in range(20):
        fn()
    best = 1e9
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, (time.perf_counter() - t) / n)
    return best * 1e6


def main():
    pycg.config.set_backend("torch")
    torch.set_num_threads(1)
    warnings.simplefilter("ignore")   # (pycg.function's eager warning)
    xt, wt = torch.randn(64, 32), torch.randn(32, 16)
    x, w = pycg.constant(xt), pycg.constant(wt)
    f, compiled = pycg.function(step), torch.compile(step)
    eager = per_call(lambda: step(x, w))
    function = per_call(lambda: f(x, w))
    compiled(x, w)
    dynamo = per_call(lambda: compiled(x, w))
    explained = torch._dynamo.explain(step)(x, w)
    raw = per_call(lambda: torch.tanh(xt @ wt).exp().log1p().mean())
    print(f"pycg eager {eager:.1f} us, pycg.function (eager) {function:.1f}"
          f" us, torch.compile of the pycg function {dynamo:.1f} us "
          f"({explained.graph_count} graphs, {explained.graph_break_count} "
          f"breaks), raw torch {raw:.1f} us")


if __name__ == "__main__":
    main()
