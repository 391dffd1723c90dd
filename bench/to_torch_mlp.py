"""pycg.to_torch inside a torch model: one training step of an MLP
(784-256-10, batch 256, float32, SGD) whose hidden activation is a pycg
rule through pycg.to_torch, beside the same step with the rule as a
torch.autograd.Function, timed side by side in one process (interleaved
rounds, bench/_timing.measure; best and median of the rounds).

    .venv/bin/python -m bench.to_torch_mlp [--budget S] [--threads N]
        [--profile]

The rule is softplus with a stable gradient (log1pexp: sigmoid written
without overflow), the same maths in both rows."""
import argparse
import cProfile
import pstats

import numpy as np
import torch

import pycg
from bench._timing import measure, warm_up
from pycg import ops

BATCH, SIZES = 256, (784, 256, 10)


@pycg.custom_gradient
def log1pexp(x):
    e = ops.exp(x)
    return ops.log1p(e), lambda upstream: upstream * (1 - 1 / (1 + e))


class TorchLog1pexp(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return torch.log1p(torch.exp(x))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(torch.exp(inputs[0]))

    @staticmethod
    def backward(ctx, upstream):
        e, = ctx.saved_tensors
        return upstream * (1 - 1 / (1 + e))


def make_step(activation, seed=0):
    g = torch.Generator().manual_seed(seed)
    n_in, n_hidden, n_out = SIZES
    model = torch.nn.Sequential(torch.nn.Linear(n_in, n_hidden),
                                Activation(activation),
                                torch.nn.Linear(n_hidden, n_out))
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(torch.randn(p.shape, generator=g) * p.shape[-1] ** -0.5)
    opt = torch.optim.SGD(model.parameters(), lr=1e-3)
    x = torch.randn(BATCH, n_in, generator=g)
    labels = torch.randint(0, n_out, (BATCH,), generator=g)

    def step():
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(x), labels)
        loss.backward()
        opt.step()
        return loss
    return step, model


class Activation(torch.nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, x):
        return self.fn(x)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--budget", type=float, default=6.0,
                   help="seconds of timing per row (default 6)")
    p.add_argument("--threads", type=int, default=1,
                   help="torch's intra-op threads (default 1: all the "
                   "work on the calling thread, whose CPU time stays "
                   "steady on a shared machine)")
    p.add_argument("--profile", action="store_true",
                   help="also print where the to_torch step's time goes")
    args = p.parse_args(argv)
    pycg.config.set_backend("torch")
    torch.set_num_threads(args.threads)
    rows = {"pycg.to_torch rule": pycg.to_torch(log1pexp),
            "torch.autograd.Function": TorchLog1pexp.apply}
    steps = {k: make_step(fn) for k, fn in rows.items()}
    # (the same weights after a step: the rows compute the same thing)
    losses = [float(s().detach()) for s, _ in steps.values()]
    np.testing.assert_allclose(*losses, rtol=1e-5)
    fns = {k: warm_up(s, args.budget) for k, (s, _) in steps.items()}
    timed = measure({k: (first, est, steps[k][0])
                     for k, (first, est, _) in fns.items()},
                    budget=args.budget, min_rounds=15, max_rounds=60)
    ours, theirs = (timed[k] for k in rows)
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads")
    for k, t in timed.items():
        print(f"{k:26s} median {t.median * 1e3:7.3f} ms  best "
              f"{t.low * 1e3:7.3f} ms  cpu {t.cpu * 1e3:7.3f} ms")
    print(f"ratio (to_torch / autograd.Function): median "
          f"{ours.median / theirs.median:.3f}x, best "
          f"{ours.low / theirs.low:.3f}x, cpu {ours.cpu / theirs.cpu:.3f}x")
    if args.profile:
        step = steps["pycg.to_torch rule"][0]
        prof = cProfile.Profile()
        prof.enable()
        for _ in range(200):
            step()
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
