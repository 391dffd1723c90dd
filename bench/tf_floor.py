"""Where the tensorflow backend's scalar chain goes, for bench/speed_targets.py:
the same chain as a minimal Python tape over TensorFlow's C fast path
(TFE_Py_FastPathExecute, the kernels pycg's backend calls), and pycg's own
Python alone (pycg's tensorflow backend with that entry stubbed to return a
cached tensor: the ops, tape, custom_gradient and backward loop run as
usual, the kernels cost nothing)."""
import numpy as np

from bench._peers import tf


def floor_chain(x0, custom):
    """A minimal Python tape (one tuple per op, one loop back) over the
    fast-path kernels, float32 scalars."""
    from tensorflow.python import pywrap_tfe
    from tensorflow.python.eager import context
    run, ctx = pywrap_tfe.TFE_Py_FastPathExecute, context.context()
    one, x = tf.constant(np.float32(1)), tf.constant(x0)

    def step():
        tape, y = [], x
        for c in custom:
            if c:
                e = run(ctx, "Exp", None, y)
                y = run(ctx, "Log", None, run(ctx, "AddV2", None, one, e))
                tape.append((True, e, y))
            else:
                y = run(ctx, "Tanh", None, y)
                tape.append((False, None, y))
        g = one
        for c, e, y in reversed(tape):
            if c:
                d = run(ctx, "RealDiv", None, one,
                        run(ctx, "AddV2", None, one, e))
                g = run(ctx, "Mul", None, g, run(ctx, "Sub", None, one, d))
            else:
                g = run(ctx, "TanhGrad", None, y, g)
        return g
    return step


def python_alone(make_pycg_tf):
    """make(x0, custom) for pycg's tensorflow-backend chain with every
    fast-path kernel returning one cached tensor; None where this pycg has
    no such entry (a checkout before it)."""
    try:
        from pycg.backends.tensorflow import _fast as _tf_fast
    except ImportError:
        try:   # (a checkout from before the backends were packages)
            from pycg.backends import _tf_fast
        except ImportError:
            return None
    if not hasattr(_tf_fast, "_execute"):
        return None

    def make(x0, custom):
        step = make_pycg_tf(x0, custom)
        real, stub = _tf_fast._execute, tf.constant(np.float32(0.5))

        def stubbed():
            _tf_fast._execute = lambda ctx, op, name, *args: stub
            try:
                return step()
            finally:
                _tf_fast._execute = real
        return stubbed
    return make
