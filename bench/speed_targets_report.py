"""Markdown tables for bench/speed_targets.py: the targets before and after, and
where the microseconds per op go."""

N = 100


def _t(result, race, key, cpu=True):
    """Seconds per call: calling-thread CPU time (cpu True), the whole
    process's CPU time (cpu "process"; None in results from before it was
    recorded) or wall clock (cpu False)."""
    row = result["races"].get(race, {}).get(key)
    field = {True: "cpu", "process": "process", False: "median"}[cpu]
    return None if row is None else row.get(field)


def _ratio(a, b):
    return None if a is None or b is None else a / b


def _fmt(x, unit="x"):
    return "n/a" if x is None else f"{x:.2f}{unit}"


def _per_op(result, race, key, cpu=True):
    t = _t(result, race, key, cpu)
    return None if t is None else t / N * 1e6


def _targets(r):
    """(target, value by CPU time, value by wall clock, met?) per target."""
    def both(fn):
        return fn(True), fn(False)

    def faster(peer, race="scalar", key="pycg_numpy"):
        return both(lambda cpu: _ratio(_t(r, race, peer, cpu),
                                       _t(r, race, key, cpu)))

    def within(race, key, peer, cpu_time=True):
        return both(lambda cpu: _ratio(_t(r, race, key, cpu and cpu_time),
                                       _t(r, race, peer, cpu and cpu_time)))
    deep = r.get("deep", {})
    best = r["races"].get("function_best_of_5", {})
    fn5 = _ratio(best.get("pycg_function"), best.get("tf_function"))
    rows = [
        ("numpy backend, scalar chain: at most 3 us per op",
         both(lambda cpu: _per_op(r, "scalar", "pycg_numpy", cpu)), " us",
         lambda v: v <= 3),
        ("numpy backend: >= 2x faster than HIPS autograd",
         faster("autograd"), "x", lambda v: v >= 2),
        ("numpy backend: >= 5x faster than PyTorch eager", faster("torch"),
         "x", lambda v: v >= 5),
        ("numpy backend: >= 40x faster than TF eager GradientTape",
         faster("tf_eager"), "x", lambda v: v >= 40),
        ("custom-gradient op: at most 1.3x the same function with built-in "
         "ops (100 log1pexp, custom vs ops.log(1 + ops.exp(x)))",
         both(lambda cpu: _ratio(_t(r, "log1pexp", "custom", cpu),
                                 _t(r, "log1pexp", "builtin", cpu))),
         "x", lambda v: v <= 1.3),
        ("(issue 3's measure: custom-only chain vs tanh-only chain)",
         both(lambda cpu: _ratio(_t(r, "custom_only", "pycg_numpy", cpu),
                                 _t(r, "tanh_only", "pycg_numpy", cpu))),
         "x", lambda v: v <= 2),
        ("tensorflow backend, scalar chain: >= 4x faster than TF eager "
         "(aim 5x)", faster("tf_eager", key="pycg_tf"), "x",
         lambda v: v >= 4),
        ("tensorflow backend, MLP: at least as fast as TF eager",
         faster("tf_eager", "mlp", "pycg_tf"), "x", lambda v: v >= 1),
        ("pycg.function, MLP: within 1.1x of tf.function (a race of "
         "the two; CPU time of the whole process, as the graph runs on "
         "TensorFlow's threads too)",
         within("mlp_function", "pycg_function", "tf_function", "process"),
         "x", lambda v: v <= 1.1),
        ("pycg.function, scalar chain: within 1.1x of tf.function "
         "(interleaved medians; one-after-another best of 5 in the "
         "wall-clock column)",
         (_ratio(_t(r, "function", "pycg_function"),
                 _t(r, "function", "tf_function")), fn5), "x",
         lambda v: v <= 1.1),
        ("100,000-op chain: GC on within 1.5x of GC off (wall clock, "
         "median of 3)", (None, _ratio(deep.get("on"), deep.get("off"))),
         "x", lambda v: v <= 1.5),
    ]
    return rows


def tables(before, after):
    out = ["| target | before: CPU time | before: wall clock | after: CPU "
           "time | after: wall clock | after |",
           "|---|---:|---:|---:|---:|---|"]
    for (text, b, unit, ok, *by), (_, a, *_) in zip(_targets(before),
                                                    _targets(after)):
        judged = a[0] if a[0] is not None and not by else a[1]
        status = "n/a" if judged is None else (
            "MET" if ok(judged) else "**MISSED**")
        out.append(f"| {text} | {_fmt(b[0], unit)} | {_fmt(b[1], unit)} | "
                   f"{_fmt(a[0], unit)} | {_fmt(a[1], unit)} | {status} |")
    out += ["", "Microseconds per element of the scalar chain (CPU time; "
            "the peers' rows in the same process):", "",
            "| implementation | before | after |", "|---|---:|---:|"]
    for key, label in (("pycg_numpy", "pycg, numpy backend"),
                       ("pycg_tf", "pycg, tensorflow backend"),
                       ("floor", "minimal Python tape, same kernels"),
                       ("autograd", "HIPS autograd"),
                       ("torch", "PyTorch eager"),
                       ("tf_eager", "TF eager GradientTape")):
        out.append(f"| {label} | {_fmt(_per_op(before, 'scalar', key), '')}"
                   f" | {_fmt(_per_op(after, 'scalar', key), '')} |")
    out += ["", "Where the tensorflow backend's time goes, microseconds "
            "per element (CPU time; one race of its own):", "",
            "| row | before | after |", "|---|---:|---:|"]
    for key, label in (
            ("pycg_tf", "pycg, tensorflow backend"),
            ("floor", "minimal Python tape over the same fast-path kernels"),
            ("python", "pycg's Python alone (those kernels stubbed)")):
        out.append(f"| {label} | {_fmt(_per_op(before, 'tf_split', key), '')}"
                   f" | {_fmt(_per_op(after, 'tf_split', key), '')} |")
    floor = _per_op(after, "scalar", "floor")
    out += ["", "Where each microsecond per element of the mixed chain "
            "goes, numpy backend (bench/profile_chain.py's pieces, below; "
            "the floor is the minimal Python tape over the same kernels, "
            "raced with the peers above):", "",
            "| piece | before | after |", "|---|---:|---:|"]
    split = after.get("per_element") or {}
    for name, value in split.items():
        b = (before.get("per_element") or {}).get(name)
        out.append(f"| {name} | {_fmt(b, '')} | {_fmt(value, '')} |")
    out.append(f"| the floor: minimal Python tape, same kernels, whole | "
               f"{_fmt(_per_op(before, 'scalar', 'floor'), '')} | "
               f"{_fmt(floor, '')} |")
    out += ["", "Where pycg's time goes, numpy backend, microseconds "
            "(bench/profile_chain.py, best of 5, CPU time):", "",
            "| piece | before | after |", "|---|---:|---:|"]
    for name, value in after["breakdown"].items():
        out.append(f"| {name} | {_fmt(before['breakdown'].get(name), '')} "
                   f"| {_fmt(value, '')} |")
    return out
