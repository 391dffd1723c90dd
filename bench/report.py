"""BENCHMARKS.md: the header, one table per race, the targets."""
import datetime

REFERENCE = "tf_eager"


def _us(seconds):
    us = seconds * 1e6
    return f"{us:,.0f}" if us >= 100 else f"{us:.1f}"


def _first(seconds):
    return f"{seconds * 1e3:,.1f}" if seconds < 10 else f"{seconds:,.1f} s"


def race_table(rows, n_ops=None):
    """Markdown lines for one race; rows: list of Row (see bench.run)."""
    ref = next((r.timing for r in rows
                if r.key == REFERENCE and r.timing), None)
    head = ["implementation", "us per call"]
    if n_ops:
        head.append("us per element")
    head += ["spread (min-max us)", "CPU us per call (calling thread)",
             "first call (ms)",
             "speed-up vs TF eager"]
    lines = ["| " + " | ".join(head) + " |",
             "|" + "|".join(["---"] + ["---:"] * (len(head) - 1)) + "|"]
    for r in rows:
        t = r.timing
        if t is None:
            cells = [r.label, r.why] + [""] * (len(head) - 2)
        else:
            cells = [r.label, _us(t.median)]
            if n_ops:
                cells.append(f"{t.median / n_ops * 1e6:.2f}")
            cells += [f"{_us(t.low)}-{_us(t.high)}", _us(t.cpu),
                      _first(t.first),
                      f"{ref.median / t.median:.2f}x" if ref else "n/a"]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def targets_table(groups):
    lines = ["| issue | target | measured (wall-clock medians) | status | "
             "the same by CPU time (calling thread: eager scalar chains; "
             "whole process: convolution and pooling) |",
             "|---|---|---|---|---|"]
    for issue, items in groups:
        for text, (measured, status), (by_cpu, cpu_status) in items:
            lines.append(f"| {issue} | {text} | {measured} | {_mark(status)} "
                         f"| {by_cpu} {_mark(cpu_status) if by_cpu else ''} |")
    return lines


def _mark(status):
    return status if status == "MET" else f"**{status}**"


def memory_table(memory):
    labels = {"pycg_tf": "pycg eager, tensorflow backend",
              "pycg_numpy": "pycg eager, numpy backend",
              "tf_eager": "TF eager GradientTape"}
    lines = ["| implementation | peak added by one gradient (MiB) |",
             "|---|---:|"]
    for key, label in labels.items():
        mib = memory.get(key)
        lines.append(f"| {label} | "
                     f"{'not measured' if mib is None else f'{mib:.1f}'} |")
    return lines


def header(info, versions, revision, quick, partial):
    now = datetime.datetime.now().astimezone()
    vs = ", ".join(f"{k} {v}" for k, v in versions.items())
    lines = [
        "# Benchmarks",
        "",
        "Written by `bench/run.py` (`make bench`); do not edit by hand. "
        "pycg and every installed peer run side by side in one process.",
        "",
        f"- date: {now:%Y-%m-%d %H:%M %Z}",
        f"- machine: {info['cores']} cores, {info['cpu']}, {info['os']}, "
        f"Python {info['python']}",
        f"- BLAS/threading environment: {info['blas_env']}",
        f"- load average (1 min) at the start: {info['load']:.2f}"
        + (" (other processes were running: expect noise)"
           if info["load"] > 0.5 else ""),
        f"- versions: {vs}",
        f"- pycg revision: {revision}",
    ]
    if quick:
        lines.append("- **quick run** (`--quick`): short timing budgets, "
                     "numbers are rough")
    if partial:
        lines.append("- **partial run** (`--workloads` / `--rows`)")
    return lines


METHOD = """\
## How to run

`make bench` (that is, `bash bench/setup_peers.sh`, which installs JAX,
PyTorch's CPU build and HIPS autograd into .venv, then
`.venv/bin/python bench/run.py`, every workload down to the training steps
of bench/train.py, MLP and CNN, then the R, custom-call and deep-graph
tables and bench/REPORTS.md) rewrites this file in one run. `bench/run.py
--quick` runs every workload on short budgets (a smoke test);
`bench/run.py --workloads scalar,custom --rows pycg_numpy,pycg_tf`
times a subset (printed, not written, unless `--out` is given);
`bench/profile_chain.py numpy|tensorflow [--cprofile]` splits pycg's cost
per chain element into kernels, dispatch, recording, custom_gradient and
the backward loop.

## Method

Each row is one call of forward + backward (the gradient, returned as a
finished value; JAX results are waited for with `block_until_ready`). The
first call is timed alone (it includes tracing and compiling); then each
implementation warms up. The rows of one workload are timed interleaved:
each round times one repeat of every row in turn (a repeat runs the call
enough times to last about 20 ms), so load from other processes falls on
all rows alike, and each number is the median over 7-25 rounds, timed with
`time.perf_counter`. Each round takes the rows in a new (seeded, shuffled)
order and each repeat starts with one untimed call, so no row pays, round
after round, for what the row before it left behind (garbage freed, caches
and thread pools to warm again: with a fixed order, the row timed right
after the eager rows came out up to 20% slower). "spread" is the fastest
and slowest repeat. "CPU us" is the median CPU time of the calling thread
per call (`time.thread_time`): other processes on a busy machine do not add
to it, so where all the work runs on the calling thread (the eager scalar
chains) it is the steadier number; work that a framework hands to worker
threads (large kernels, graph executors) is not in it. The speed-up column
is TF eager's time divided by the row's (above 1 is faster than
TensorFlow's eager GradientTape). Python's garbage collector stays on, as
users run it; a rare full collection (hundreds of ms with TensorFlow, JAX
and PyTorch loaded) lands in few rounds, so the medians leave it out. pycg
rows select their backend at each call (about a microsecond). Before any
number is written, every row's gradient is checked against TF eager's
(relative tolerance 2e-4 on the chains, 1e-3 on the MLP), outside the
timing; a row that raises or disagrees is shown as FAILED and
`bench/run.py` exits non-zero.

Every chain element is `tanh` or `log1pexp(x) = log(1 + exp(x))`, the latter
with a custom gradient through each framework's own API (pycg.custom_gradient,
tf.custom_gradient, jax.custom_vjp, torch.autograd.Function, HIPS autograd's
primitive + defvjp), all with the same formula: forward `e = exp(x);
log(1 + e)`, backward `upstream * (1 - 1 / (1 + e))`. The gradient is a
vector-Jacobian product seeded with ones (what `GradientTape.gradient` does
for a non-scalar target). Inputs are float32: 0.5 for the scalar chain,
uniform(-2, 2) with seed 0 otherwise.

The machine is shared: other processes may run beside the benchmark, so
repeat a run before trusting a difference of a few percent.
"""
