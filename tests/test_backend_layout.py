"""Every backend is a package with the same topic files and the same kernel
names (docs/architecture.md, "A new backend"): a kernel one backend lacks
fails here, not in the op that first calls it under that backend."""
import ast
import pathlib
import types

import pytest

from pycg import backends

ROOT = pathlib.Path(backends.__file__).parent
FOLDERS = sorted(p.name for p in ROOT.iterdir()
                 if (p / "__init__.py").is_file())


def _public_files(name):
    return sorted(p.name for p in (ROOT / name).glob("*.py")
                  if not p.name.startswith("_"))


def _kernels(module):
    return {k for k, v in vars(module).items() if not k.startswith("_")
            and not isinstance(v, types.ModuleType)}


def _loaded():
    out = {}
    for name in backends.NAMES:
        try:
            out[name] = backends.load(name)
        except ModuleNotFoundError:   # (an optional framework not installed)
            continue
    return out


def test_every_backend_name_is_a_package():
    assert sorted(backends.NAMES) == FOLDERS


def test_every_backend_has_the_same_topic_files():
    files = {name: _public_files(name) for name in FOLDERS}
    assert files["numpy"] == ["core.py", "linalg.py", "math.py", "nn.py",
                              "numpy.py"]
    assert {n: f for n, f in files.items() if f != files["numpy"]} == {}


@pytest.mark.parametrize("name", [n for n in FOLDERS if n != "numpy"])
def test_every_backend_exports_the_numpy_backends_kernel_names(name):
    loaded = _loaded()
    if name not in loaded:
        pytest.skip(f"the {name} backend's framework is not installed")
    reference = _kernels(loaded["numpy"]) - backends.OPTIONAL
    mine = _kernels(loaded[name]) - backends.OPTIONAL
    assert (sorted(reference - mine), sorted(mine - reference)) == ([], [])


def test_the_kernel_names_leave_out_the_topic_modules():
    numpy = backends.load("numpy")
    assert {"add", "matmul", "scalar", "variable", "erf", "tanh_grad"} <= \
        _kernels(numpy)
    assert not {"core", "numpy", "math", "np"} & _kernels(numpy)


def _top_level_bindings(folder):
    """Names that a def, class or assignment binds at the top level of a
    file of `folder` (imports and star imports are not bindings)."""
    bound = set()
    for path in folder.glob("*.py"):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                bound.add(node.name)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) \
                    else [node.target]
                bound.update(n.id for t in targets for n in ast.walk(t)
                             if isinstance(n, ast.Name))
    return bound


@pytest.mark.parametrize("name", FOLDERS)
def test_every_kernel_is_bound_by_its_name_in_its_backends_folder(name):
    # `grep -n "^cumsum = \|^def cumsum" pycg/backends/jax/` finds it
    loaded = _loaded()
    if name not in loaded:
        pytest.skip(f"the {name} backend's framework is not installed")
    hidden = _kernels(loaded[name]) - _top_level_bindings(ROOT / name)
    assert sorted(hidden) == []


def test_the_binding_check_ignores_imports_and_reads_tuples(tmp_path):
    (tmp_path / "k.py").write_text(
        "from x import y\nimport z\nfrom w import *\n"
        "def f(): pass\na, b = 1, 2\nc: int = 3\n")
    assert _top_level_bindings(tmp_path) == {"f", "a", "b", "c"}
