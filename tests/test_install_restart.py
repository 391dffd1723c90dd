"""install_pycg() as a user meets it: install into an environment, restart
R (a new Rscript process, the R package in a library of its own, no Python
settings), and pycg is found there, for an environment given by path and
for the default virtualenv `r-pycg`.

The fast tests (make test) make a real virtualenv (python -m venv, whose
bin/python is a link to the interpreter it was made from) and let pip's
part be a .pth file to this checkout's packages; the soak test (make soak,
PYCG_SOAK_INSTALL=1) runs install_pycg() whole, pip and all, from the
sources bundled with the R package."""
import os
import shutil
import site
import subprocess
import sys

import pytest

from support.r_bridge_helpers import ROOT, r_env, require_r

PACKAGE = os.path.join(sys.prefix, "lib", "R", "pycg")


def _library(tmp_path):
    """A copy of the installed R package in a library of its own (so that
    it is not the one inside this checkout's .venv, which pycg would use)."""
    lib = tmp_path / "rlib"
    lib.mkdir()
    shutil.copytree(PACKAGE, lib / "pycg", symlinks=True)
    return str(lib)


def _venv(path):
    """A real virtualenv: bin/python is a link to the base interpreter."""
    base = getattr(sys, "_base_executable", None) or shutil.which("python3")
    subprocess.run([base, "-m", "venv", "--without-pip", str(path)],
                   check=True, capture_output=True)
    python = os.path.join(path, "bin", "python")
    assert os.path.islink(python)
    return python


def _packages_of_this_checkout(venv_python):
    """pip's part, done by a .pth file: the venv sees this checkout's
    packages (NumPy, pycg, TensorFlow)."""
    site_dir = subprocess.run(
        [venv_python, "-c", "import sysconfig; "
         "print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True).stdout.strip()
    os.makedirs(site_dir, exist_ok=True)
    with open(os.path.join(site_dir, "checkout.pth"), "w") as f:
        f.write("\n".join(site.getsitepackages() + [ROOT]) + "\n")


def _rscript(code, env):
    run = subprocess.run(["Rscript", "-e", code], env=env, cwd=env["HOME"],
                         capture_output=True, text=True, timeout=600)
    return run.stdout + run.stderr


def _user_env(tmp_path, lib):
    """A user without Python settings: HOME, R's config and virtualenv
    roots of their own; the R package from `lib`, reticulate from R's."""
    env = {k: v for k, v in r_env().items()
           if k not in ("RETICULATE_PYTHON", "PYCG_PYTHON", "PYTHONPATH",
                        "VIRTUAL_ENV")}
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    # (the numpy backend: what is checked is which Python starts, and
    # TensorFlow's import would only add seconds)
    env.update(PYCG_BACKEND="numpy", HOME=str(home),
               R_USER_CONFIG_DIR=str(tmp_path / "config"),
               WORKON_HOME=str(tmp_path / "virtualenvs"),
               RETICULATE_VIRTUALENV_ROOT=str(tmp_path / "virtualenvs"),
               R_LIBS=lib, R_LIBS_USER=lib)
    return env


NO_PIP = ("utils::assignInNamespace('py_install', function(...) NULL, "
          "'reticulate'); ")
AFTER_RESTART = ("suppressMessages(library(pycg)); info <- pycg_config(); "
                 "cat('\\nPYTHON=', info$python, '\\nPYCG=', "
                 "info$pycg_version, '\\nSUM=', as.numeric(op_add(1, 2)), "
                 "'\\n', sep = '')")


def _found_after_restart(out, python):
    assert f"PYTHON={python}\n" in out, out[-3000:]
    assert "pycg module:      not available" not in out, out[-3000:]
    assert "PYCG=NA" not in out and "SUM=3" in out, out[-3000:]


def test_an_environment_given_by_path_is_used_after_a_restart(tmp_path):
    require_r()
    lib = _library(tmp_path)
    env = _user_env(tmp_path, lib)
    python = _venv(tmp_path / "myenv")
    _packages_of_this_checkout(python)
    out = _rscript(NO_PIP + f"pycg::install_pycg(envname = '{tmp_path}/myenv',"
                   f" source = '{ROOT}', tensorflow = FALSE)", env)
    assert f"({python})" in out, out[-3000:]   # (the link, as recorded)
    out = _rscript(AFTER_RESTART, env)
    _found_after_restart(out, python)
    assert f'install_pycg(envname = "{tmp_path}/myenv")' in out


def test_the_default_r_pycg_is_used_after_a_restart(tmp_path):
    require_r()
    lib = _library(tmp_path)
    env = _user_env(tmp_path, lib)
    python = _venv(tmp_path / "virtualenvs" / "r-pycg")
    _packages_of_this_checkout(python)
    out = _rscript(NO_PIP + "pycg::install_pycg(tensorflow = FALSE)", env)
    assert f"({python})" in out, out[-3000:]
    _found_after_restart(_rscript(AFTER_RESTART, env), python)


@pytest.mark.skipif(os.environ.get("PYCG_SOAK_INSTALL") != "1",
                    reason="make soak: pip installs NumPy and pycg twice")
@pytest.mark.parametrize("envname", ["path", "r-pycg"])
def test_install_pycg_whole_then_a_restart_finds_pycg(tmp_path, envname):
    require_r()
    lib = _library(tmp_path)
    env = _user_env(tmp_path, lib)
    target = (f"envname = '{tmp_path}/fresh', " if envname == "path" else "")
    out = _rscript(f"pycg::install_pycg({target}tensorflow = FALSE)", env)
    python = (tmp_path / "fresh" if envname == "path" else
              tmp_path / "virtualenvs" / "r-pycg") / "bin" / "python"
    assert f"({python})" in out, out[-3000:]
    _found_after_restart(_rscript(AFTER_RESTART, env), str(python))
