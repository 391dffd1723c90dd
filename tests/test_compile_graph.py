"""pycg.function adds nothing to the graph TensorFlow runs: a compiled
MLP training step has the ops of the same step under tf.function (op
types counted in the traced graphs, tests/support/graph_ops.py)."""
import numpy as np
import pytest

import pycg
from support.graph_ops import mlp_data, mlp_graphs, pycg_mlp_step, tf_mlp_step


def test_mlp_step_runs_the_ops_of_tf_function_after_grappler(tf_backend):
    pycg_ops, tf_ops = mlp_graphs(*mlp_data(), optimized=True)
    assert pycg_ops == tf_ops


def test_mlp_step_traces_no_more_ops_than_tf_function(tf_backend):
    # (no casts, identities, zero-upstream guards or ones seeds of its own)
    pycg_ops, tf_ops = mlp_graphs(*mlp_data())
    assert sum(pycg_ops.values()) <= sum(tf_ops.values())
    assert not {"Cast", "Fill", "OnesLike", "ZerosLike", "Shape"} & set(
        pycg_ops)
    assert pycg_ops["Identity"] == tf_ops["Identity"] == 4   # the outputs


@pytest.mark.parametrize("loss", ["log_softmax", "crossentropy"])
def test_mlp_step_gradient_equals_tf_function(tf_backend, loss):
    x, labels, params = mlp_data()
    got = pycg_mlp_step(params, loss)(pycg.constant(x),
                                      pycg.constant(labels))
    want = tf_mlp_step(params, loss)(x, labels)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-5,
                                   atol=1e-6)
