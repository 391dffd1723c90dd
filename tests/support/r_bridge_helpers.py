"""Shared by the R bridge tests: fail (never skip) when R or rpy2 is missing,
and run Python snippets in a fresh process that uses the bridge."""
import os
import shutil
import subprocess
import sys
import textwrap

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
SETUP_HINT = ("run `make test`, which installs R, rpy2 and the R package "
              "pycg into .venv")


def require_r():
    """Fail the test, with the fix, when R, rpy2 or reticulate is missing."""
    if shutil.which("R") is None or shutil.which("Rscript") is None:
        pytest.fail(f"R is not installed: {SETUP_HINT}")
    try:
        import rpy2  # noqa: F401
    except ImportError as e:
        pytest.fail(f"rpy2 is not installed ({e}): {SETUP_HINT}")


def r_env():
    """The environment a subprocess needs to find the R package."""
    env = dict(os.environ)
    lib = os.path.join(sys.prefix, "lib", "R")
    if os.path.isdir(lib) and "R_LIBS" not in env:
        env["R_LIBS"] = lib
    env.setdefault("RETICULATE_PYTHON", sys.executable)
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    env["PYTHONPATH"] = os.pathsep.join(
        [ROOT] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep)
                  if p])
    return env


def run_python(code, timeout=600, env=None):
    """Run `code` in a fresh interpreter, with `env` (a dict) added to its
    environment; return (exit status, output)."""
    proc = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT,
        env={**r_env(), **(env or {})}, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True, timeout=timeout)
    return proc.returncode, proc.stdout
