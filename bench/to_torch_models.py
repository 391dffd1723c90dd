"""pycg.to_torch against torch.autograd.Function (issue 44): per training
step of three torch models whose custom-gradient layers are pycg rules
through pycg.to_torch, beside the same models with those rules written
as torch.autograd.Functions, and log1pexp alone; one process, one torch
thread, interleaved rounds (bench/_timing.measure), the calling thread's
CPU time (time.thread_time, medians). Prints a Markdown table (make bench
appends it to BENCHMARKS.md).

    .venv/bin/python -m bench.to_torch_models [--budget S] [--only NAMES]
        [--profile NAME]

Workloads (float32, fixed seeds; each step checked equal in both rows
before timing):

- cnn: Conv2d(3, 16, 3) -> log1pexp -> MaxPool 2 -> Conv2d(16, 32, 3) ->
  log1pexp -> MaxPool 2 -> Linear(512, 10), batch 32 of 16x16 images,
  Adam (two rule calls a step);
- binarized MLP: 64-128-128-10, batch 64, straight-through sign
  (forward sign(x), backward upstream where |x| <= 1) on both hidden
  layers, Adam (two rule calls);
- domain adaptation: Linear(32, 64) -> log1pexp -> Linear(64, 32) ->
  log1pexp features, a label head Linear(32, 5) and, behind a gradient
  reversal layer (lam = 0.3), a domain head Linear(32, 16) -> log1pexp
  -> Linear(16, 1), batch 64, SGD with momentum 0.9 (four rule calls);
- log1pexp alone on 16,384 and on 64 values: forward and backward
  (y.sum().backward()), one rule call.
"""
import argparse
import cProfile
import os
import pstats
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import numpy as np  # noqa: E402
import torch  # noqa: E402
from torch import nn  # noqa: E402

import pycg  # noqa: E402
from bench._timing import measure, warm_up  # noqa: E402
from pycg import ops  # noqa: E402

LAM = 0.3
TARGETS = {"cnn": 1.15, "binarized MLP": 1.15, "domain adaptation": 1.15,
           "log1pexp on 64 values": 1.5}


# ---- the rules, in pycg -----------------------------------------------------
@pycg.custom_gradient
def log1pexp(x):
    e = ops.exp(x)
    return ops.log1p(e), lambda upstream: upstream * (1 - 1 / (1 + e))


@pycg.custom_gradient
def sign_ste(x):
    inside = ops.cast(ops.abs(x) <= 1, x.dtype)
    return ops.sign(x), lambda upstream: upstream * inside


@pycg.custom_gradient
def reverse_gradient(x):
    return x + 0.0, lambda upstream: -LAM * upstream


# ---- the same rules as torch.autograd.Functions -----------------------------
class TorchLog1pexp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        e = torch.exp(x)
        ctx.save_for_backward(e)
        return torch.log1p(e)

    @staticmethod
    def backward(ctx, upstream):
        e, = ctx.saved_tensors
        return upstream * (1 - 1 / (1 + e))


class TorchSignSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward((x.abs() <= 1).to(x.dtype))
        return torch.sign(x)

    @staticmethod
    def backward(ctx, upstream):
        inside, = ctx.saved_tensors
        return upstream * inside


class TorchReverseGradient(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x + 0.0

    @staticmethod
    def backward(ctx, upstream):
        return -LAM * upstream


PYCG = {"log1pexp": pycg.to_torch(log1pexp),
        "sign": pycg.to_torch(sign_ste),
        "reverse": pycg.to_torch(reverse_gradient)}
TORCH = {"log1pexp": TorchLog1pexp.apply, "sign": TorchSignSTE.apply,
         "reverse": TorchReverseGradient.apply}


# ---- the models -------------------------------------------------------------
class CNN(nn.Module):
    def __init__(self, rules):
        super().__init__()
        self.act = rules["log1pexp"]
        self.c1, self.c2 = nn.Conv2d(3, 16, 3, padding=1), \
            nn.Conv2d(16, 32, 3, padding=1)
        self.out = nn.Linear(32 * 4 * 4, 10)

    def forward(self, x):
        h = nn.functional.max_pool2d(self.act(self.c1(x)), 2)
        h = nn.functional.max_pool2d(self.act(self.c2(h)), 2)
        return self.out(h.flatten(1))


class BinarizedMLP(nn.Module):
    def __init__(self, rules):
        super().__init__()
        self.sign = rules["sign"]
        self.l1, self.l2, self.l3 = nn.Linear(64, 128), nn.Linear(128, 128), \
            nn.Linear(128, 10)

    def forward(self, x):
        h = self.sign(self.l1(x))
        return self.l3(self.sign(self.l2(h)))


class DomainAdaptation(nn.Module):
    def __init__(self, rules):
        super().__init__()
        self.act, self.reverse = rules["log1pexp"], rules["reverse"]
        self.f1, self.f2 = nn.Linear(32, 64), nn.Linear(64, 32)
        self.label = nn.Linear(32, 5)
        self.d1, self.d2 = nn.Linear(32, 16), nn.Linear(16, 1)

    def forward(self, x):
        h = self.act(self.f2(self.act(self.f1(x))))
        d = self.d2(self.act(self.d1(self.reverse(h))))
        return self.label(h), d.squeeze(1)


def _classifier_step(model_class, shape, n_classes, rules, seed=0):
    torch.manual_seed(seed)
    model = model_class(rules)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(shape, generator=g)
    y = torch.randint(0, n_classes, (shape[0],), generator=g)

    def step():
        opt.zero_grad()
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        return loss.detach()
    return step


def _domain_step(rules, seed=0):
    torch.manual_seed(seed)
    model = DomainAdaptation(rules)
    opt = torch.optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(64, 32, generator=g)
    y = torch.randint(0, 5, (64,), generator=g)
    domain = torch.randint(0, 2, (64,), generator=g).float()

    def step():
        opt.zero_grad()
        logits, d = model(x)
        loss = nn.functional.cross_entropy(logits, y) + \
            nn.functional.binary_cross_entropy_with_logits(d, domain)
        loss.backward()
        opt.step()
        return loss.detach()
    return step


def _alone_step(n, rules, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = (torch.rand(n, generator=g) * 8 - 4).requires_grad_()
    fn = rules["log1pexp"]

    def step():
        x.grad = None
        fn(x).sum().backward()
        return x.grad
    return step


WORKLOADS = {
    "cnn": lambda r: _classifier_step(CNN, (32, 3, 16, 16), 10, r),
    "binarized MLP": lambda r: _classifier_step(BinarizedMLP, (64, 64), 10,
                                                r),
    "domain adaptation": _domain_step,
    "log1pexp on 16384 values": lambda r: _alone_step(16384, r),
    "log1pexp on 64 values": lambda r: _alone_step(64, r),
}


def race(name, budget):
    """({row: Timing}) of one workload, after checking both rows give the
    same values over three steps."""
    steps = {"to_torch": WORKLOADS[name](PYCG),
             "Function": WORKLOADS[name](TORCH)}
    for _ in range(3):
        got, want = (s() for s in steps.values())
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    fns = {k: warm_up(s, budget) for k, s in steps.items()}
    return measure({k: (first, est, steps[k])
                    for k, (first, est, _) in fns.items()},
                   budget=budget, min_rounds=15, max_rounds=60)


def table(names, budget):
    lines = ["| workload | to_torch CPU us | Function CPU us | "
             "to_torch / Function (CPU) | wall-clock ratio | target |",
             "|---|---:|---:|---:|---:|---|"]
    for name in names:
        t = race(name, budget)
        ours, theirs = t["to_torch"], t["Function"]
        ratio = ours.cpu / theirs.cpu
        target = TARGETS.get(name)
        mark = "" if target is None else \
            f"at most {target}x: {'MET' if ratio <= target else 'MISSED'}"
        lines.append(f"| {name} | {ours.cpu * 1e6:,.1f} | "
                     f"{theirs.cpu * 1e6:,.1f} | {ratio:.2f}x | "
                     f"{ours.median / theirs.median:.2f}x | {mark} |")
        print(lines[-1], file=sys.stderr, flush=True)
    return lines


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--budget", type=float, default=3.0,
                   help="seconds of timing per row (default 3)")
    p.add_argument("--only", help="comma-separated workloads (default all: "
                   + ", ".join(WORKLOADS) + ")")
    p.add_argument("--profile", metavar="NAME",
                   help="print where the to_torch row of workload NAME "
                   "spends its time (cProfile), instead of the table")
    args = p.parse_args(argv)
    torch.set_num_threads(1)
    if args.profile:
        step = WORKLOADS[args.profile](PYCG)
        for _ in range(50):
            step()
        prof = cProfile.Profile()
        prof.enable()
        for _ in range(2000):
            step()
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(30)
        return
    names = args.only.split(",") if args.only else list(WORKLOADS)
    lines = table(names, args.budget)
    print(f"torch {torch.__version__}, one torch thread, "
          f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}; "
          f"microseconds of the calling thread's CPU per step, medians of "
          f"interleaved rounds (bench/to_torch_models.py)\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
