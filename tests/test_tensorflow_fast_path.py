"""The tensorflow backend's hot kernels run through TensorFlow's private C
entry (TFE_Py_FastPathExecute) and read private fields of TensorFlow's
context and eager tensors; each use falls back to the public path, so a
TensorFlow upgrade that breaks one would make ops silently slower, not
wrong. These tests make such an upgrade fail loudly instead."""
import sys

import numpy as np
import pytest
import tensorflow as tf
from tensorflow.python.eager import context
from tensorflow.python.framework.ops import EagerTensor
from tensorflow.python.ops import gen_array_ops, gen_math_ops, gen_nn_ops

from pycg import backends

K = backends.load("tensorflow")
from pycg.backends.tensorflow import _fast  # noqa: E402


def _fast_kernels():
    """Every kernel `_fast.fast` made, in every module of the backend
    (private names too: divide's `_real_div`)."""
    found = {}
    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith("pycg.backends.tensorflow"):
            continue
        for value in vars(module).values():
            code = getattr(value, "__code__", None)
            if code is not None and code.co_name in ("kernel1", "kernel2") \
                    and value.__module__ == _fast.__name__:
                cells = dict(zip(code.co_freevars,
                                 (c.cell_contents for c in value.__closure__)))
                found[cells["op_name"]] = (value, cells["generated"],
                                           code.co_name == "kernel2")
    return found


FAST = _fast_kernels()


def test_the_hot_kernels_are_fast_kernels():
    assert {"AddV2", "Sub", "Mul", "RealDiv", "Exp", "Log", "Tanh",
            "TanhGrad", "Sigmoid", "ReluGrad"} <= set(FAST)


@pytest.mark.parametrize("op_name", sorted(FAST))
def test_each_fast_kernel_takes_the_c_entry_and_agrees(op_name, monkeypatch):
    kernel, generated, binary = FAST[op_name]
    taken, failed = [], []
    entry = _fast._execute

    def watched(ctx, name, attrs, *inputs):
        try:
            out = entry(ctx, name, attrs, *inputs)
        except Exception as e:   # the kernel would fall back silently
            failed.append(repr(e))
            raise
        taken.append(name)
        return out

    monkeypatch.setattr(_fast, "_execute", watched)
    args = [tf.constant([0.25, 0.5, 2.0], tf.float32)] * (2 if binary else 1)
    out = kernel(*args)
    assert (taken, failed) == ([op_name], [])
    assert type(out) is EagerTensor
    np.testing.assert_array_equal(out.numpy(), generated(*args).numpy())


def test_the_eager_check_reads_tensorflows_context():
    K.add(tf.constant(1.0), tf.constant(2.0))   # (a context exists)
    ctx = context._context
    assert ctx is not None and ctx._thread_local_data.is_eager is True
    assert _fast._tracing() is False
    seen = []

    @tf.function
    def traced(x):
        seen.append(_fast._tracing())
        return x

    traced(tf.constant(1.0))
    assert seen == [True]


@pytest.mark.parametrize("dtype", [tf.float16, tf.bfloat16, tf.float32,
                                   tf.float64, tf.complex64, tf.int32,
                                   tf.bool])
def test_eager_tensors_answer_the_private_questions(dtype):
    x = tf.zeros((2, 3), dtype)
    assert type(x) is EagerTensor and type(x) in K.types
    assert x._datatype_enum() == dtype.as_datatype_enum == K.dtype_key(x)
    assert x._shape_tuple() == (2, 3)
    # (Tensor.dtype: the NumPy dtype cached by that enum)
    assert K.dtype_of(x) == np.dtype(dtype.as_numpy_dtype) and \
        K.dtype_of(x) is K.dtype_of(tf.ones((1,), dtype))


def test_the_private_generated_wrappers_are_there():
    for module, names in ((gen_math_ops, ("_abs", "_sum", "_pow", "mat_mul",
                                          "real_div", "erf", "is_nan")),
                          (gen_array_ops, ("reshape",)),
                          (gen_nn_ops, ("relu_grad",))):
        assert [n for n in names if not callable(getattr(module, n, None))] \
            == []


def test_sum_and_reshape_use_cached_int32_constants():
    x = tf.ones((2, 3))
    assert _fast._int32((1,)) is _fast._int32((1,))
    np.testing.assert_array_equal(K.sum(x, axis=(1,)).numpy(), [3.0, 3.0])
    assert K.reshape(x, (3, 2)).shape == (3, 2)


def test_tensorflows_tape_is_seen_through_its_private_record_module():
    assert K.tensorflow_differentiates() is False
    with tf.GradientTape():
        assert K.tensorflow_differentiates() is True


# TensorFlow records the Python stack at every eager op (its innermost
# frames, each with its line: a scan of the frame's code from its start to
# its current call, ~5 ns per location entry). pycg's frames between the
# user and a kernel keep that call early in their body; these are the
# entries each may cost (measured 2026-11: run 187 for two tensors and 75
# for a tensor and a Python number, _backward 129 for an op of two inputs
# and 73 for one, decorated 115 (148 with pycg.jvp's by_value, 2026-12),
# forward 98, Rule.__call__ 55, op 54,
# _run_backward 41, gradient 19).
SCAN_BUDGET = {"run": 190, "_backward": 135, "decorated": 150, "forward": 105,
               "Rule.__call__": 60, "op": 60, "GradientTape._run_backward": 45,
               "GradientTape.gradient": 25}


def _scanned(frame):
    """The location entries of frame's code up to its current instruction
    (what CPython's line lookup walks)."""
    n, previous = 0, None
    for i, position in enumerate(frame.f_code.co_positions()):
        if 2 * i > frame.f_lasti:
            break
        n += position != previous
        previous = position
    return n


def test_pycg_frames_over_an_eager_kernel_call_it_early(tf_backend,
                                                        monkeypatch):
    import os

    import pycg
    from pycg import ops

    root = os.path.dirname(pycg.__file__)
    entry, worst = _fast._execute, {}

    def watched(ctx, name, attrs, *inputs):
        f = sys._getframe(1)
        for _ in range(30):   # (the frames TensorFlow looks at)
            if f is None:
                break
            if f.f_code.co_filename.startswith(root):
                key = f.f_code.co_qualname.split(".<locals>.")[-1]
                worst[key] = max(worst.get(key, 0), _scanned(f))
            f = f.f_back
        return entry(ctx, name, attrs, *inputs)

    @pycg.custom_gradient
    def log1pexp(x):
        e = ops.exp(x)
        return ops.log(1 + e), lambda up: up * (1 - 1 / (1 + e))

    monkeypatch.setattr(_fast, "_execute", watched)
    x = pycg.constant(0.5)
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = log1pexp(ops.tanh(x) * x - 1)
    g = tape.gradient(y, x)
    assert g is not None and set(SCAN_BUDGET) <= set(worst)
    assert {k: n for k, n in worst.items()
            if n > SCAN_BUDGET.get(k, 40)} == {}
    worst.clear()
    assert float(1 - (x * 2.0)) == 0.0   # (a tensor and a number: first)
    assert worst["run"] <= 80
