"""Every public name of pycg documents itself: a summary, `Args:` naming
each parameter of its signature, `Returns:` (a class: its constructor's
arguments), and its examples run; every op that answers differently from
keras.ops by choice says so in its docstring."""
import doctest
import importlib
import importlib.util
import inspect
import pathlib
import pydoc
import re
import subprocess
import sys
import tomllib

import pytest

import pycg
from support.keras_differences import CHOSEN

NAMESPACES = ["pycg", "pycg.ops", "pycg.optimizers", "pycg.random", "pycg.r"]


# public modules without __all__: their names are what they define
SUBMODULES = ["pycg.config", "pycg.debug", "pycg.optimize",
              "pycg.optimizers.schedules"]


def _names(module):
    if hasattr(module, "__all__"):
        return module.__all__
    return [n for n, v in vars(module).items() if not n.startswith("_")
            and getattr(v, "__module__", None) == module.__name__]


def _public():
    out = []
    for space in NAMESPACES + SUBMODULES:
        module = importlib.import_module(space)
        for name in _names(module):
            value = getattr(module, name)
            if not isinstance(value, str):
                out.append((f"{space}.{name}", value))
    return out


def _members(classes):
    """The public methods, properties and attributes of Tensor and
    Variable (an inherited one once, under the class that defines it)."""
    out = {}
    for cls in classes:
        for name in dir(cls):
            value = inspect.getattr_static(cls, name)
            if not name.startswith("_") and id(value) not in out:
                out[id(value)] = (f"pycg.{cls.__name__}.{name}", value)
    return list(out.values())


MEMBERS = _members([pycg.Tensor, pycg.Variable])
PUBLIC = _public() + MEMBERS
CALLABLES = [(n, v) for n, v in PUBLIC if callable(v)]


def _parameters(value):
    target = value.__init__ if inspect.isclass(value) else value
    if not (inspect.isfunction(target) or inspect.ismethod(target)
            or hasattr(target, "__wrapped__") or callable(target)
            and not inspect.isclass(value)):
        return []   # (a class without an __init__ of its own: Warning's)
    try:
        sig = inspect.signature(target)
    except (TypeError, ValueError):
        return []
    return [("*" if p.kind is p.VAR_POSITIONAL else
             "**" if p.kind is p.VAR_KEYWORD else "") + p.name
            for p in sig.parameters.values() if p.name != "self"]


def _section(doc, title):
    """The lines of section `title` of a Google-style docstring."""
    m = re.search(rf"^\s*{title}:\n((?:\s+.*\n?|\n)+?)(?=^\S|^\s*\w+:\n|\Z)",
                  doc, re.M)
    return m.group(1) if m else None


@pytest.mark.parametrize("name,value", PUBLIC, ids=[n for n, _ in PUBLIC])
def test_public_name_has_a_summary(name, value):
    doc = inspect.getdoc(value) or ""
    assert doc.strip(), f"{name} has no docstring"
    first = doc.strip().splitlines()[0]
    assert len(first) > 10 and not first.startswith(("Args", "Returns")), \
        f"{name}: no summary line"


@pytest.mark.parametrize("name,value", CALLABLES,
                         ids=[n for n, _ in CALLABLES])
def test_public_callable_documents_each_argument_and_its_result(name,
                                                                value):
    doc = inspect.getdoc(value) or ""
    params = _parameters(value)
    if params:
        args = _section(doc, "Args")
        assert args is not None, f"{name}: no Args section"
        named = set(re.findall(r"^\s{0,8}(\*{0,2}\w+)(?: \(.*?\))?:", args,
                               re.M))
        missing = [p for p in params if p not in named]
        assert missing == [], f"{name}: Args misses {missing}"
    if not inspect.isclass(value):
        assert _section(doc, "Returns") or _section(doc, "Yields"), \
            f"{name}: no Returns section"


@pytest.mark.parametrize("name,value", MEMBERS, ids=[n for n, _ in MEMBERS])
def test_a_tensor_member_has_types(name, value):
    fn = value.fget if isinstance(value, property) else value
    if not inspect.isfunction(fn):
        return   # (a slot: Variable.trainable and .name, typed in __init__)
    sig = inspect.signature(fn)
    assert sig.return_annotation is not sig.empty, f"{name}: no return type"
    untyped = [p.name for p in sig.parameters.values()
               if p.name != "self" and p.annotation is p.empty]
    assert untyped == [], f"{name}: untyped parameters {untyped}"


def test_the_typed_operators_are_the_installed_ones():
    # pycg.tensor.operator_types declares for type checkers the operators that
    # pycg.ops installs on Tensor; each is a pycg op, none left undeclared
    from pycg.ops import _operators
    from pycg.tensor.operator_types import INSTALLED

    class Probe:
        pass

    class VariableProbe:
        pass

    saved = _operators.Tensor, _operators.Variable
    _operators.Tensor, _operators.Variable = Probe, VariableProbe
    try:
        _operators.install()
    finally:
        _operators.Tensor, _operators.Variable = saved
    installed = set(vars(Probe)) - set(vars(type("Empty", (), {})))
    assert installed - {"__tf_tensor__"} == INSTALLED
    assert set(vars(VariableProbe)) - set(vars(type("Empty", (), {}))) \
        == INSTALLED - {"__pos__"}   # (+v is v, as +t is t)


def test_every_op_is_documented_once_not_by_a_placeholder():
    texts = [getattr(pycg.ops, n).__doc__ for n in pycg.ops.__all__]
    assert not [t for t in texts if "differentiable.\n" in t[:60]
                and t.startswith("Elementwise ") and "(x)," in t]


def _ops_with_chosen_differences():
    names = set()
    for rows in CHOSEN.values():
        names.update(r.split("/")[0] for r in rows)
    return sorted(names & set(pycg.ops.__all__))


@pytest.mark.parametrize("name", _ops_with_chosen_differences())
def test_a_chosen_keras_difference_is_in_the_ops_docstring(name):
    doc = getattr(pycg.ops, name).__doc__
    assert "Differs:" in doc, f"pycg.ops.{name} differs from keras.ops " \
        "by choice (tests/support/keras_differences.py) and its docstring is silent"


def _examples():
    """The doctests in the public docstrings (the factories' ops and the
    wrapped ones are not in their module's globals, so --doctest-modules
    does not find them)."""
    finder = doctest.DocTestFinder(recurse=False)
    out, seen = [], set()
    for name, value in PUBLIC:
        if id(value) in seen or inspect.ismodule(value):
            continue
        seen.add(id(value))
        for test in finder.find(value, name, globs={}):
            if test.examples:
                out.append(test)
    return out


EXAMPLES = _examples()


@pytest.mark.parametrize("test", EXAMPLES, ids=[t.name for t in EXAMPLES])
def test_public_docstring_example_runs(test):
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS |
                                   doctest.NORMALIZE_WHITESPACE)
    test.globs = {"np": __import__("numpy")}
    report = []
    runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)


def test_pycg_is_marked_as_typed_and_the_marker_is_packaged():
    root = pathlib.Path(pycg.__file__).parent
    assert (root / "py.typed").is_file()
    with open(root.parent / "pyproject.toml", "rb") as f:
        hatch = tomllib.load(f)["tool"]["hatch"]["build"]["targets"]
    assert hatch["wheel"]["packages"] == ["pycg"]   # (the whole folder)
    assert "exclude" not in hatch["wheel"] and "pycg" in \
        hatch["sdist"]["include"]


def test_the_ops_stub_is_generated_from_the_ops():
    spec = importlib.util.spec_from_file_location(
        "ops_stub", pathlib.Path(pycg.__file__).parent.parent / "tools" /
        "ops_stub.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with open(module.STUB) as f:
        assert f.read() == module.stub(), "run python tools/ops_stub.py"


def test_the_type_checker_reads_the_public_types(tmp_path):
    user = tmp_path / "user.py"
    user.write_text(
        "import pycg\nfrom pycg import ops\n"
        "y: pycg.Tensor = ops.sum(ops.ones((2,)), axis=0)\n"
        "n: int = ops.ndim(y)\n"
        "bad: str = ops.exp(1.0)\n"
        "pycg.random.normal((2,), seed='one')\n"
        "v = pycg.Variable(1.0)\n"
        "t: pycg.Tensor = 2.0 * (v.assign(3.0).read() + 1) / y[0] @ y\n"
        "m: int = y.ndim + y.size + len(y.shape) + (y > 0).numpy().size\n"
        "worse: str = (v - 1) ** 2\n")
    # (in its own process: mypy.api sets this process's GC thresholds)
    run = subprocess.run(
        [sys.executable, "-m", "mypy", str(user), "--cache-dir",
         str(tmp_path / "c"), "--follow-imports", "silent"],
        capture_output=True, text=True, timeout=600)
    out, status = run.stdout, run.returncode
    errors = [line for line in out.splitlines() if ": error:" in line]
    assert status == 1 and len(errors) == 3, out
    assert "user.py:5:" in errors[0] and "Tensor" in errors[0]
    assert "user.py:6:" in errors[1] and "seed" in errors[1]
    assert "user.py:10:" in errors[2] and '"Tensor"' in errors[2]


def _normalised(text):
    return " ".join(text.split())


def test_the_choices_in_help_are_the_readmes():
    readme = (pathlib.Path(pycg.__file__).parent.parent /
              "README.md").read_text()
    section = readme.split("## Choices where the peers differ\n", 1)[1]
    section = section.split("\n## ", 1)[0]
    doc = pycg.conventions.__doc__.split("==============================\n",
                                         1)[1]
    doc = doc.split("custom_gradient's calling conventions", 1)[0]
    assert _normalised(doc) == _normalised(section)


def test_help_of_pycg_conventions_shows_the_tables_and_the_choices():
    text = pydoc.render_doc(pycg.conventions, renderer=pydoc.plaintext)
    assert "Choices where the peers differ" in text
    assert "Dividing two integer or bool operands gives floatx" in text
    assert "grad_fn's signature" in text and "grad_fn returns" in text
    assert "help(pycg.conventions)" in pycg.__doc__


METHODS = [(pycg.GradientTape, n) for n in (
    "watch", "gradient", "jacobian", "batch_jacobian", "stop_recording",
    "reset", "watched_variables", "explain")] + [
    (pycg.optimizers.Optimizer, n) for n in (
        "apply", "apply_gradients", "build", "build_slots", "add_slots",
        "slot_index", "update_step", "exclude_from_weight_decay")]


@pytest.mark.parametrize("cls,name", METHODS,
                         ids=[f"{c.__name__}.{n}" for c, n in METHODS])
def test_public_methods_document_their_arguments(cls, name):
    method = getattr(cls, name)
    doc = inspect.getdoc(method)
    params = _parameters(method)
    if params:
        args = _section(doc, "Args")
        assert args is not None and all(
            re.search(rf"^\s*{re.escape(p)}:", args, re.M) for p in params)
    assert _section(doc, "Returns"), name
