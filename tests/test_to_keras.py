"""pycg.to_keras: a pycg rule in a Keras 3 model on the TensorFlow and JAX
backends (model.fit trains through it, one SGD step through a rule that
triples the gradient moves the weights exactly 3x, save and load), and a
clear error on a backend pycg does not reach."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import pycg
from support import backend_switch

HERE = os.path.dirname(__file__)


def _run_keras(backend):
    env = {k: v for k, v in os.environ.items() if k != "PYCG_BACKEND"}
    env["KERAS_BACKEND"] = backend
    if backend == "jax":   # (64-bit mode is the user's choice; off here)
        env.pop("JAX_ENABLE_X64", None)
    r = subprocess.run([sys.executable, os.path.join(
        HERE, "support", "keras_fit_script.py")], env=env,
        capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("backend", ["tensorflow", "jax"])
def test_a_keras_model_trains_through_a_pycg_rule(backend):
    if backend == "jax":
        pytest.importorskip("jax")
    out = _run_keras(backend)
    assert out["backend"] == backend
    plain, tripled = out["moves"]
    # d(mse)/d(out) = 2 * (3 - 0) = 6; kernel gradient x * 6 = [6, 12];
    # the rule makes it [18, 36]; SGD at 0.25 moves by -lr * gradient
    assert plain == [-1.5, -3.0]
    assert tripled == [3 * m for m in plain]
    assert len(out["losses"]) == 3 and all(
        loss == loss for loss in out["losses"])   # (finite: not NaN)
    assert out["same_after_load"]
    assert out["weights"] == out["loaded_weights"]
    # a dropout drawn inside the rule: the backward uses the forward's mask
    # (eager pycg's first draw of the generator, as one step drew once), so
    # the kernel moves by -0.25 * 2/8 * 2 * 2 exactly where it was kept
    seed, counter = out["dropout"]["state"]
    assert (seed, counter) == (11, 1)
    with backend_switch.on("numpy"):
        kept = pycg.random.dropout(pycg.ops.ones((8,)), 0.5, seed=(
            pycg.random.SeedGenerator(11))).numpy() != 0
    assert 0 < kept.sum() < 8
    assert out["dropout"]["moves"] == np.where(kept, -0.25, 0.0).tolist()


def test_another_keras_backend_is_a_clear_error(monkeypatch):
    keras = pytest.importorskip("keras")
    monkeypatch.setattr(keras.backend, "backend", lambda: "numpy")

    def rule(x):
        return x
    with pytest.raises(NotImplementedError, match=(
            r"pycg.to_keras\(rule\): Keras' backend is 'numpy', which pycg "
            r"does not support yet; pycg reaches Keras on 'tensorflow', 'jax' "
            r"and 'torch'")):
        pycg.to_keras(rule)


def test_to_keras_is_to_tensorflow_on_keras_tensorflow_backend(monkeypatch):
    keras = pytest.importorskip("keras")
    monkeypatch.setattr(keras.backend, "backend", lambda: "tensorflow")

    def rule(x):
        return x
    assert pycg.to_keras(rule).__pycg_source__ is rule
