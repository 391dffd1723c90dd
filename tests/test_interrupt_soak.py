"""Ctrl-C at random points of forward, backward, custom rules,
pycg.function traces and (through pycg.r) R forwards and R rules, on both
backends: each run finishes with the reference gradient or raises
KeyboardInterrupt, leaves nothing recording, and the next gradient is right
(tests/support/interrupt_soak.py). `make soak` runs more rounds
(PYCG_SOAK_ROUNDS); the figures print with -s."""
import json
import os
import subprocess
import sys

import pytest

from support.r_bridge_helpers import r_env, require_r

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOAK = os.path.join(ROOT, "tests", "support", "interrupt_soak.py")
ROUNDS = int(os.environ.get("PYCG_SOAK_ROUNDS", "40"))


@pytest.mark.parametrize("with_r", [False, True], ids=["python", "pycg.r"])
def test_ctrl_c_at_random_points_leaves_runs_whole(with_r):
    if with_r:
        require_r()
    seed = 20261125 + with_r
    run = subprocess.run(
        [sys.executable, SOAK, str(ROUNDS), str(seed)]
        + (["--r"] if with_r else []),
        cwd=ROOT, env=r_env(), capture_output=True, text=True,
        timeout=120 + 3 * ROUNDS)
    assert run.returncode == 0, run.stderr[-3000:]
    figures = json.loads(run.stdout.strip().splitlines()[-1])
    print(f"\n{'pycg.r' if with_r else 'python'}: {figures}")
    assert figures["problems"] == []
    assert figures["runs"] == ROUNDS
    assert figures["finished"] + figures["interrupted"] == ROUNDS
    assert (figures["wrong"], figures["dirty"], figures["stuck"],
            figures["other"]) == (0, 0, 0, 0)
    # (the random moments reach both outcomes)
    assert figures["finished"] > 0 and figures["interrupted"] > 0
