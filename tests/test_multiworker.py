"""A compiled pycg step trains under tf.distribute.MultiWorkerMirroredStrategy:
two worker processes on localhost (tests/multiworker_worker.py, each with its
own TF_CONFIG) end with the same variables, equal to plain TensorFlow
training on the whole global batch in one process, for a Python rule and
for the same rule written in R."""
import json
import os
import socket
import subprocess
import sys
import time

import numpy as np
import pytest
import tensorflow as tf

import multiworker_worker as job
from r_bridge_helpers import ROOT, r_env, require_r

WORKERS = 2
RULES = ("python", "r")
TIMEOUT_S = 240


def _free_ports(n):
    socks = [socket.socket() for _ in range(n)]
    try:
        for s in socks:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """Runs the workers once; {rule: [variables of worker 0, of worker 1]}."""
    require_r()
    out = tmp_path_factory.mktemp("multiworker")
    cluster = {"worker": [f"127.0.0.1:{p}" for p in _free_ports(WORKERS)]}
    script = os.path.join(ROOT, "tests", "multiworker_worker.py")
    start, procs = time.monotonic(), []
    try:
        for i in range(WORKERS):
            env = dict(r_env(), PYCG_BACKEND="tensorflow", TF_CONFIG=json.dumps(
                {"cluster": cluster, "task": {"type": "worker", "index": i}}))
            with open(out / f"worker{i}.log", "w") as log:
                procs.append(subprocess.Popen(
                    [sys.executable, script, str(out / f"worker{i}.npz"),
                     "--rules", ",".join(RULES)], cwd=ROOT, env=env,
                    stdout=log, stderr=subprocess.STDOUT))
        # until all are done, one fails (the others would wait for it) or
        # the time is up
        while any(p.poll() is None for p in procs) and \
                not any(p.poll() for p in procs) and \
                time.monotonic() - start < TIMEOUT_S:
            time.sleep(0.1)
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    elapsed = time.monotonic() - start
    print(f"\n{WORKERS} workers, {job.STEPS} steps, rules {RULES}: "
          f"{elapsed:.1f} s")
    for i, p in enumerate(procs):
        assert p.returncode == 0, (
            f"worker {i} failed (status {p.returncode}, "
            f"{elapsed:.0f} s):\n{(out / f'worker{i}.log').read_text()}")
    results = [np.load(out / f"worker{i}.npz") for i in range(WORKERS)]
    return {rule: [[r[f"{rule}_{k}"] for k in range(4)] for r in results]
            for rule in RULES}


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
def test_every_worker_ends_with_the_same_variables(trained, rule):
    first, *others = trained[rule]
    for other in others:
        for a, b in zip(first, other):
            np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("rule", RULES)
def test_workers_match_one_process_on_the_global_batch(trained, rule):
    reference = one_process_reference()
    initial = job.problem()[2:]
    diff = max(float(np.abs(a - r).max())
               for a, r in zip(trained[rule][0], reference))
    moved = min(float(np.abs(r - p).max())
                for r, p in zip(reference, initial))
    print(f"\n{rule} rule: max |workers - one process| = {diff:.3g}")
    assert moved > 1e-3, "training did not move every variable"
    for a, r in zip(trained[rule][0], reference):
        np.testing.assert_allclose(a, r, rtol=1e-5, atol=1e-6)
