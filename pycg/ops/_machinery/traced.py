"""Traced control flow: a TensorFlow control-flow op (tf.cond, tf.while_loop,
tf.switch_case) inside pycg.function, made one op on pycg's tapes.

The user's functions run inside TF's branch and body graphs with the
recording tapes set aside: their tensors live in those graphs and must not
reach a tape. A probe tape that tracks what the outer tapes track runs with
them instead and finds which tracked tensors the functions close over. The
op is recorded against those and its explicit operands; its backward asks
TensorFlow for the gradient of the op's outputs (tf.gradients, partial
derivatives only: every input is also a stop_gradient), and records that
gradient computation in turn, so higher derivatives work too.

TensorFlow differentiates the TF ops that pycg's kernels emitted; a
pycg.custom_gradient function called in a branch or body becomes one
TensorFlow op carrying its rule (core_forward.branch_call, through
pycg.to_tensorflow's machinery), so TensorFlow's gradient uses the rule;
stop_gradient is honoured (it emits tf.stop_gradient on symbolic tensors).
"""
import contextlib

from pycg import backends
from pycg.tensor import structure
from pycg.core import recorder as core
from pycg.tensor import Tensor, Variable, convert_to_tensor, is_float


def tracing():
    """True inside pycg.function (a TF graph is being built)."""
    if backends.active.name != "tensorflow":
        return False
    import tensorflow as tf
    return not tf.executing_eagerly()


def is_symbolic(x):
    return isinstance(x, Tensor) and not hasattr(x._value, "numpy")


def static_value(x):
    """The NumPy value of a tensor of a TF graph that is a constant of it
    (data from outside the trace, such as an R index), or None where only
    the graph's run will know it."""
    import tensorflow as tf
    return tf.get_static_value(x._value)


class Capture:
    """Runs user functions inside TF graphs with a probe for the tapes."""

    def __init__(self, op):
        self.op = op
        self.outer = list(core.state().recorders)
        self.tracked = set().union(*(r.ids for r in self.outer))
        self.captured = {}   # id -> Tensor (or Variable) closed over
        self.variables = {}

    def call(self, fn, args_tree, values, dtypes=None):
        """fn(*args) on Tensors wrapping `values` (rebuilt as args_tree);
        returns (output tree, flat TF values)."""
        args = structure.unflatten(args_tree, [Tensor(v) for v in values])
        with self._probe():
            out = fn(*args)
        leaves = structure.flatten(out)
        if dtypes is not None and len(dtypes) != len(leaves):
            raise ValueError(
                f"pycg.ops.{self.op}: the function returned {len(leaves)} "
                f"tensors, expected {len(dtypes)} (the structure of its "
                f"inputs)")
        return out, output_values(leaves, dtypes, self.op)

    @contextlib.contextmanager
    def _probe(self):
        if not self.outer:
            yield
            return
        probe = core.Recorder()
        probe.ids |= self.tracked
        with core.Aside(self.outer, probe, branch=probe):
            yield
        for _, ins, _, _ in probe.entries:
            for x in ins:
                if x._id in self.tracked or x._id in probe.variables:
                    self.captured.setdefault(x._id, x)
        self.variables.update(probe.variables)
        for v in probe.variables.values():
            core.saw_variable(v)

    def record(self, operands, out_values):
        """The op's outputs as Tensors, recorded on the outer tapes."""
        outs = [Tensor(v) for v in out_values]
        if not self.outer:
            return outs
        inputs, xs, seen = [], [], set()
        for x in list(operands) + list(self.captured.values()):
            if x._id in seen or not is_float(x.dtype):
                continue
            seen.add(x._id)
            v = self.variables.get(x._id)
            inputs.append(x)
            xs.append(v._store if v is not None else x._value)
        if inputs:
            _record_tf(inputs, xs, outs)
        return outs


def _record_tf(inputs, xs, outs):
    """Record outs (TF functions of xs, the values of `inputs`) on the tapes,
    with TensorFlow computing the VJP."""
    import tensorflow as tf

    def backward(ups, *_):
        ys, seeds, up_ts = [], [], []
        for o, u in zip(outs, ups):
            if not is_float(o.dtype):
                continue
            if u is None:
                u = Tensor(tf.zeros_like(o._value))
            ys.append(o._value)
            seeds.append(u._value)
            up_ts.append(u)
        stops = [x for x in xs if isinstance(x, tf.Tensor)]
        grads = tf.gradients(ys, xs, grad_ys=seeds, stop_gradients=stops,
                             unconnected_gradients="zero")
        seen, gs = set(), []
        for x, g in zip(xs, grads):
            key = id(x)
            g = tf.convert_to_tensor(g)
            gs.append(Tensor(tf.zeros_like(g) if key in seen else g))
            seen.add(key)
        if core.state().recorders:  # a tape records the backward: higher orders
            _record_tf(list(inputs) + up_ts, list(xs) + seeds, gs)
        return gs

    core.record_multi(backward, inputs, outs)


def as_value(x, op, name):
    """A tensor argument of a traced op: (Tensor, TF value)."""
    if isinstance(x, Variable):
        x = x.read()
    elif not isinstance(x, Tensor):
        try:
            x = convert_to_tensor(x)
        except (TypeError, ValueError) as e:
            raise type(e)(f"pycg.ops.{op}: {name}: {e}") from None
    return x, x._value


def output_values(leaves, dtypes, op):
    """The values of a traced function's output `leaves`, each in its
    input's dtype (`dtypes`, or None: as they are); a tensor of another
    dtype is refused, naming the op."""
    vals = []
    for i, o in enumerate(leaves):
        want = None if dtypes is None else dtypes[i]
        if isinstance(o, Tensor) and want is not None and o.dtype != want:
            raise TypeError(
                f"pycg.ops.{op}: output {i} of the function has dtype "
                f"{o.dtype}, but its input had dtype {want}; inside "
                f"pycg.function a loop variable keeps its dtype (cast it, "
                f"or start from a value of dtype {o.dtype})")
        vals.append(convert_to_tensor(o, want)._value)
    return vals
