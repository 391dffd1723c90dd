"""The house rules of docs/architecture.md, checked: no import cycles
(statically, counting imports inside functions too, and by importing every
module alone in a process that has imported nothing of pycg), dependencies
pointing down the layers, and no file in pycg/ over the line budget (of
code lines: docstrings, comments and blank lines are free)."""
import ast
import importlib.util
import json
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


# The layers of docs/architecture.md, bottom to top, as module prefixes.
LAYERS = [
    ("errors", ("pycg._errors", "pycg._imports")),
    ("kernels", ("pycg.backends", "pycg.config")),
    ("values", ("pycg.tensor",)),
    ("recording core", ("pycg.core",)),
    ("custom gradients", ("pycg.custom",)),
    ("ops", ("pycg.ops",)),
    ("user API", ("pycg.api",)),
]


def _layer(name):
    for i, (_, prefixes) in enumerate(LAYERS):
        if any(name == p or name.startswith(p + ".") for p in prefixes):
            return i
    return len(LAYERS)   # the leaves


@pytest.mark.parametrize("low", [n for n, _ in LAYERS])
def test_dependencies_point_down_the_layers(low):
    level = [n for n, _ in LAYERS].index(low)
    upward = sorted((m, d) for m in MODULES if _layer(m) == level
                    for d in GRAPH[m] if _layer(d) > level)
    assert upward == [], f"the {low} layer imports from above it"


def test_the_layer_finder_places_a_leaf_above_every_layer():
    assert _layer("pycg.core.backward") == 3 and _layer("pycg.saving") == 7
    assert _layer("pycg.tensor") == 2 and _layer("pycg.tensorx") == 7


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


def test_the_core_reaches_no_other_layer_than_the_values():
    # the core never imports a backend: it reaches values through Tensor
    core = {m for m in MODULES if m.startswith("pycg.core")}
    reached = set().union(*(GRAPH[m] for m in core)) - core - LEAF
    assert {m for m in reached if _layer(m) != 2} == set()


def test_base_r_on_tensors_knows_neither_r_nor_reticulate():
    # pycg/r/base/ (R's meaning on tensors) imports nothing else of pycg.r:
    # not the R package's door (interop, envelope), not the rpy2 side
    base = {m for m in MODULES if m.startswith("pycg.r.base")}
    assert len(base) > 10
    reached = set().union(*(GRAPH[m] for m in base)) - base
    assert {m for m in reached if m.startswith("pycg.r")} == set()


def _bound_names(path):
    """Top-level names a file binds, with the module each import names."""
    bound = {}
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            bound[node.name] = None
        elif isinstance(node, ast.ImportFrom):
            for a in node.names:
                bound[a.asname or a.name] = f"{node.module}.{a.name}"
    return bound


def test_no_package_binds_a_name_of_one_of_its_modules_to_something_else():
    # `pycg.x` and `import pycg.x` must both give the module x, and help()
    # its docstring (a module custom_gradient.py beside the public function
    # custom_gradient gave the function)
    clashes = [name for name, path in MODULES.items()
               if path.name != "__init__.py" and
               _bound_names(MODULES[name.rpartition(".")[0]]).get(
                   name.rpartition(".")[2], name) != name]
    assert clashes == []


def test_the_name_check_sees_a_function_bound_over_a_module(tmp_path):
    init = tmp_path / "__init__.py"
    init.write_text("from pycg.x.deco import custom_gradient\n")
    assert _bound_names(init)["custom_gradient"] != "pycg.custom_gradient"


def _on_tensorflow(name):
    return name.startswith(("pycg.backends.tensorflow", "pycg.compile"))


def _import_alone(names, backend):
    """{module: traceback} of the `names` that fail to import alone (see
    tests/support/import_alone.py: a forked child each, nothing of pycg
    imported before)."""
    env = dict(os.environ, PYCG_BACKEND=backend, TF_CPP_MIN_LOG_LEVEL="3",
               PYTHONPATH=str(ROOT))
    run = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "support" / "import_alone.py"),
         *names], env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout.strip().splitlines()[-1])


# (the jax backend needs JAX, an optional extra: checked where installed)
ALONE = sorted(n for n in MODULES if n != "pycg.__main__" and (
    importlib.util.find_spec("jax") or not n.startswith("pycg.backends.jax")))


def test_every_module_imports_alone_in_a_fresh_process():
    groups = {"numpy": [n for n in ALONE if not _on_tensorflow(n)],
              "tensorflow": [n for n in ALONE if _on_tensorflow(n)]}
    with ThreadPoolExecutor(max_workers=2) as pool:
        failed = {}
        for result in pool.map(_import_alone, groups.values(), groups):
            failed.update(result)
    assert failed == {}


def test_a_module_that_cannot_import_alone_is_reported(tmp_path):
    bad = tmp_path / "pycg_alone_probe.py"
    bad.write_text("import pycg.tensor\nraise ImportError('needs x first')\n")
    env = dict(os.environ, PYCG_BACKEND="numpy", PYTHONPATH=os.pathsep.join(
        [str(ROOT), str(tmp_path)]))
    run = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "support" / "import_alone.py"),
         "pycg_alone_probe", "pycg.config"], env=env, capture_output=True,
        text=True, timeout=300)
    failed = json.loads(run.stdout.strip().splitlines()[-1])
    assert list(failed) == ["pycg_alone_probe"]
    assert "needs x first" in failed["pycg_alone_probe"]


def _docstring_lines(tree):
    """Line numbers of the docstrings in a module's syntax tree: a string
    standing alone as a statement (a module's, class's or function's
    docstring, or an attribute docstring under an assignment)."""
    lines = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) \
                and isinstance(node.value.value, str):
            lines.update(range(node.lineno, node.end_lineno + 1))
    return lines


def code_lines(path):
    """How many lines of `path` are code: not blank, not a comment, not in
    a docstring (the budget is code, so documentation stays beside what it
    documents)."""
    text = path.read_text()
    docs = _docstring_lines(ast.parse(text)) if path.suffix == ".py" else set()
    return sum(1 for i, line in enumerate(text.splitlines(), 1)
               if line.strip() and not line.strip().startswith("#")
               and i not in docs)


def test_the_budget_counts_code_not_docstrings_or_comments(tmp_path):
    f = tmp_path / "m.py"
    f.write_text('"""A module.\n\nMore."""\nimport os  # why\n\n# a note\n'
                 'def f(x):\n    """Its doc.\n\n    Args:\n        x: it.\n'
                 '    """\n    return x\n\n\nN = 1\n"""N\'s doc."""\n'
                 's = """not a\ndocstring"""\n')
    assert code_lines(f) == 6   # import, def, return, N =, s = (2 lines)


def test_no_file_in_pycg_is_over_the_line_budget():
    long = {str(p.relative_to(ROOT)): n for p in PKG.rglob("*")
            if p.suffix in (".py", ".R") and
            (n := code_lines(p)) > LINE_BUDGET}
    assert long == {}


def _globals_writes(tree):
    """Lines where a module writes its own namespace by hand:
    `globals().update(...)` or `globals()[...] = ...` (a name is then bound
    where no grep for `^name = ` or `def name` finds it)."""
    def is_globals(node):
        return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
            and node.func.id == "globals"
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("update", "setdefault") \
                and is_globals(node.func.value):
            lines.append(node.lineno)
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) \
            else []
        lines += [t.lineno for t in targets
                  if isinstance(t, ast.Subscript) and is_globals(t.value)]
    return sorted(lines)


def test_no_module_in_pycg_writes_its_globals_by_hand():
    writes = {f"{p.relative_to(ROOT)}:{n}" for p in PKG.rglob("*.py")
              for n in _globals_writes(ast.parse(p.read_text()))}
    assert writes == set()


def test_the_globals_check_sees_update_and_item_assignment():
    tree = ast.parse("globals().update(a=1)\nglobals()['b'] = 2\n"
                     "x = globals()['c']\nglobals()['d'] += 1\n")
    assert _globals_writes(tree) == [1, 2, 4]



# the modules of ops/_machinery/ that every topic file shares: none of them
# imports a topic module (an op of pycg.ops), so that arrows from the
# machinery never run up to the ops built on it
def _topic_modules():
    return {n for n in MODULES if n.startswith("pycg.ops.")
            and not n.startswith(("pycg.ops._", "pycg.ops.rules"))}


def test_the_ops_machinery_imports_no_topic_module():
    machinery = {n for n in MODULES if n.startswith("pycg.ops._machinery")}
    found = sorted((m, d) for m in machinery for d in GRAPH[m]
                   if d in _topic_modules())
    assert found == []


def test_the_topic_modules_include_elementwise_and_leave_out_rules():
    topics = _topic_modules()
    assert {"pycg.ops.elementwise", "pycg.ops.linalg"} <= topics
    assert not any(n.startswith(("pycg.ops.rules", "pycg.ops._"))
                   for n in topics)
