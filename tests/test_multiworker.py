"""A compiled pycg step trains under tf.distribute.MultiWorkerMirroredStrategy:
two worker processes on localhost (tests/support/multiworker_worker.py, each with its
own TF_CONFIG) end with the same variables, equal to plain TensorFlow
training on the whole global batch in one process, for a Python rule and
for the same rule written in R.

TensorFlow's worker servers listen on every interface and run graphs for
whoever connects, so the workers run in a network namespace of their own
(`unshare -rn`, tests/support/multiworker_launch.py), where they also choose their
ports without racing another run; while they listen, the test tries their
ports at each non-loopback address of this machine and must fail."""
import json
import shutil
import socket
import subprocess
import sys
import time

import numpy as np
import pytest
import tensorflow as tf

from support import multiworker_worker as job
from support.r_bridge_helpers import ROOT, r_env, require_r

WORKERS = 2
RULES = ("python", "r")
TIMEOUT_S = 240
LAUNCH = f"{ROOT}/tests/support/multiworker_launch.py"


def private_network():
    """The command prefix that runs a process in a network namespace of its
    own (only a loopback device), or skip saying why there is none."""
    unshare = shutil.which("unshare")
    try:
        check = subprocess.run([unshare or "unshare", "-rn", "ip", "link",
                                "set", "lo", "up"], capture_output=True,
                               text=True, timeout=30)
        reason = check.stderr.strip() if check.returncode else None
    except OSError as e:
        reason = str(e)
    if reason:
        pytest.skip(f"no private network namespace (unshare -rn: {reason}); "
                    f"the workers' TensorFlow servers would listen on every "
                    f"interface")
    return [unshare, "-rn"]


def machine_addresses():
    """This machine's non-loopback, non-link-local addresses."""
    shown = subprocess.run(["ip", "-o", "addr", "show"], capture_output=True,
                           text=True, check=True).stdout
    out = []
    for line in shown.splitlines():
        fields = line.split()
        address = fields[3].split("/")[0]
        if fields[1] != "lo" and not address.startswith("fe80:"):
            out.append(address)
    return out


def reach(address, port):
    """'connected', or the error a TCP connection to address:port gets."""
    try:
        socket.create_connection((address, port), timeout=2).close()
        return "connected"
    except OSError as e:
        return type(e).__name__


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """Runs the workers once, probing their ports from outside while they
    listen; {"variables": {rule: [worker 0's, worker 1's]}, "probes":
    [(address, port, outcome)]}."""
    require_r()
    prefix = private_network()
    out = tmp_path_factory.mktemp("multiworker")
    start = time.monotonic()
    launcher = subprocess.Popen(
        prefix + [sys.executable, LAUNCH, str(out), str(WORKERS),
                  ",".join(RULES), str(TIMEOUT_S)],
        cwd=ROOT, env=r_env(), stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True)
    probes = None
    try:
        announced = out / "ports.json"
        while launcher.poll() is None and not announced.exists() and \
                time.monotonic() - start < TIMEOUT_S:
            time.sleep(0.05)
        if announced.exists():
            probes = [(a, p, reach(a, p)) for p in json.loads(
                announced.read_text()) for a in machine_addresses()]
    finally:
        (out / "probed").touch()
        try:
            output = launcher.communicate(timeout=TIMEOUT_S)[0]
        except subprocess.TimeoutExpired:
            launcher.kill()
            output = launcher.communicate()[0]
    elapsed = time.monotonic() - start
    print(f"\n{WORKERS} workers, {job.STEPS} steps, rules {RULES}: "
          f"{elapsed:.1f} s")
    logs = "\n".join(f"worker {i}:\n" + (out / f"worker{i}.log").read_text()
                     for i in range(WORKERS)
                     if (out / f"worker{i}.log").exists())
    assert launcher.returncode == 0, (
        f"the workers failed (status {launcher.returncode}, {elapsed:.0f} "
        f"s):\n{output}\n{logs}")
    assert probes is not None, f"the workers never listened:\n{logs}"
    results = [np.load(out / f"worker{i}.npz") for i in range(WORKERS)]
    return {"variables": {rule: [[r[f"{rule}_{k}"] for k in range(4)]
                                 for r in results] for rule in RULES},
            "probes": probes}


def test_worker_ports_cannot_be_reached_from_the_machines_addresses(run):
    if not run["probes"]:
        pytest.skip("this machine has no non-loopback address to try")
    print(f"\nprobes: {run['probes']}")
    assert [p for p in run["probes"] if p[2] == "connected"] == []


def test_the_probe_reaches_a_port_listening_on_every_interface():
    addresses = machine_addresses()
    if not addresses:
        pytest.skip("this machine has no non-loopback address to try")
    family = socket.AF_INET6 if ":" in addresses[0] else socket.AF_INET
    with socket.socket(family) as server:   # as TensorFlow's server binds
        server.bind(("", 0))
        server.listen()
        assert reach(addresses[0], server.getsockname()[1]) == "connected"


def one_process_reference():
    """Plain TensorFlow, one process, the whole global batch, the same
    closed-form softplus gradient (sigmoid) written as a tf.custom_gradient."""
    @tf.custom_gradient
    def softplus(x):
        return tf.nn.softplus(x), lambda upstream: upstream * tf.sigmoid(x)

    x, y, *params0 = job.problem()
    params = [tf.Variable(p) for p in params0]
    for _ in range(job.STEPS):
        with tf.GradientTape() as tape:
            w1, b1, w2, b2 = params
            pred = tf.matmul(softplus(tf.matmul(x, w1) + b1), w2) + b2
            loss = tf.reduce_sum((pred - y) ** 2) / job.GLOBAL_BATCH
        for p, g in zip(params, tape.gradient(loss, params)):
            p.assign_sub(job.LEARNING_RATE * g)
    return [p.numpy() for p in params]


@pytest.mark.parametrize("rule", RULES)
def test_every_worker_ends_with_the_same_variables(run, rule):
    first, *others = run["variables"][rule]
    for other in others:
        for a, b in zip(first, other):
            np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("rule", RULES)
def test_workers_match_one_process_on_the_global_batch(run, rule):
    reference = one_process_reference()
    initial = job.problem()[2:]
    diff = max(float(np.abs(a - r).max())
               for a, r in zip(run["variables"][rule][0], reference))
    moved = min(float(np.abs(r - p).max())
                for r, p in zip(reference, initial))
    print(f"\n{rule} rule: max |workers - one process| = {diff:.3g}")
    assert moved > 1e-3, "training did not move every variable"
    for a, r in zip(run["variables"][rule][0], reference):
        np.testing.assert_allclose(a, r, rtol=1e-5, atol=1e-6)
