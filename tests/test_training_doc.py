"""docs/training.md runs: every ```python block, in order, in one namespace,
on each backend (make soak; make test: tensorflow), in a fresh interpreter
per backend (run by tests/test_quickstart.py's runner, so `# raises:`
marks work the same)."""
import os
import subprocess
import sys

import pytest

import test_quickstart
from support import grids

DOC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))), "docs", "training.md")


# make test runs the walkthrough on the default backend (tensorflow), make
# soak on both (tests/support/grids.py): each run is a fresh interpreter
# training Keras and pycg models, about 30 s.
@pytest.mark.parametrize("backend", grids.every(["tensorflow", "numpy"], 2))
def test_every_training_walkthrough_block_runs(backend):
    pytest.importorskip("tensorflow")  # the page compares with Keras
    pytest.importorskip("keras")
    env = dict(os.environ, PYCG_BACKEND=backend, TF_CPP_MIN_LOG_LEVEL="3")
    root = os.path.dirname(os.path.dirname(DOC))
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (root, env.get("PYTHONPATH")) if p)
    proc = subprocess.run([sys.executable, test_quickstart.__file__, DOC],
                          env=env, cwd=root, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-6000:]
    assert f"backend {backend}:" in proc.stdout, proc.stdout[-2000:]
    assert "difference" in proc.stdout
