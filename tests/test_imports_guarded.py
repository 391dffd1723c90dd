"""Nothing pycg imports comes from the working directory (pycg/_imports.py):
`python -c` puts it first on sys.path, as R's reticulate does, and a
`tensorflow.py` there ran at the first op, which then fell back to the
numpy backend in silence; a `cProfile.py` there ran inside torch's
compiler code, which pycg.to_torch reaches lazily. Here a file is planted
in the working directory for every module installed (the standard library
and site-packages, ~600 names) and a pycg session runs from there
(tensorflow and jax backends, pycg.function, to_jax, to_keras, save,
random, Adam), and each bridge's forward and backward, twice: none of them
runs, and the answers are a clean run's, on the tensorflow backend. A
planted module that the user imported before pycg is refused by name; the
user's own module there still imports, also inside a function pycg
calls."""
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
        env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3", "PYCG_BACKEND": "",
             "PYTHONPATH": str(ROOT), **(env or {})})   # (this pycg)


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


USERS_F = r"""
import pycg
def f(x):
    import mine, helpers.more   # (the user's, beside the script)
    return x * mine.VALUE + helpers.more.VALUE, lambda d: d
print(float(pycg.custom_gradient(f)(pycg.ops.convert_to_tensor(1.0))))
"""


def test_the_users_function_imports_its_modules_there_while_pycg_calls_it(
        tmp_path):
    (tmp_path / "mine.py").write_text("VALUE = 7\n")
    (tmp_path / "helpers").mkdir()
    (tmp_path / "helpers" / "__init__.py").write_text("")
    (tmp_path / "helpers" / "more.py").write_text("VALUE = 0.5\n")
    got = run(tmp_path, USERS_F, {"PYCG_BACKEND": "numpy"})
    assert got.returncode == 0, got.stderr[-3000:]
    assert got.stdout.strip() == "7.5"   # 1 * 7 + 0.5


# ---- imports the frameworks make lazily, inside a bridge's call -------------
# torch.compiler.disable (to_torch) first imports torch._dynamo, and with it
# cProfile, pstats, sympy, ...; JAX's and TensorFlow's gradients, Keras'
# tree and variables have lazy imports of their own. Every installed name is
# planted; the harness imports the framework itself with the working
# directory off sys.path, then calls the bridge (forward and backward, twice:
# the first call and a later one) with it back on.
BRIDGE = r"""
import sys
first = sys.path.pop(0)
import json, os
import numpy as np
import {framework}
sys.path.insert(0, first)
import pycg
from pycg import ops
rule = pycg.custom_gradient(lambda x: (x * 3.0, lambda d: d * 2.0))
out = []
for _ in range(2):
{calls}
print(json.dumps(out))
"""
CALLS = {
    "to_torch": ("torch", """
    g = pycg.to_torch(rule)
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = g(x)
    y.sum().backward()
    out.append([y.tolist(), x.grad.tolist()])"""),
    "to_jax": ("jax", """
    g = pycg.to_jax(rule)
    x = jax.numpy.array([1.0, 2.0])
    loss = lambda x: g(x).sum()
    out.append([g(x).tolist(), jax.grad(loss)(x).tolist()])
    out.append([g(x).tolist(), jax.jit(jax.grad(loss))(x).tolist()])"""),
    "to_tensorflow": ("tensorflow", """
    g = pycg.to_tensorflow(rule)
    x = tensorflow.constant([1.0, 2.0])
    with tensorflow.GradientTape() as tape:
        tape.watch(x)
        y = g(x)
    out.append([y.numpy().tolist(), tape.gradient(y, x).numpy().tolist()])"""),
    "to_keras on torch": ("keras, torch", """
    g = pycg.to_keras(rule)
    x = keras.Variable([1.0, 2.0])
    y = g(x)
    y.sum().backward()
    out.append([y.tolist(), x.value.grad.tolist()])"""),
    "to_keras on tensorflow": ("keras, tensorflow", """
    g = pycg.to_keras(rule)
    x = keras.Variable([1.0, 2.0])
    with tensorflow.GradientTape() as tape:
        y = g(x)
    out.append([y.numpy().tolist(),
                tape.gradient(y, x.value).numpy().tolist()])"""),
}
KERAS_BACKEND = {"to_keras on torch": "torch",
                 "to_keras on tensorflow": "tensorflow"}


@pytest.mark.parametrize("path", list(CALLS))
def test_a_frameworks_lazy_imports_in_a_bridge_call_skip_the_working_directory(
        tmp_path, path):
    framework, calls = CALLS[path]
    for name in framework.split(", "):
        pytest.importorskip(name)
    planted, ran = tmp_path / "planted", tmp_path / "ran"
    planted.mkdir()
    ran.mkdir()
    for name in installed_names():
        (planted / f"{name}.py").write_text(
            PLANTED.format(folder=str(ran), name=name))
    env = {"JAX_ENABLE_X64": "0",
           "KERAS_BACKEND": KERAS_BACKEND.get(path, "tensorflow")}
    got = run(planted, BRIDGE.format(framework=framework, calls=calls), env)
    assert sorted(os.listdir(ran)) == [], "planted files ran"
    assert got.returncode == 0, got.stderr[-3000:]
    # 3x forward; the rule's gradient, 2 per element (not 3)
    answers = json.loads(got.stdout.strip().splitlines()[-1])
    assert answers == [[[3.0, 6.0], [2.0, 2.0]]] * len(answers)
    assert len(answers) == (4 if path == "to_jax" else 2)
