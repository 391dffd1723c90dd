"""Every piece of shared state in pycg has a thread story
(docs/shared-state.md): the module- and class-level mutables found by
scanning pycg/ are exactly the table's rows, each row's story is one of the
kinds with the test it names, the import-time tables stay as they were
while threads work, and the caches filled by threads at once give what one
thread gets."""
import ast
import copy
import importlib
import importlib.util
import json
import os
import pathlib
import re
import subprocess
import sys
import textwrap
import threading

import numpy as np

import pycg
from pycg import ops

ROOT = pathlib.Path(__file__).resolve().parents[1]
TABLE = ROOT / "docs" / "shared-state.md"
KINDS = {"import", "cache", "context", "lock", "setting", "counter",
         "single", "sync"}
NAMED = {"context", "lock", "setting", "counter", "single"}   # name a test
CONTAINERS = {"dict", "list", "set", "defaultdict", "OrderedDict", "deque",
              "Counter", "bytearray", "WeakValueDictionary",
              "WeakKeyDictionary", "WeakSet"}
OBJECTS = {"ContextVar", "local", "count", "Lock", "RLock", "Event",
           "Semaphore", "Condition", "Queue", "SimpleQueue"}
DISPLAYS = (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp,
            ast.SetComp)


# ---- the scan ---------------------------------------------------------------
def _called(node):
    f = node.func
    return f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)


def _mutable(value, thread_locals):
    """A display, or anything that calls a mutable constructor; in a
    frozenset or tuple, only mutable objects count (the containers it is
    made of are consumed)."""
    if isinstance(value, DISPLAYS):
        return True
    frozen = isinstance(value, ast.Call) and \
        _called(value) in ("frozenset", "tuple")
    kinds = OBJECTS | thread_locals | (set() if frozen else CONTAINERS)
    return any(isinstance(n, ast.Call) and _called(n) in kinds
               for n in ast.walk(value))


def scan():
    """{(module, name)} of pycg's module- and class-level mutables, names
    rebound with `global`, and functions with a cache decorator."""
    found = set()
    for path in sorted((ROOT / "pycg").rglob("*.py")):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        module = module.removesuffix(".__init__")
        tree = ast.parse(path.read_text())
        thread_locals = {n.name for n in tree.body if isinstance(
            n, ast.ClassDef) and any(ast.unparse(b).endswith("local")
                                     for b in n.bases)}

        def walk(body, prefix, module=module, thread_locals=thread_locals,
                 found=found):
            for node in body:
                if isinstance(node, (ast.Assign, ast.AnnAssign)) and \
                        node.value is not None and \
                        _mutable(node.value, thread_locals):
                    targets = node.targets if isinstance(node, ast.Assign) \
                        else [node.target]
                    for t in targets:
                        for n in t.elts if isinstance(t, ast.Tuple) else [t]:
                            found.add((module, prefix + ast.unparse(n)))
                elif isinstance(node, ast.ClassDef):
                    walk(node.body, prefix + node.name + ".")
                elif isinstance(node, ast.FunctionDef) and any(
                        "cache" in ast.unparse(d)
                        for d in node.decorator_list):
                    found.add((module, prefix + node.name))
        walk(tree.body, "")
        found |= {(module, n) for node in ast.walk(tree)
                  if isinstance(node, ast.Global) for n in node.names}
    return found


def table():
    """{(module, name): (kind, story)} from docs/shared-state.md."""
    rows = {}
    for line in TABLE.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0].startswith("pycg"):
            key = (cells[0], cells[1].strip("`"))
            assert key not in rows, f"{key} is in the table twice"
            rows[key] = (cells[2], cells[3])
    return rows


def test_every_mutable_global_has_a_row_and_every_row_a_global():
    found, rows = scan(), table()
    missing = sorted(found - set(rows))
    assert not missing, (
        f"module-level state without a thread story: {missing}; add a row "
        f"to docs/shared-state.md saying why threads cannot break it (a "
        f"lock, per context, filled at import...), with its test")
    gone = sorted(set(rows) - found)
    assert not gone, f"rows of docs/shared-state.md no longer in pycg/: {gone}"


def test_the_scan_finds_each_kind_of_global(tmp_path, monkeypatch):
    fake = tmp_path / "pycg"
    fake.mkdir()
    (fake / "m.py").write_text(textwrap.dedent("""
        import functools, threading
        A = {}
        B = [x for x in ()]
        C = frozenset({1, 2} | set())  # not: immutable
        D = tuple(threading.Lock() for _ in range(2))
        class L(threading.local):
            pass
        E = L()
        class K:
            table = {}
        def f():
            global G
            G = 1
        @functools.lru_cache(None)
        def g(x):
            return x
    """))
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert scan() == {("pycg.m", n) for n in
                      ("A", "B", "D", "E", "K.table", "G", "g")}


def test_each_row_tells_a_known_kind_and_names_a_test_that_exists():
    for (module, name), (kind, story) in table().items():
        assert kind in KINDS, f"{module}.{name}: unknown kind {kind!r}"
        named = re.findall(r"tests/([\w/]+\.py)::(\w+)", story)
        if kind in NAMED:
            assert named, f"{module}.{name} ({kind}) names no test"
        for file, test in named:
            text = (ROOT / "tests" / file).read_text()
            assert re.search(rf"^def {test}\(", text, re.M), \
                f"{module}.{name}: no test {test} in tests/{file}"


# ---- import-time tables stay as they were -----------------------------------
def workload(k=0):
    """Ops that reach pycg's tables and caches, on the active backend;
    their values as NumPy."""
    out = []
    for dtype in ("float32", "float64", "int32", "complex64"):
        x = pycg.constant(np.arange(1, 5).astype(dtype))
        out += [ops.add(x, 2), ops.multiply(x, 1.5 + k), ops.sum(x * x)]
    out.append(ops.unfold(pycg.constant(np.arange(18.0).reshape(1, 2, 3, 3)),
                          2))
    x = pycg.constant(np.linspace(-1.0, 1.0, 16).reshape(1, 4, 4, 1))
    out.append(pycg.grad(lambda v: ops.sum(ops.sigmoid(ops.max_pool(
        v, 2)) * 3.0))(x))
    out.append(ops.diagonal(pycg.constant(np.arange(9.0).reshape(3, 3))))
    out.append(pycg.grad(lambda v: ops.sum(_scaled(v)))(
        pycg.constant([1.0, 2.0])))
    return [np.asarray(o) for o in out]


@pycg.custom_gradient
def _scaled(x):
    return x * 3.0, lambda g: g * 3.0


def import_tables():
    rows = [key for key, (kind, _) in table().items() if kind == "import"]
    return {key: _resolve(*key) for key in rows}


def _resolve(module, name):
    obj = importlib.import_module(module)
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj


def in_threads(work, n=8):
    start, errors = threading.Barrier(n), []

    def run(i):
        try:
            start.wait()
            work(i)
        except BaseException as e:   # (reported below)
            errors.append(e)
    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_import_time_state_is_unchanged_by_threaded_work():
    import pycg.interop.tensorflow   # noqa: F401  (registers _graph_call)
    previous = pycg.config.backend()
    backends = ["numpy", "tensorflow"] + (
        ["jax"] if importlib.util.find_spec("jax") else [])
    try:
        for b in backends:   # (every backend loaded, every table filled)
            pycg.config.set_backend(b)
            workload()
        before = {k: copy.copy(v) for k, v in import_tables().items()}
        for b in backends:
            pycg.config.set_backend(b)
            in_threads(workload)
        after = import_tables()
    finally:
        pycg.config.set_backend(previous)
    changed = [k for k in before if before[k] != after[k]]
    assert changed == [], f"tables changed by threaded work: {changed}"


# ---- caches filled by threads at once ----------------------------------------
FIRST_USES = textwrap.dedent("""
    import importlib.util, json, sys, threading
    import numpy as np
    sys.path.insert(0, {tests!r})
    import pycg
    from test_shared_state import workload
    from pycg.random import seed_generator
    backends = ["numpy", "tensorflow"] + (
        ["jax"] if importlib.util.find_spec("jax") else [])
    report = {{}}
    for b in backends:
        pycg.config.set_backend(b)   # (its caches still empty)
        got, errors = {{}}, []
        def run(i, start=threading.Barrier({threads})):
            try:
                start.wait()
                got[i] = [repr(a.tolist()) for a in workload(i % 2)]
                got[i].append(np.asarray(pycg.random.normal((2,))).tolist())
            except BaseException as e:
                errors.append(repr(e))
        threads = [threading.Thread(target=run, args=(i,))
                   for i in range({threads})]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        report[b] = dict(errors=errors, got=[got[i] for i in sorted(got)],
                         generators=len(seed_generator._global))
    print(json.dumps(report))
""")


def first_uses(threads):
    """A fresh process (every cache empty) runs the workload from
    `threads` threads at once on each backend; its report."""
    env = {k: v for k, v in os.environ.items() if k != "PYCG_BACKEND"}
    env["JAX_ENABLE_X64"] = "1"   # (float64 on jax, as conftest.py sets)
    return subprocess.Popen(
        [sys.executable, "-c", FIRST_USES.format(
            tests=str(ROOT / "tests"), threads=threads)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        cwd=ROOT)


def test_first_uses_from_threads_agree_with_one_thread():
    # Caches filled by 8 threads at once in a fresh process give each
    # thread what one thread gets in another fresh process (caches filled
    # one use at a time); the global seed generator's first draws from 8
    # threads make one generator and 16 distinct numbers.
    runs = [first_uses(8), first_uses(1)]
    reports = []
    for run in runs:
        out, err = run.communicate(timeout=300)
        assert run.returncode == 0, err[-3000:]
        reports.append(json.loads(out.strip().splitlines()[-1]))
    many, one = reports
    for backend, facts in many.items():
        assert facts["errors"] == [] and facts["generators"] == 1, backend
        alone = one[backend]["got"][0][:-1]
        assert [got[:-1] for got in facts["got"][0::2]] == [alone] * 4, \
            backend
        draws = [x for got in facts["got"] for x in got[-1]]
        assert len(set(draws)) == 16, backend


# ---- counters and settings ---------------------------------------------------
def test_tensors_made_in_threads_get_distinct_ids():
    ids = [[] for _ in range(8)]
    in_threads(lambda i: ids[i].extend(
        pycg.constant(1.0)._id for _ in range(500)))
    flat = [i for part in ids for i in part]
    assert len(set(flat)) == len(flat) == 8 * 500


def test_settings_are_process_wide_as_keras_s():
    # pycg.config's floatx and backend are the process's (Keras' are too):
    # a thread started after a change sees it.
    previous = pycg.config.floatx(), pycg.config.backend()
    seen = []
    try:
        pycg.config.set_floatx("float64")
        pycg.config.set_backend("numpy")
        t = threading.Thread(target=lambda: seen.append(
            (pycg.config.floatx(), pycg.config.backend(),
             pycg.constant(1.5).dtype.name)))
        t.start()
        t.join()
    finally:
        pycg.config.set_floatx(previous[0])
        pycg.config.set_backend(previous[1])
    assert seen == [("float64", "numpy", "float64")]
