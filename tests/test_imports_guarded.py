"""Nothing pycg imports comes from the working directory (pycg/_imports.py):
`python -c` puts it first on sys.path, as R's reticulate does, and a
`tensorflow.py` there ran at the first op, which then fell back to the
numpy backend in silence. Here a file is planted in the working directory
for every module installed (the standard library and site-packages, ~600
names) and a pycg session runs from there (tensorflow and jax backends,
pycg.function, to_jax, to_keras, save, random, Adam): none of them runs,
and its answers are a clean run's, on the tensorflow backend. A planted module that the
user imported before pycg is refused by name; a function-level import in
pycg is guarded, or imports a backend that is loaded whenever it runs."""
import ast
import importlib.util
import json
import math
import os
import pathlib
import pkgutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent

SESSION = r"""
import sys
first = sys.path.pop(0)   # (the harness's own imports: not from there)
import json, os
sys.path.insert(0, first)
import pycg
from pycg import ops
out = {"default": pycg.config.backend()}
out["sum"] = float(ops.sum(ops.exp(ops.convert_to_tensor([0.0, 1.0]))))
f = pycg.function(lambda x: ops.sin(x) * 2.0)
out["function"] = float(f(ops.convert_to_tensor(0.5)))
pycg.save_variables("w.npz", [pycg.Variable([1.0, 2.0], name="w")])
pycg.random.normal((2,), seed=1)
pycg.optimizers.Adam().apply([ops.ones((2,))], [pycg.Variable([1.0, 2.0])])
if os.environ.get("WITH_JAX"):
    pycg.config.set_backend("jax")
    out["jax"] = float(pycg.function(lambda x: ops.cos(x))(
        ops.convert_to_tensor(0.0)))
    g = pycg.to_jax(pycg.custom_gradient(lambda x: (x * 3.0, lambda d: d)))
    import jax
    out["to_jax"] = float(jax.grad(lambda x: g(x))(1.0))
    pycg.config.set_backend("tensorflow")
    pycg.to_keras(pycg.custom_gradient(lambda x: (x, lambda d: d)))
print(json.dumps(out))
"""
PLANTED = """import os
open(os.path.join({folder!r}, {name!r}), "w").close()
raise ImportError("a planted {name}.py ran")
"""


def run(cwd, code, env=None):
    return subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, capture_output=True,
        text=True, timeout=600,
        env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3",
             "PYCG_BACKEND": "", **(env or {})})


def installed_names():
    """Every top-level module installed for this Python (the standard
    library and site-packages), less the built-in ones and pycg."""
    folders = [p for p in sys.path if p and os.path.isdir(p) and
               not os.path.samefile(p, ROOT)]
    return sorted({m.name for m in pkgutil.iter_modules(folders)} -
                  set(sys.builtin_module_names) - {"pycg", "__main__"})


WITH_JAX = bool(importlib.util.find_spec("jax"))


def test_no_module_installed_is_taken_from_the_working_directory(tmp_path):
    planted, ran = tmp_path / "planted", tmp_path / "ran"
    planted.mkdir()
    ran.mkdir()
    env = {"WITH_JAX": "1"} if WITH_JAX else {}
    names = installed_names()
    assert {"tensorflow", "numpy", "ml_dtypes", "json", "ctypes"} <= \
        set(names)
    for name in names:
        (planted / f"{name}.py").write_text(
            PLANTED.format(folder=str(ran), name=name))
    got = run(planted, SESSION, env)
    print(f"\n{len(names)} modules planted in the working directory")
    assert sorted(os.listdir(ran)) == [], "planted files ran"
    assert got.returncode == 0, got.stderr[-3000:]
    answers = json.loads(got.stdout.strip().splitlines()[-1])
    assert answers.pop("default") == "tensorflow"   # (no numpy fallback)
    expected = {"sum": 1 + math.e, "function": 2 * math.sin(0.5)}
    if WITH_JAX:
        expected.update(jax=1.0, to_jax=1.0)   # (the rule: d, not 3d)
    assert answers == pytest.approx(expected, rel=1e-6)


USER_FIRST = r"""
import {name}
try:
    import pycg
    {then}
except ImportError as e:
    print(type(e).__name__, e)
"""


@pytest.mark.parametrize("name, then", [
    ("tensorflow", "pycg.ops.add(1.0, 2.0)"),
    ("numpy", "pass"),
    ("jax", "pycg.config.set_backend('jax')"),
])
def test_a_module_the_user_imported_from_there_is_refused_by_name(
        tmp_path, name, then):
    (tmp_path / f"{name}.py").write_text("VALUE = 1\n")
    got = run(tmp_path, USER_FIRST.format(name=name, then=then))
    assert got.returncode == 0, got.stderr[-3000:]
    assert got.stdout.strip() == (
        f"ShadowedModuleError pycg: the module {name!r} was imported from the "
        f"working directory ({tmp_path / name}.py), not from where it is "
        f"installed; pycg never uses modules from the working directory. "
        f"Rename or remove {tmp_path / name}.py and restart Python (or R)")


def test_the_users_own_modules_there_still_import(tmp_path):
    (tmp_path / "mine.py").write_text("VALUE = 7\n")
    got = run(tmp_path, "import pycg; import mine; pycg.ops.add(1, 2); "
                        "print(mine.VALUE)", {"PYCG_BACKEND": "numpy"})
    assert got.returncode == 0, got.stderr[-3000:]
    assert got.stdout.strip() == "7"


# ---- imports inside pycg's functions ----------------------------------------
# (module -> why it is in sys.modules whenever a function can import it)
LOADED = {
    "tensorflow": "the tensorflow backend is loaded (guarded) before any "
                  "function that imports it can run",
    "jax": "likewise the jax backend",
    "numpy": "`import pycg` imports it, guarded",
}


def _guarded_block(parents):
    return any(isinstance(p, ast.With) and any(
        "guarded" in ast.unparse(item.context_expr) for item in p.items)
        for p in parents)


def _function_imports(node, parents=(), in_function=False):
    """(import node, its enclosing nodes) of imports inside functions."""
    here = in_function or isinstance(node, (ast.FunctionDef,
                                            ast.AsyncFunctionDef))
    for child in ast.iter_child_nodes(node):
        if here and isinstance(child, (ast.Import, ast.ImportFrom)):
            yield child, parents
        yield from _function_imports(child, parents + (child,), here)


def unguarded_imports():
    found = []
    for path in sorted((ROOT / "pycg").rglob("*.py")):
        for node, parents in _function_imports(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level:
                continue   # (pycg's own, relative)
            names = [a.name for a in node.names] if isinstance(
                node, ast.Import) else [node.module or ""]
            for name in names:
                top = name.partition(".")[0]
                if top != "pycg" and top not in LOADED and \
                        not _guarded_block(parents):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} "
                                 f"{name}")
    return found


def test_every_import_inside_a_pycg_function_is_guarded():
    assert unguarded_imports() == []
