"""pycg.to_torch under DistributedDataParallel: two processes on gloo over
127.0.0.1, each on half the batch, end with the weights of one process on
the whole batch (a subprocess, a free port, a timeout)."""
import json
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(__file__)


def test_two_processes_train_as_one_on_the_whole_batch(tmp_path):
    torch = pytest.importorskip("torch")
    if not torch.distributed.is_available():
        pytest.skip("this torch has no torch.distributed")
    env = {k: v for k, v in os.environ.items() if k != "PYCG_BACKEND"}
    r = subprocess.run([sys.executable, os.path.join(
        HERE, "support", "torch_ddp_script.py"), str(tmp_path / "w.pt")],
        env=env, capture_output=True, text=True, timeout=240)
    assert r.returncode == 0, r.stderr[-3000:]
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["moved"] > 1e-3
    assert out["difference"] <= 1e-6
