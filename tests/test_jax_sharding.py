"""pycg on several JAX devices: a compiled pycg step (pycg.function on the
jax backend) and jax.jit of a pycg.to_jax rule, given a batch split over a
mesh of two CPU devices (NamedSharding), give one device's values,
gradients, variable updates and draws, and the output shardings of the same
step written in JAX; the blocks of docs/backend-jax.md (a data-parallel
training step of the README's rule) run. In a fresh interpreter: the device
count is fixed when JAX starts (tests/support/jax_sharding_script.py)."""
import json
import os
import subprocess
import sys

import pytest

pytest.importorskip("jax")
SCRIPT = os.path.join(os.path.dirname(__file__), "support",
                      "jax_sharding_script.py")


@pytest.fixture(scope="module")
def checks():
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYCG_BACKEND", "JAX_PLATFORMS")}
    # An all-reduce needs both devices' programs running at once, each on a
    # thread of XLA's CPU client pool (tf_XLAEigen: as many threads as
    # cores, 2 here), and XLA ends the process when one has not arrived
    # after 40 s. What can hold the other device's thread: Eigen's own
    # multi-threading (a device's matmul hands work to the thread that
    # waits in the all-reduce), and the programs dispatched ahead (eager
    # ops and steps run asynchronously: on busy cores several are queued,
    # and an idle thread steals the newest task, so both threads can sit in
    # all-reduces whose partners wait behind them: a deadlock, not a slow
    # thread). So: single-threaded ops per device, and a pool of 16 threads
    # (PJRT_NPROC) whatever the machine's cores: a thread for each device
    # of 8 programs in flight, so a device's program always finds one.
    env["XLA_FLAGS"] = ("--xla_force_host_platform_device_count=2 "
                        "--xla_cpu_multi_thread_eigen=false")
    env["PJRT_NPROC"] = "16"
    run = subprocess.run([sys.executable, SCRIPT], env=env,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-4000:]
    return json.loads(run.stdout.strip().splitlines()[-1])


NAMES = ["two devices", "the doc's blocks run",
         "compiled step: values and gradients as one device",
         "compiled step: variable updates as one device",
         "compiled step: the shardings of the step written in JAX",
         "compiled step: the prediction stays split by rows",
         "jax.jit of a to_jax rule: JAX's values and shardings",
         "draws in sharded steps are one device's"]


@pytest.mark.parametrize("name", NAMES)
def test_on_two_devices(checks, name):
    passed, detail = checks[name]
    assert passed, detail
