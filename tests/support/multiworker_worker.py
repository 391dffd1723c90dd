"""One worker of a tf.distribute.MultiWorkerMirroredStrategy run that trains
a small regression through a compiled pycg step with a custom gradient.

Each worker takes its rows of the global batch, computes gradients with
`pycg.function`, all-reduces them, and applies the same SGD update, so all
workers end with the same variables, equal to training on the whole batch in
one process. Start one process per worker, each with its own TF_CONFIG:

    TF_CONFIG='{"cluster": {"worker": ["localhost:12345", "localhost:23456"]},
                "task": {"type": "worker", "index": 0}}' \\
        python tests/support/multiworker_worker.py out0.npz
    TF_CONFIG='{"cluster": {"worker": ["localhost:12345", "localhost:23456"]},
                "task": {"type": "worker", "index": 1}}' \\
        python tests/support/multiworker_worker.py out1.npz

`--rules python,r` picks the softplus rule(s) trained: `python` is a
`pycg.custom_gradient`, `r` the same rule written in R (`op_custom_gradient`
through `pycg.r`, which needs R, rpy2 and the R package). The final
variables go to the .npz file as `<rule>_<i>`. tests/test_multiworker.py
starts two workers on localhost, in a network namespace of their own
(tests/support/multiworker_launch.py), and checks them against plain TensorFlow.

TensorFlow's worker server listens on every interface (`*:port`) whatever
host the cluster names, and runs graphs for anyone who connects: keep the
workers' ports on a private network or behind a firewall.
"""
import argparse
import json
import os
import time

import numpy as np

GLOBAL_BATCH, FEATURES, HIDDEN = 16, 4, 8
STEPS, LEARNING_RATE = 5, 0.1

R_SOFTPLUS = """
op_custom_gradient(function(x) {
  tuple(op_maximum(x, 0) + op_log1p(op_exp(-op_abs(x))),
        function(upstream) upstream * op_sigmoid(x))
})"""


def problem():
    """The global batch (X, Y) and the initial [W1, b1, W2, b2], float32."""
    rng = np.random.default_rng(11)
    x = rng.standard_normal((GLOBAL_BATCH, FEATURES))
    y = np.sin(x @ rng.standard_normal((FEATURES, 1)))
    params = [rng.standard_normal((FEATURES, HIDDEN)) / 2,
              np.full((HIDDEN,), 0.1), rng.standard_normal((HIDDEN, 1)) / 3,
              np.zeros((1,))]
    return [a.astype(np.float32) for a in (x, y, *params)]


def python_softplus():
    import pycg
    from pycg import ops

    @pycg.custom_gradient
    def softplus(x):
        def grad(upstream):
            return upstream * ops.sigmoid(x)
        return ops.maximum(x, 0) + ops.log1p(ops.exp(-ops.abs(x))), grad
    return softplus


def r_softplus():
    import pycg.r
    return pycg.r.function(R_SOFTPLUS)


def train(strategy, softplus, x, y, params0):
    """STEPS of SGD on this worker's rows `x`, `y`; the final variables."""
    import pycg
    import tensorflow as tf
    from pycg import ops

    with strategy.scope():
        params = [pycg.Variable(p) for p in params0]

    @pycg.function
    def gradients(x, y):
        w1, b1, w2, b2 = params
        with pycg.GradientTape() as tape:
            pred = ops.matmul(softplus(ops.matmul(x, w1) + b1), w2) + b2
            loss = ops.sum((pred - y) ** 2) / GLOBAL_BATCH
        return tape.gradient(loss, params)

    def replica_step(x, y):
        grads = [g._value for g in gradients(x, y)]  # the tf.Tensors
        return tf.distribute.get_replica_context().all_reduce("sum", grads)

    @tf.function
    def step(x, y):
        grads = strategy.run(replica_step, args=(x, y))
        for p, g in zip(params, grads):  # cross-replica: every copy alike
            p.assign_sub(LEARNING_RATE *
                         strategy.experimental_local_results(g)[0])

    x, y = tf.constant(x), tf.constant(y)
    for _ in range(STEPS):
        step(x, y)
    return [p.numpy() for p in params]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", help="the .npz file for the final variables")
    parser.add_argument("--rules", default="python",
                        help="comma-separated: python, r")
    parser.add_argument("--hold-until", metavar="FILE",
                        help="after training, keep this worker (and its "
                        "server) running until FILE exists, at most 120 s")
    args = parser.parse_args()
    os.environ.setdefault("PYCG_BACKEND", "tensorflow")
    import pycg  # noqa: F401  (imports TensorFlow quietly)
    import tensorflow as tf

    task = json.loads(os.environ["TF_CONFIG"])["task"]
    workers = len(json.loads(os.environ["TF_CONFIG"])["cluster"]["worker"])
    strategy = tf.distribute.MultiWorkerMirroredStrategy(
        communication_options=tf.distribute.experimental.CommunicationOptions(
            timeout_seconds=60))
    x, y, *params0 = problem()
    rows = slice(task["index"] * GLOBAL_BATCH // workers,
                 (task["index"] + 1) * GLOBAL_BATCH // workers)
    rules = {"python": python_softplus, "r": r_softplus}
    out = {}
    for rule in args.rules.split(","):
        final = train(strategy, rules[rule](), x[rows], y[rows], params0)
        out.update({f"{rule}_{i}": p for i, p in enumerate(final)})
    np.savez(args.out, **out)
    print(f"worker {task['index']} of {strategy.num_replicas_in_sync}: "
          f"trained {args.rules}")
    deadline = time.monotonic() + 120
    while args.hold_until and not os.path.exists(args.hold_until) and \
            time.monotonic() < deadline:
        time.sleep(0.05)


if __name__ == "__main__":
    main()
