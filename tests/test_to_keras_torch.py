"""pycg.to_keras on Keras' torch backend: a model whose activation is a
pycg rule trains with model.fit to the same weights as the same model with
the rule written with keras.ops.custom_gradient, and a Keras variable
handed to a pycg function gets its gradient (a fresh interpreter: Keras
reads KERAS_BACKEND at import)."""
import json
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(__file__)


def test_a_keras_model_on_torch_trains_as_with_keras_custom_gradient():
    pytest.importorskip("torch")
    pytest.importorskip("keras")
    env = {k: v for k, v in os.environ.items() if k != "PYCG_BACKEND"}
    env["KERAS_BACKEND"] = "torch"
    r = subprocess.run([sys.executable, os.path.join(
        HERE, "support", "keras_torch_fit_script.py")], env=env,
        capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["backend"] == "torch"
    assert out["shapes"] == [[6, 16], [16], [16], [16, 1], [1]]
    assert out["max_difference"] <= 1e-6
    assert out["moved"] > 1e-3   # (the Keras variable trained through pycg)
    pycg_loss, keras_loss = out["losses"]
    assert len(pycg_loss) == 4 and pycg_loss[-1] < pycg_loss[0]
    assert pycg_loss == pytest.approx(keras_loss, rel=1e-5)
