"""pycg.function warns when it traces again too often, as tf.function does
(5 traces among about its last 10 calls, twice at most per function), on
both compiling backends, naming the user's function and what to do: on
jax each new shape keeps its own compiled code (about 1.5 MB, as jax.jit's:
bench/jax_trace_memory.py), and nothing warned."""
import logging
import threading
import warnings

import numpy as np

import pycg
from pycg import ops
from support import backend_switch


compiling = backend_switch.params_fixture(["tensorflow", "jax"], "compiling",
                                          importorskip=("jax",))


def calls(f, sizes):
    """f called on float32 vectors of `sizes`; the retracing warnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for n in sizes:
            f(pycg.constant(np.ones(n, np.float32)))
    return [str(w.message) for w in caught if "traced it again" in
            str(w.message)]


def total(x):
    return ops.sum(ops.sin(x) ** 2)


def test_five_new_shapes_in_a_row_warn_once_naming_the_function(compiling):
    # Before, on jax: no warning at all.
    got = calls(pycg.function(total), [2, 3, 4, 5, 6])
    advice = ("pad the inputs to a few shapes" if compiling == "jax" else
              "pass reduce_retracing=True to pycg.function")
    assert len(got) == 1
    assert got[0].startswith("pycg.function(total): 5 out of the last 5 "
                             "calls traced it again. Tracing is expensive")
    assert advice in got[0]
    assert "For (1), define the pycg.function outside of the loop" in got[0]


def test_calls_of_shapes_already_traced_do_not_warn(compiling):
    assert calls(pycg.function(total), [2, 3, 4, 5] + [2, 3, 4, 5] * 5) == []


def test_a_new_shape_every_fourth_call_is_quiet_every_third_warns(
        compiling):
    # (tf.function's counts: five runs of calls from one trace to the
    # next that end within the last 10 calls)
    every = [[n for k in range(2, 12) for n in [k] * gap] for gap in (4, 3)]
    assert calls(pycg.function(total), every[0]) == []
    assert "5 out of the last 13 calls" in \
        calls(pycg.function(total), every[1])[0]


def test_the_count_is_tensorflow_s_over_random_calls():
    # pycg's detector against TensorFlow's own (its _FrequentTracingDetector,
    # the oracle) over random runs of traced and untraced calls: the same
    # warnings, with the same counts.
    from tensorflow.python.eager.polymorphic_function import (
        polymorphic_function as tf_function)

    from pycg.compile import trace_values as _trace_values

    class Function:   # (what _trace_values reads of a pycg.function)
        __name__ = "f"

        def __init__(self):
            self._traced_at, self._retrace_warned = [], 0
            self._advised = False

    rng = np.random.default_rng(0)
    for _ in range(200):
        traced = rng.random(40) < rng.uniform(0.05, 0.6)
        oracle, said = tf_function._FrequentTracingDetector(), []
        f = Function()
        real = tf_function.logging.warning
        tf_function.logging.warning = said.append
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                for c, t in enumerate(traced, start=1):
                    if t:
                        oracle.called_with_tracing("f", False)
                        _trace_values.retracing(f, c)
                    else:
                        oracle.called_without_tracing()
        finally:
            tf_function.logging.warning = real
        ours = [str(w.message).split(": ", 1)[1].split(" calls")[0]
                for w in caught]
        assert ours == [m.split(" calls")[0] for m in said]


def test_five_python_floats_get_their_advice_not_also_this_warning(
        compiling):
    # (the float advice names the cause; the retracing warning says it
    # again at the next trace)
    f, x = pycg.function(lambda x, s: x * s), pycg.constant([1.0])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for s in range(1, 7):
            f(x, float(s))
    said = [str(w.message) for w in caught]
    assert len(said) == 2 and "5 values of a Python float" in said[0]
    assert "6 out of the last 6 calls traced it again" in said[1]


def test_it_warns_twice_at_most(compiling):
    got = calls(pycg.function(total), range(2, 16))
    assert len(got) == 2
    assert "6 out of the last 6 calls" in got[1]


def test_one_function_traced_by_each_of_many_new_functions_is_quiet(
        compiling, caplog):
    # Five pycg.functions each traced once are five first traces, not
    # retracing. Before, on tensorflow, TensorFlow's detector counted every
    # pycg.function as one (its Function._traced) and logged "5 out of the
    # last 5 calls to <function Function._traced ...> triggered tf.function
    # retracing".
    tf_logger = logging.getLogger("tensorflow")   # (it does not propagate)
    tf_logger.addHandler(caplog.handler)
    try:
        got = [calls(pycg.function(total), [3]) for _ in range(6)]
    finally:
        tf_logger.removeHandler(caplog.handler)
    assert got == [[]] * 6
    assert "retracing" not in caplog.text


def test_threads_calling_one_shape_trace_once_and_do_not_warn(compiling):
    # Each call counts the traces it made itself: another thread's trace
    # during it is not its own. Before (jax), each of 8 threads' first
    # calls made its own jax.jit functions and traced anew.
    f, start, out = pycg.function(total), threading.Barrier(8), []
    x = pycg.constant(np.ones(3, np.float32))

    def work():
        start.wait()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            for _ in range(20):
                f(x)
        out.extend(str(w.message) for w in caught)

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [m for m in out if "traced it again" in m] == []
    assert f.trace_count == 1
