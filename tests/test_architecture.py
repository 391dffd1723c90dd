"""The house rules of docs/architecture.md, checked: no import cycles
(statically, counting imports inside functions too, and by importing every
module alone in a fresh interpreter), dependencies pointing down the
layers, and no file in pycg/ over the line budget."""
import ast
import os
import pathlib
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
PKG = ROOT / "pycg"
LINE_BUDGET = 300


def _modules():
    out = {}
    for path in sorted(PKG.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _imports(name, path):
    """pycg modules that `name` imports, anywhere in the file."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")
                parent = parent[:len(parent) - node.level + 1]
                base = ".".join(parent + ([base] if base else []))
            for a in node.names:
                sub = f"{base}.{a.name}"
                found.add(sub if sub in MODULES else base)
    return {m for m in found if m in MODULES and m != name}


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def _cycles(graph):
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_static_import_graph_has_no_cycles():
    assert _cycles(GRAPH) == []


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == [
        ["a", "b", "c"]]


def _reaches(src, dst):
    seen, todo = set(), [src]
    while todo:
        m = todo.pop()
        if m == dst:
            return True
        if m not in seen:
            seen.add(m)
            todo.extend(GRAPH[m])
    return False


@pytest.mark.parametrize("low, high", [
    ("pycg.core", "pycg.ops"),
    ("pycg.core", "pycg.tape"),
    ("pycg.tensor", "pycg.core"),
    ("pycg.custom_gradient", "pycg.ops"),
    ("pycg.ops", "pycg.tape"),
    ("pycg.ops", "pycg.functional"),
    ("pycg.backends", "pycg.tensor"),
])
def test_dependencies_point_down_the_layers(low, high):
    assert not _reaches(low, high), f"{low} must not depend on {high}"


# pycg._errors (errors whose facts travel as fields) imports nothing of
# pycg: every layer may raise through it.
LEAF = {"pycg._errors"}


def test_the_errors_module_imports_nothing_of_pycg():
    assert GRAPH["pycg._errors"] == set()


def test_backends_know_no_gradients():
    for name, deps in GRAPH.items():
        if name.startswith("pycg.backends."):
            assert not {d for d in deps - LEAF
                        if not d.startswith("pycg.backends")}


def test_the_core_reaches_no_other_module_than_tensor_and_below():
    assert GRAPH["pycg.core"] - LEAF <= {"pycg.tensor"}


def _import_alone(name):
    env = dict(os.environ, PYCG_BACKEND="numpy", TF_CPP_MIN_LOG_LEVEL="3",
               PYTHONPATH=str(ROOT))
    if name.startswith("pycg.backends.tensorflow") or \
            name.startswith("pycg.compile"):
        env["PYCG_BACKEND"] = "tensorflow"
    run = subprocess.run([sys.executable, "-c", f"import {name}"], env=env,
                         capture_output=True, text=True, timeout=120)
    return name, run.returncode, run.stderr[-2000:]


ALONE = sorted(n for n in MODULES if n != "pycg.__main__")


def test_every_module_imports_alone_in_a_fresh_interpreter():
    with ThreadPoolExecutor(max_workers=2) as pool:
        failed = [(n, err) for n, rc, err in pool.map(_import_alone, ALONE)
                  if rc != 0]
    assert failed == []


def test_no_file_in_pycg_is_over_the_line_budget():
    long = {str(p.relative_to(ROOT)): n for p in PKG.rglob("*")
            if p.suffix in (".py", ".R") and
            (n := len(p.read_text().splitlines())) > LINE_BUDGET}
    assert long == {}
