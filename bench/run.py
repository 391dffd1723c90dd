"""Run the benchmark and write BENCHMARKS.md.

    .venv/bin/python bench/run.py [--quick] [--out FILE] [--no-memory]
                                  [--workloads scalar,custom,1k,1m,mlp,conv,
                                               pool,train,memory]
                                  [--rows pycg_numpy,pycg_tf,...]

pycg (numpy and tensorflow backends, and pycg.function where it exists)
races TensorFlow eager GradientTape, tf.function, JAX, PyTorch and HIPS
autograd (those installed; bench/setup_peers.sh installs them) in this one
process; see BENCHMARKS.md's Method section.
"""
import argparse
import os
import sys
import traceback
from dataclasses import dataclass

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from bench import _peers, chain, conv, mlp, report, targets, train  # noqa
from bench._timing import (Timing, git_revision, machine, measure,  # noqa
                           warm_up)
from bench.memory import KEYS as MEMORY_KEYS, peak_mib  # noqa: E402

import pycg  # noqa: E402

CHAIN_OPS = {"scalar": 100, "1k": 100, "1m": 20}
WORKLOADS = ("scalar", "custom", "1k", "1m", "mlp", "conv", "pool",
             "train", "memory")
TITLES = {
    "scalar": "(a) 100-op chain on a scalar",
    "1k": "(a) 100-op chain on 1,000 elements",
    "custom": "(a') custom-gradient op vs built-in op: 100-op scalar chain",
    "1m": "(b) 20-op chain on 1,000,000 float32 elements",
    "mlp": "(c) MLP loss gradient, batch 256, 784-256-10, softmax "
           "cross-entropy",
    "conv": "(d) conv2d 3x3 'same', (8, 32, 32, 16) input, 32 filters, "
            "forward + backward",
    "pool": "(e) 2x2 {} pooling of an (8, 32, 32, 16) input, forward + "
            "backward",
    "train": "(f) training step, {}: one full-batch Adam step "
             "(bench/train.py --model {})",
}
CUSTOM_VS_BUILTIN = {"pycg_numpy", "pycg_tf", "pycg_torch", "tf_eager",
                     "torch", "autograd"}


@dataclass
class Row:
    key: str
    label: str
    timing: Timing = None
    why: str = ""


FAILURES = []


def race(title, impls, make_args, budget, check, n_ops=None, only=None):
    """Time every implementation (interleaved, see bench._timing.measure),
    then check each gradient against TF eager's. A row that raises, or
    whose gradient differs, is reported as such (and in FAILURES) instead
    of timed. Returns ({key: Row}, table lines)."""
    print(f"\n## {title}", flush=True)
    rows, warm, values = {}, {}, {}
    for key, label, make, why in impls:
        if only is not None and key not in only:
            continue
        rows[key] = Row(key, label, None, why)
        if make is None:
            print(f"  {label}: {why}", flush=True)
            continue
        try:
            fn = make(*make_args)
            first, est, values[key] = warm_up(fn, budget)
        except Exception as e:  # a broken row must not hide the others
            rows[key] = _failed(key, label, title, "raised", e)
            continue
        warm[key] = (first, est, fn)
        print(f"  {label}: first call {first * 1e3:,.1f} ms, then about "
              f"{est * 1e6:,.1f} us per call", flush=True)
    if "tf_eager" not in values:
        sys.exit(f"{title}: TF eager, the reference row, did not run")
    reference = values.pop("tf_eager")
    for key, value in values.items():
        try:
            check(key, value, reference)
        except AssertionError as e:
            rows[key] = _failed(key, rows[key].label, title,
                                "gradient differs from TF eager's", e)
            del warm[key]
    for key, timing in measure(warm, budget).items():
        rows[key].timing = timing
    lines = report.race_table(list(rows.values()), n_ops)
    print("\n".join(lines), flush=True)
    return rows, lines


def _failed(key, label, title, what, error):
    first = (str(error).strip().splitlines() or [""])[0][:160]
    why = f"FAILED: {what}: {type(error).__name__}: {first}"
    print(f"  {label}: {why}", flush=True)
    traceback.print_exception(error, limit=-6, file=sys.stderr)
    FAILURES.append(f"{title}, {label}: {why}")
    return Row(key, label, None, why.replace("|", "/"))


def check_mlp(key, got, reference):
    for g, r, name in zip(_peers.to_numpy(got), _peers.to_numpy(reference),
                          ("w1", "b1", "w2", "b2")):
        chain.check_close(f"{key} d/d{name}", g, r, rtol=1e-3,
                          atol=1e-5 * float(abs(r).max()))


def check_arrays(key, got, reference):
    for g, r in zip(_peers.to_numpy(got), _peers.to_numpy(reference)):
        chain.check_close(key, g, r, rtol=1e-3,
                          atol=1e-5 * float(abs(r).max()))


def run_races(workloads, only, scale):
    """Run the selected workloads; returns (races, [(title, table)])."""
    races, sections = {}, []

    def run(name, title, impls, make_args, budget, check, n_ops=None,
            keys=None):
        rows = only if keys is None else \
            (keys if only is None else keys & only)
        races[name], lines = race(title, impls, make_args, budget * scale,
                                  check, n_ops, rows)
        sections.append((title, lines))

    impls = chain.implementations()
    mixed = {name: (chain.input_of(size),
                    chain.pattern(CHAIN_OPS[name], "mixed"))
             for name, size in (("scalar", 0), ("1k", 1000),
                                ("1m", 1_000_000)) if name in workloads}
    if "scalar" in mixed:
        run("scalar", TITLES["scalar"], impls, mixed["scalar"], 2.0,
            chain.check_close, CHAIN_OPS["scalar"])
    if "custom" in workloads:
        n = CHAIN_OPS["scalar"]
        for kind in ("tanh", "custom"):
            run(f"{kind}_only", f"{TITLES['custom']}: {kind} only", impls,
                (chain.input_of(0), chain.pattern(n, kind)), 1.5,
                chain.check_close, n, CUSTOM_VS_BUILTIN)
    if "1k" in mixed:
        run("1k", TITLES["1k"], impls, mixed["1k"], 2.0, chain.check_close,
            CHAIN_OPS["1k"])
    if "1m" in mixed:
        run("1m", TITLES["1m"], impls, mixed["1m"], 1.5, chain.check_close,
            CHAIN_OPS["1m"])
    if "mlp" in workloads:
        run("mlp", TITLES["mlp"], mlp.implementations(), mlp.data(), 1.5,
            check_mlp)
    if "conv" in workloads:
        run("conv", TITLES["conv"], conv.conv_implementations(),
            conv.conv_data(), 1.5, check_arrays)
    if "pool" in workloads:
        for kind in ("max", "average"):
            run(f"pool_{kind}", TITLES["pool"].format(kind),
                conv.pool_implementations(kind), conv.pool_data(), 1.0,
                lambda key, got, ref: check_arrays(key, [got], [ref]))
    if "train" in workloads:
        for model in ("mlp", "cnn"):
            title = TITLES["train"].format(model.upper(), model)
            sections.append((title, train_table(title, model, 2.0 * scale)))
    return races, sections


def train_table(title, model, budget):
    """bench/train.py's table (its rows are its own: --rows does not
    apply); a loss that differs from the TF custom loop's, or a row that
    raises, is reported as a failure."""
    print(f"\n## {title}", flush=True)
    backend = pycg.config.backend()
    try:
        lines = train.table(model, budget)
    except Exception as e:  # (AssertionError: a loss differs)
        row = _failed(f"train_{model}", model.upper(), title, "raised", e)
        lines = [row.why]
    finally:
        pycg.config.set_backend(backend)
    print("\n".join(lines), flush=True)
    return lines


def peak_memory():
    print("\n## peak memory, 20-op chain on 1,000,000 elements", flush=True)
    memory = {}
    for key in MEMORY_KEYS:
        memory[key] = peak_mib(key, ROOT)
        print(f"  {key}: {memory[key]} MiB", flush=True)
    return memory


def document(head, sections, memory, target_lines, notes):
    out = head + ["", report.METHOD]
    for title, lines in sections:
        out += [f"## {title}", ""] + lines + [""]
    out += ["## Peak memory: 20-op chain on 1,000,000 float32 elements", "",
            "Each in a fresh process: the resident-memory high-water mark "
            "(VmHWM) is reset after imports and input, then one gradient "
            "runs.", ""]
    out += (report.memory_table(memory) if memory else
            ["not measured in this run"]) + [""]
    out += ["## Targets", ""] + target_lines + [""]
    for note in notes:
        out += [note, ""]
    return "\n".join(out)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true",
                   help="short timing budgets (a smoke test; rough numbers)")
    p.add_argument("--out", help="where to write the report (default "
                   "BENCHMARKS.md; a partial run writes only with --out)")
    p.add_argument("--no-memory", action="store_true",
                   help="skip the peak-memory subprocesses")
    p.add_argument("--workloads", help="comma-separated subset of: "
                   + ",".join(WORKLOADS) + " (a partial run)")
    p.add_argument("--rows", help="comma-separated row keys, e.g. "
                   "pycg_numpy,pycg_tf (tf_eager, the reference, always "
                   "runs; a partial run)")
    args = p.parse_args(argv)
    workloads = args.workloads.split(",") if args.workloads else WORKLOADS
    only = set(args.rows.split(",")) | {"tf_eager"} if args.rows else None
    partial = bool(args.workloads or args.rows)
    out_path = args.out or (None if partial else
                            os.path.join(ROOT, "BENCHMARKS.md"))

    head = report.header(machine(), _peers.versions(), git_revision(ROOT),
                         args.quick, partial)
    print("\n".join(head), flush=True)
    for name in _peers.missing():
        print(f"note: {name} is not installed (bash bench/setup_peers.sh)")
    if _peers.pycg_function() is None:
        print("note: pycg.function rows: not available (pycg.function does "
              "not exist yet)")

    races, sections = run_races(workloads, only, 0.2 if args.quick else 1.0)
    memory = peak_memory() if "memory" in workloads and \
        not args.no_memory else {}
    target_lines = report.targets_table(
        targets.evaluate(races, memory, CHAIN_OPS))
    notes = targets.notes(races, CHAIN_OPS)
    print("\n## Targets\n" + "\n".join(target_lines + notes), flush=True)
    if out_path:
        with open(out_path, "w") as f:
            f.write(document(head, sections, memory, target_lines, notes))
        print(f"\nwrote {out_path}")
    if FAILURES:
        print("\nFAILED rows:\n  " + "\n  ".join(FAILURES), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
