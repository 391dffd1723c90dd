"""The Python distribution and the R package agree on names and versions.

The import name is `pycg`, but `pycg` on PyPI is an unrelated project, so
the distribution has its own name and nothing installs `pycg` by name."""
import os
import re
import subprocess
import textwrap
import tomllib

import pycg
from support.r_bridge_helpers import r_env, require_r

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DISTRIBUTION = "pycg-autodiff"


def _pyproject():
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        return tomllib.load(f)


def _description_field(name):
    with open(os.path.join(ROOT, "DESCRIPTION")) as f:
        match = re.search(rf"^{name}:\s*(\S+)", f.read(), re.MULTILINE)
    assert match, f"DESCRIPTION has no {name} field"
    return match.group(1)


def _normalised(name):
    return re.sub(r"[-_.]+", "-", name).lower()


# The oldest version of each requirement the test suite is known to pass on
# (those of the venv `make test` ran on, December 2026); a lower bound
# below it admits an untested version (jax>=0.4.30 admitted a JAX without
# jax.lax.optimization_barrier, with which set_backend("jax") failed).
# Lower one only after the suite passed on the lower version.
TESTED_OLDEST = {
    "numpy": "2.4.6", "tensorflow": "2.21.0", "tensorflow-cpu": "2.21.0",
    "rpy2": "3.5.17", "scipy": "1.17.1", "jax": "0.10.2", "torch": "2.13.0",
    "pytest": "9.2.0", "hypothesis": "6.170.17", "ruff": "0.17.6",
    "mypy": "2.4.1", "pdoc": "16.0.0"}


def _requirements():
    project = _pyproject()["project"]
    yield from project["dependencies"]
    for extra in project["optional-dependencies"].values():
        yield from extra


def _release(version):
    return tuple(int(p) for p in re.match(r"\d+(\.\d+)*", version)
                 .group().split("."))


def test_every_lower_bound_is_a_version_the_tests_passed_on():
    too_low = []
    for requirement in _requirements():
        match = re.fullmatch(r"([A-Za-z0-9_.-]+)>=([0-9.]+)(,.*)?",
                             requirement)
        assert match, f"{requirement!r} has no lower bound"
        name, bound = _normalised(match.group(1)), match.group(2)
        assert name in TESTED_OLDEST, f"{name}: add its tested version"
        if _release(bound) < _release(TESTED_OLDEST[name]):
            too_low.append(requirement)
    assert too_low == []


def test_the_installed_versions_are_within_the_bounds():
    from importlib import metadata
    for requirement in _requirements():
        name, bound = re.match(r"([A-Za-z0-9_.-]+)>=([0-9.]+)",
                               requirement).groups()
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
        assert _release(installed) >= _release(bound), (name, installed)


def test_the_distribution_is_not_named_pycg():
    name = _pyproject()["project"]["name"]
    assert _normalised(name) != "pycg", (
        "pyproject.toml names the distribution `pycg`, which on PyPI is an "
        "unrelated project")
    assert name == DISTRIBUTION


def test_the_wheel_still_holds_the_pycg_package():
    wheel = _pyproject()["tool"]["hatch"]["build"]["targets"]["wheel"]
    assert wheel["packages"] == ["pycg"]


def test_python_and_r_versions_are_equal():
    version = _pyproject()["project"]["version"]
    assert _description_field("Version") == version
    assert pycg.__version__ == version


def _r_code(path):
    """R source without roxygen or comment lines."""
    with open(path) as f:
        return "\n".join(line for line in f.read().splitlines()
                         if not line.lstrip().startswith("#"))


def test_install_r_names_pycg_only_as_the_r_package():
    code = _r_code(os.path.join(ROOT, "R", "install.R"))
    bare = re.compile(r"""(["'])pycg\s*(\[[^\]]*\])?\s*([<>=!~][^"']*)?\1""")
    for match in bare.finditer(code):
        before = code[:match.start()]
        # (the package's own files and its R_user_dir are not pip's)
        assert re.search(r"(system\.file\([^()]*package\s*=|"
                         r"R_user_dir\()\s*$", before), (
            "R/install.R names `pycg` where pip could see it (on PyPI "
            "`pycg` is an unrelated project): "
            f"...{code[max(0, match.start() - 60):match.end()]}")
    assert f'"{DISTRIBUTION}"' in code


def test_install_pycg_hands_pip_a_path_never_a_name(tmp_path):
    require_r()
    (tmp_path / "pyproject.toml").write_text("")
    script = f"""
    seen <- character()
    utils::assignInNamespace("py_install", function(packages, ...)
      seen <<- c(seen, packages), "reticulate")
    utils::assignInNamespace("virtualenv_create", function(...) NULL,
                             "reticulate")
    suppressMessages(pycg::install_pycg(source = "{tmp_path}"))
    suppressMessages(pycg::install_pycg(source = "{tmp_path}",
                                        tensorflow = FALSE))
    msg <- if (is.null(pycg:::bundled_python_source()))
      tryCatch(pycg::install_pycg(), message = conditionMessage) else ""
    cat(seen, sep = "\\n")
    cat("--hint--\\n", msg)
    """
    proc = subprocess.run(["Rscript", "-e", textwrap.dedent(script)],
                          cwd=ROOT, env=r_env(), capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    seen, hint = proc.stdout.split("--hint--")
    src = os.path.realpath(tmp_path)
    assert seen.split() == [src, "tensorflow-cpu", src]
    if hint.strip():
        assert f"pip install \"{DISTRIBUTION}[tensorflow-cpu] @ " in hint


def test_configure_bundles_the_python_sources_for_the_r_package(tmp_path):
    """`R CMD INSTALL .` and `R CMD build` (through ./cleanup) run
    ./configure, which copies pycg/ and what its build reads into
    inst/python/, where install_pycg() finds them."""
    tree = tmp_path / "tree"
    tree.mkdir()
    for name in ("configure", "cleanup", "pyproject.toml", "README.md",
                 "LICENSE", "DESCRIPTION"):
        subprocess.run(["cp", "-p", os.path.join(ROOT, name), str(tree)],
                       check=True)
    subprocess.run(["cp", "-R", os.path.join(ROOT, "pycg"), str(tree)],
                   check=True)
    (tree / "pycg" / "__pycache__").mkdir(exist_ok=True)
    (tree / "pycg" / "__pycache__" / "x.cpython-311.pyc").write_bytes(b"")
    subprocess.run(["./cleanup"], cwd=tree, check=True)
    bundled = tree / "inst" / "python"
    assert (bundled / "pycg" / "__init__.py").read_text() == (
        tree / "pycg" / "__init__.py").read_text()
    assert (bundled / "pyproject.toml").read_text() == (
        tree / "pyproject.toml").read_text()
    assert not list(bundled.rglob("__pycache__"))
    assert not list(bundled.rglob("*.pyc"))
    # in a tarball pycg/ is gone and the bundle stays as it is
    subprocess.run(["rm", "-rf", str(tree / "pycg")], check=True)
    subprocess.run(["./configure"], cwd=tree, check=True)
    assert (bundled / "pycg" / "__init__.py").exists()


def test_the_r_build_keeps_the_bundle_and_drops_the_top_level_copy():
    with open(os.path.join(ROOT, ".Rbuildignore")) as f:
        patterns = [line.strip() for line in f if line.strip()]
    ignored = lambda path: any(re.search(p, path) for p in patterns)
    assert ignored("pycg")
    assert ignored("pyproject.toml")
    assert ignored("inst/python/pycg/__pycache__")
    assert not ignored("inst/python/pycg/__init__.py")
    assert not ignored("inst/python/pyproject.toml")
    assert not ignored("inst/python/README.md")
