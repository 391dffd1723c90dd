"""The ops of a traced training step, as TensorFlow runs it: the op types
of a tf.function's graph before and after Grappler (TensorFlow's graph
optimizer, which runs on every graph a tf.function calls), and one MLP
step written in pycg and in TensorFlow for tests/test_compile_graph.py.

    .venv/bin/python tests/support/graph_ops.py   # the benchmark MLP's table
"""
import collections

import numpy as np
import tensorflow as tf
from tensorflow.core.protobuf import config_pb2
from tensorflow.python.grappler import tf_optimizer

import pycg
from pycg import ops


def op_types(fn, *args, optimized=False):
    """A Counter of op types in tf.function `fn`'s graph for `args` (raw
    backend values); after Grappler where `optimized`."""
    graph = fn.get_concrete_function(*args).graph
    if not optimized:
        return collections.Counter(op.type for op in graph.get_operations())
    meta = tf.compat.v1.train.export_meta_graph(
        graph_def=graph.as_graph_def(), graph=graph)
    meta.collection_def["train_op"].node_list.value.extend(
        t.op.name for t in graph.outputs)
    nodes = tf_optimizer.OptimizeGraph(config_pb2.ConfigProto(), meta).node
    return collections.Counter(node.op for node in nodes)


def mlp_data(sizes=(12, 8, 5), batch=6, seed=0):
    """(x, one-hot labels, [w1, b1, w2, b2]) as float32 NumPy arrays."""
    rng = np.random.default_rng(seed)
    n_in, n_hidden, n_out = sizes
    x = rng.normal(size=(batch, n_in)).astype(np.float32)
    labels = np.eye(n_out, dtype=np.float32)[rng.integers(0, n_out, batch)]
    params = [rng.normal(size=s).astype(np.float32)
              for s in ((n_in, n_hidden), (n_hidden,), (n_hidden, n_out),
                        (n_out,))]
    return x, labels, params


def pycg_mlp_step(params, loss="log_softmax"):
    """pycg.function of an MLP step (the weights variables it closes over);
    the loss written as -mean(sum(labels * log_softmax)), or with
    ops.categorical_crossentropy(from_logits=True) ("crossentropy")."""
    pycg.config.set_backend("tensorflow")
    ws = [pycg.Variable(p) for p in params]

    def step(x, labels):
        w1, b1, w2, b2 = ws
        with pycg.GradientTape() as tape:
            logits = ops.matmul(ops.relu(ops.matmul(x, w1) + b1), w2) + b2
            if loss == "crossentropy":
                value = ops.mean(ops.categorical_crossentropy(
                    labels, logits, from_logits=True))
            else:
                value = -ops.mean(ops.sum(labels * ops.log_softmax(logits),
                                          axis=-1))
        return tape.gradient(value, ws)
    return pycg.function(step)


def tf_mlp_step(params, loss="log_softmax"):
    """The same step with tf.function; "crossentropy" is TensorFlow's fused
    softmax_cross_entropy_with_logits (what Keras' TensorFlow backend
    calls)."""
    ws = [tf.Variable(p) for p in params]

    def step(x, labels):
        w1, b1, w2, b2 = ws
        with tf.GradientTape() as tape:
            logits = tf.matmul(tf.nn.relu(tf.matmul(x, w1) + b1), w2) + b2
            if loss == "crossentropy":
                value = tf.reduce_mean(
                    tf.nn.softmax_cross_entropy_with_logits(labels, logits))
            else:
                value = -tf.reduce_mean(tf.reduce_sum(
                    labels * tf.nn.log_softmax(logits), axis=-1))
        return tape.gradient(value, ws)
    return tf.function(step)


def mlp_graphs(x, labels, params, loss="log_softmax", optimized=False):
    """(pycg's op Counter, TensorFlow's) for the MLP step on these inputs."""
    pstep = pycg_mlp_step(params, loss)
    pstep(pycg.constant(x), pycg.constant(labels))   # traces it
    graph = pstep._graphs[2]   # (its tf.function for two positional args)
    args = (tf.constant(x), tf.constant(labels))
    return (op_types(graph, *args, optimized=optimized),
            op_types(tf_mlp_step(params, loss), *args, optimized=optimized))


def _table():
    x, labels, params = mlp_data((784, 256, 10), 256)
    for loss in ("log_softmax", "crossentropy"):
        for optimized in (False, True):
            p, t = mlp_graphs(x, labels, params, loss, optimized)
            print(f"\n{loss}, {'after' if optimized else 'before'} "
                  f"Grappler: pycg.function {sum(p.values())} ops, "
                  f"tf.function {sum(t.values())}\n")
            print("| op | pycg.function | tf.function |\n|---|---:|---:|")
            for name in sorted(set(p) | set(t)):
                print(f"| {name} | {p[name]} | {t[name]} |")


if __name__ == "__main__":
    _table()
