"""pycg's speed targets (BENCHMARKS.md), each measured side by side with its
peers in one process (interleaved medians, bench._timing.measure), and where pycg's
microseconds per op go (bench/profile_chain.py) against a minimal Python
tape doing the same chain on the same NumPy kernels.

    .venv/bin/python bench/speed_targets.py --json OUT    # this checkout's pycg
    .venv/bin/python bench/speed_targets.py --before DIR  # DIR's pycg, then this
                                                    # one: a Markdown table

--before runs this script twice, back to back, in fresh processes: once
importing the pycg found in DIR (an older checkout), once this checkout's.
Ratios are taken within each process, against the peers timed with it.
"""
import argparse
import gc
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
if os.environ.get("PYCG_UNDER_TEST"):
    sys.path.insert(0, os.environ["PYCG_UNDER_TEST"])

N = 100


def floor_chain(x0, custom):
    """The floor: a minimal Python tape (one tuple per op, one loop back)
    over the same NumPy kernels, float32 scalars."""
    import numpy as np
    one = np.float32(1)

    def step():
        tape, x = [], np.asarray(x0)
        for c in custom:
            if c:
                e = np.exp(x)
                y = np.log(one + e)
                tape.append((True, e, y))
            else:
                y = np.tanh(x)
                tape.append((False, None, y))
            x = y
        g = np.ones_like(x)
        for c, e, y in reversed(tape):
            g = g * (one - one / (one + e)) if c else g * (one - y * y)
        return g
    return step


def builtin_log1pexp(x0, custom):
    """pycg, numpy backend: the chain with log1pexp written with built-in
    ops (no custom gradient), for the custom-gradient cost target."""
    import pycg
    from pycg import ops
    pycg.config.set_backend("numpy")
    x = pycg.constant(x0)

    def step():
        pycg.config.set_backend("numpy")
        with pycg.GradientTape() as tape:
            tape.watch(x)
            y = x
            for c in custom:
                y = ops.log(1 + ops.exp(y)) if c else ops.tanh(y)
        return tape.gradient(y, x)
    return step


def races():
    from bench import chain, mlp
    from bench._timing import measure, warm_up
    impls = {k: make for k, _, make, _ in chain.implementations() if make}
    x0 = chain.input_of(0)
    out = {}

    def race(name, makes, args, budget=2.0):
        warm = {}
        for key, make in makes.items():
            fn = make(*args)
            warm[key] = warm_up(fn, budget)[:2] + (fn,)
        out[name] = {k: {"median": t.median, "cpu": t.cpu,
                         "process": t.process}
                     for k, t in measure(warm, budget).items()}

    mixed = chain.pattern(N, "mixed")
    keys = ["pycg_numpy", "pycg_tf", "tf_eager", "torch", "autograd"]
    makes = {k: impls[k] for k in keys if k in impls}
    makes["floor"] = floor_chain
    race("scalar", makes, (x0, mixed))
    tf_floor = _this_checkouts("tf_floor")
    split = {"pycg_tf": impls["pycg_tf"], "floor": tf_floor.floor_chain}
    alone = tf_floor.python_alone(impls["pycg_tf"])
    if alone is not None:
        split["python"] = alone
    race("tf_split", split, (x0, mixed))
    race("log1pexp", {"custom": impls["pycg_numpy"],
                      "builtin": builtin_log1pexp},
         (x0, chain.pattern(N, "custom")), 1.0)
    for kind in ("tanh", "custom"):
        race(f"{kind}_only", {"pycg_numpy": impls["pycg_numpy"],
                              "floor": floor_chain},
             (x0, chain.pattern(N, kind)), 1.0)
    if "pycg_function" in impls:
        race("function", {k: impls[k] for k in ("pycg_function",
                                                "tf_function")},
             (x0, mixed), 1.0)
        out["function_best_of_5"] = one_after_another(
            {k: impls[k](x0, mixed) for k in ("pycg_function",
                                              "tf_function")})
    m = {k: make for k, _, make, _ in mlp.implementations() if make}
    race("mlp", {k: m[k] for k in ("pycg_tf", "tf_eager") if k in m},
         mlp.data(), 1.5)
    if "pycg_function" in m:   # (compiled against compiled, as above)
        race("mlp_function", {k: m[k] for k in ("pycg_function",
                                                "tf_function")},
             mlp.data(), 1.5)
    return out


def _this_checkouts(name):
    """bench/<name>.py of this checkout (with --before, `bench` may be the
    older checkout's package, which need not have it)."""
    spec = importlib.util.spec_from_file_location(
        f"bench_{name}", os.path.join(ROOT, "bench", f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def one_after_another(fns, number=200):
    """Each fn alone, best of 5 repeats, one fn after the other."""
    out = {}
    for key, fn in fns.items():
        for _ in range(20):
            fn()
        reps = []
        for _ in range(5):
            t0 = time.perf_counter()
            for _ in range(number):
                fn()
            reps.append((time.perf_counter() - t0) / number)
        out[key] = min(reps)
    return out


def deep(n=100_000):
    """bench/deep.py's chain at n ops: seconds with the GC on, and off."""
    from bench import deep as d
    import pycg
    pycg.config.set_backend("numpy")
    d.run(1000)
    on = statistics.median(d.run(n) for _ in range(3))
    gc.disable()
    try:
        off = statistics.median(d.run(n) for _ in range(3))
    finally:
        gc.enable()
    return {"on": on, "off": off}


def main(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--json")
    p.add_argument("--before")
    args = p.parse_args(argv)
    if args.before:
        return compare(args.before)
    # (this checkout's profile_chain, timing the pycg under test)
    result = {"races": races(), "deep": deep()}
    profile_chain = _this_checkouts("profile_chain")
    result["breakdown"] = profile_chain.breakdown("numpy")
    result["per_element"] = profile_chain.per_element(result["breakdown"])
    with open(args.json, "w") as f:
        json.dump(result, f, indent=1)


def compare(before_dir):
    from bench import speed_targets_report
    results = {}
    for label, under in (("before", before_dir), ("after", "")):
        path = f"/tmp/speed_targets_{label}.json"
        env = dict(os.environ, PYCG_UNDER_TEST=under)
        subprocess.run([sys.executable, __file__, "--json", path], env=env,
                       check=True)
        with open(path) as f:
            results[label] = json.load(f)
    print("\n".join(speed_targets_report.tables(results["before"],
                                          results["after"])))


if __name__ == "__main__":
    main()
