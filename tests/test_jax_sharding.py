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
    # (XLA runs each device's program on a thread of a pool with one thread
    # per device; with Eigen's own multi-threading a device's matmul can
    # hand work to the other device's thread while that thread waits in the
    # all-reduce for this one: on two busy cores a deadlock that XLA ends
    # after 40 s. Single-threaded ops per device wait on nothing but the
    # collective itself.)
    env["XLA_FLAGS"] = ("--xla_force_host_platform_device_count=2 "
                        "--xla_cpu_multi_thread_eigen=false")
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
