"""The packages `make dist` builds into dist/, each installed into a clean
environment and run, as a user installs them (README, "Install"):

- the wheel into a fresh virtual environment (no pycg, no TensorFlow: the
  numpy backend), then the README's first Python rule, which must print
  what its comments say;
- the sdist into another, built by pip from its sources alone;
- the R source tarball into a fresh R library, then the README's R rule,
  run against the wheel's environment (PYCG_PYTHON).

`make test-dist` builds dist/ and runs this file (a few minutes: not part of
`make test`). The package index pip uses must serve NumPy (and hatchling,
for the sdist)."""
import os
import pathlib
import subprocess
import sys
import tarfile

import pytest

from support import doc_examples

ROOT = pathlib.Path(__file__).resolve().parent.parent
DIST = ROOT / "dist"


def _one(pattern):
    found = sorted(DIST.glob(pattern))
    if len(found) != 1:
        pytest.fail(f"dist/ should hold one {pattern}, holds "
                    f"{[p.name for p in found]}: run `make dist`")
    return found[0]


def _run(cmd, env=None, timeout=900):
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env,
                          timeout=timeout, cwd="/")
    assert proc.returncode == 0, (cmd, proc.stdout[-2000:],
                                  proc.stderr[-3000:])
    return proc.stdout


def _clean_env(**extra):
    """An environment with nothing of this checkout or its venv in it."""
    env = {k: v for k, v in os.environ.items() if k not in (
        "PYTHONPATH", "VIRTUAL_ENV", "R_LIBS", "R_LIBS_USER",
        "RETICULATE_PYTHON", "PYCG_PYTHON", "PYCG_BACKEND")}
    env["TF_CPP_MIN_LOG_LEVEL"] = "3"
    env.update(extra)
    return env


def _venv(path, package):
    _run([sys.executable, "-m", "venv", str(path)])
    python = path / "bin" / "python"
    _run([str(python), "-m", "pip", "install", "-q", str(package)],
         env=_clean_env())
    return python


@pytest.fixture(scope="module")
def wheel_env(tmp_path_factory):
    return _venv(tmp_path_factory.mktemp("wheel") / "venv",
                 _one("pycg_autodiff-*.whl"))


def test_the_wheel_installs_alone_and_runs_the_readmes_first_rule(wheel_env):
    where = _run([str(wheel_env), "-c", "import pycg, os; print(os.path."
                  "dirname(pycg.__file__))"], env=_clean_env())
    assert pathlib.Path(where.strip()).is_relative_to(wheel_env.parent.parent)
    code = doc_examples.first_rule("README.md", "python")
    out = _run([str(wheel_env), "-c", code], env=_clean_env(
        PYTHONWARNINGS="ignore::RuntimeWarning"))
    assert doc_examples.printed(out) == \
        doc_examples.promised(code, "python") == ["1.0", "nan"]


def test_the_sdist_holds_the_sources_and_builds(tmp_path):
    sdist = _one("pycg_autodiff-*.tar.gz")
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    assert {"pycg/__init__.py", "pyproject.toml", "README.md",
            "LICENSE"} <= names
    python = _venv(tmp_path / "venv", sdist)
    version = _run([str(python), "-c", "import pycg; "
                    "print(pycg.__version__)"], env=_clean_env())
    assert version.strip() in sdist.name


def test_the_r_tarball_installs_into_a_fresh_library_and_runs_the_r_rule(
        wheel_env, tmp_path):
    tarball = _one("pycg_[0-9]*.tar.gz")
    lib = tmp_path / "lib"
    lib.mkdir()
    env = _clean_env(R_LIBS=str(lib), PYCG_PYTHON=str(wheel_env),
                     RETICULATE_PYTHON=str(wheel_env))
    _run(["R", "CMD", "INSTALL", "--no-test-load", "-l", str(lib),
          str(tarball)], env=env)
    assert (lib / "pycg" / "DESCRIPTION").is_file()
    code = doc_examples.first_rule("README.md", "r")
    out = _run(["Rscript", "-e", 'cat(find.package("pycg"), "\\n")\n'
                + code], env=env)
    lines = doc_examples.printed(out)
    assert pathlib.Path(lines[0]) == lib / "pycg"
    assert lines[1:] == doc_examples.promised(code, "r") == \
        ["[1] 1", "[1] NaN"]
