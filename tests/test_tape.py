"""GradientTape semantics, as TensorFlow users know them; the expected
values are closed forms."""
import collections
import threading

import numpy as np
import pytest

import pycg
from pycg import ops


def vec(*values):
    return pycg.constant(np.array(values, dtype=np.float64))


def allclose(t, expected):
    assert t is not None
    a = np.asarray(t)
    np.testing.assert_allclose(a, expected,
                               rtol=1e-12 if a.dtype == np.float64 else 1e-6)


# ---- watching and the basic gradient ----------------------------------------
def test_gradient_of_a_watched_tensor(backend):
    x = vec(1.0, 2.0)
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = x ** 3
    allclose(tape.gradient(y, x), 3 * np.array([1.0, 2.0]) ** 2)


def test_an_unwatched_constant_gets_none(backend):
    x = pycg.constant(2.0)
    with pycg.GradientTape() as tape:
        y = x * x
    assert tape.gradient(y, x) is None


def test_a_non_scalar_target_is_summed(backend):
    x = vec(1.0, -2.0, 3.0)
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = ops.outer(x, x)          # sum = (sum x)^2
    allclose(tape.gradient(y, x), [4.0, 4.0, 4.0])


def test_gradients_accumulate_over_every_use(backend):
    x = pycg.constant(1.5)
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = x * x + ops.sin(x) + x
    allclose(tape.gradient(y, x), 2 * 1.5 + np.cos(1.5) + 1)


def test_gradient_with_respect_to_an_intermediate(backend):
    x = pycg.constant(3.0)
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = x * x
        z = y * y
    allclose(tape.gradient(z, y), 2 * 9.0)


def test_a_target_computed_before_the_watch_is_not_connected(backend):
    x = pycg.constant(3.0)
    y = x * 2
    with pycg.GradientTape() as tape:
        tape.watch(x)
    assert tape.gradient(y, x) is None


def test_watch_takes_nested_structures(backend):
    a, b, c = pycg.constant(1.0), pycg.constant(2.0), pycg.constant(3.0)
    with pycg.GradientTape() as tape:
        tape.watch({"a": a, "rest": [b, (c,)]})
        y = a * b * c
    ga, gb, gc = tape.gradient(y, [a, b, c])
    allclose(ga, 6.0)
    allclose(gb, 3.0)
    allclose(gc, 2.0)


def test_an_unwatched_input_of_a_recorded_op_gets_none(backend):
    x, w = pycg.constant(2.0), pycg.constant(3.0)
    with pycg.GradientTape() as tape:
        tape.watch(w)
        y = x * w
    gx, gw = tape.gradient(y, [x, w])
    assert gx is None
    allclose(gw, 2.0)


def test_watch_rejects_non_tensors(backend):
    with pycg.GradientTape() as tape:
        with pytest.raises(TypeError, match="expected a pycg.Tensor or "
                           "Variable .* got float"):
            tape.watch(1.0)


# ---- structures -------------------------------------------------------------
def test_result_has_the_structure_of_the_sources(backend):
    x, y, z = pycg.constant(1.0), pycg.constant(2.0), pycg.constant(3.0)
    Pair = collections.namedtuple("Pair", "first second")
    with pycg.GradientTape(persistent=True) as tape:
        tape.watch([x, y, z])
        out = x * y + z
    g = tape.gradient(out, {"w": [x, (y,)], "b": z})
    assert set(g) == {"w", "b"}
    assert isinstance(g["w"], list) and isinstance(g["w"][1], tuple)
    allclose(g["w"][0], 2.0)
    allclose(g["w"][1][0], 1.0)
    allclose(g["b"], 1.0)
    p = tape.gradient(out, Pair(x, y))
    assert isinstance(p, Pair)
    allclose(p.first, 2.0)
    allclose(p.second, 1.0)


def test_a_nested_target_is_summed(backend):
    x = pycg.constant(2.0)
    with pycg.GradientTape() as tape:
        tape.watch(x)
        targets = {"square": x * x, "more": [x * 3, (ops.exp(x),)]}
    allclose(tape.gradient(targets, x), 2 * 2.0 + 3 + np.exp(2.0))


def test_output_gradients_weight_the_target(backend):
    x = vec(1.0, 2.0, 3.0)
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    w = np.array([1.0, -1.0, 0.5])
    allclose(tape.gradient(y, x, output_gradients=w), w * 2 * x.numpy())


def test_output_gradients_for_several_targets(backend):
    x = pycg.constant(2.0)
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y1, y2 = x * x, x * x * x
    g = tape.gradient([y1, y2], x, output_gradients=[pycg.constant(2.0),
                                                     pycg.constant(-1.0)])
    allclose(g, 2 * (2 * 2.0) - 1 * (3 * 4.0))


# ---- unconnected sources ----------------------------------------------------
def test_unconnected_gradients_none_and_zero(backend):
    x = pycg.constant(1.0)
    u = pycg.constant(np.ones((2, 3)))
    with pycg.GradientTape(persistent=True) as tape:
        tape.watch([x, u])
        y = x * 2
    assert tape.gradient(y, u) is None
    assert tape.gradient(y, u, unconnected_gradients="none") is None
    z = tape.gradient(y, u, unconnected_gradients="zero")
    assert z.shape == (2, 3) and z.dtype == np.float64
    allclose(z, np.zeros((2, 3)))


def test_unconnected_gradients_rejects_other_values(backend):
    x = pycg.constant(1.0)
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = x * 2
    with pytest.raises(ValueError, match="unconnected_gradients must be "
                       "'none' or 'zero', got 'zeros'"):
        tape.gradient(y, x, unconnected_gradients="zeros")


# ---- persistence, nesting ---------------------------------------------------
def test_persistent_tape_allows_many_gradient_calls(backend):
    x = pycg.constant(3.0)
    with pycg.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        z = y * x
    allclose(tape.gradient(y, x), 6.0)
    allclose(tape.gradient(z, x), 27.0)
    allclose(tape.gradient(z, y), 3.0)


def test_nested_tapes_give_higher_derivatives(backend):
    x = pycg.constant(0.7)
    with pycg.GradientTape() as t3:
        t3.watch(x)
        with pycg.GradientTape() as t2:
            t2.watch(x)
            with pycg.GradientTape() as t1:
                t1.watch(x)
                y = ops.sin(x) * x
            dy = t1.gradient(y, x)          # cos(x) x + sin(x)
        d2y = t2.gradient(dy, x)            # 2 cos(x) - x sin(x)
    d3y = t3.gradient(d2y, x)               # -3 sin(x) - x cos(x)
    allclose(dy, np.cos(0.7) * 0.7 + np.sin(0.7))
    allclose(d2y, 2 * np.cos(0.7) - 0.7 * np.sin(0.7))
    allclose(d3y, -3 * np.sin(0.7) - 0.7 * np.cos(0.7))


def test_a_persistent_outer_tape_differentiates_each_inner_gradient(backend):
    x, y = pycg.constant(2.0), pycg.constant(3.0)
    with pycg.GradientTape(persistent=True) as outer:
        outer.watch([x, y])
        with pycg.GradientTape() as inner:
            inner.watch([x, y])
            f = x * x * y
        gx, gy = inner.gradient(f, [x, y])   # 2xy, x^2
    allclose(outer.gradient(gx, x), 2 * 3.0)
    allclose(outer.gradient(gx, y), 2 * 2.0)
    allclose(outer.gradient(gy, x), 2 * 2.0)
    assert outer.gradient(gy, y) is None


def test_gradient_inside_the_block_of_a_persistent_tape(backend):
    x = pycg.constant(2.0)
    with pycg.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        with pytest.warns(UserWarning, match="records the backward pass"):
            g = tape.gradient(y, x)
        z = y * 3
    allclose(g, 4.0)
    allclose(tape.gradient(z, x), 12.0)


def test_a_long_chain_does_not_recurse(backend):
    x = pycg.constant(1.0)
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = x
        for _ in range(3000):     # three times Python's recursion limit
            y = y * 1.0
    allclose(tape.gradient(y, x), 1.0)


# ---- variables --------------------------------------------------------------
def test_trainable_variables_are_watched_when_read(backend):
    v = pycg.Variable(np.array([1.0, 2.0]))
    with pycg.GradientTape() as tape:
        y = ops.sum(v * v)
    allclose(tape.gradient(y, v), [2.0, 4.0])


def test_watch_accessed_variables_false_watches_only_what_is_asked(backend):
    v, w = pycg.Variable(2.0), pycg.Variable(3.0)
    with pycg.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(w)
        y = v * w
    assert tape.gradient(y, [v, w])[0] is None
    assert tape.watched_variables() == (w,)


def test_non_trainable_variables_are_not_watched(backend):
    v = pycg.Variable(2.0, trainable=False)
    with pycg.GradientTape() as tape:
        y = v * v
    assert tape.gradient(y, v) is None
    assert tape.watched_variables() == ()


def test_watched_variables_lists_those_read_in_order(backend):
    a, b, c = pycg.Variable(1.0), pycg.Variable(2.0), pycg.Variable(3.0)
    with pycg.GradientTape() as tape:
        y = b * 2
        y = y + a
    assert tape.watched_variables() == (b, a)
    assert all(v is not c for v in tape.watched_variables())


def test_variable_assign_changes_the_value_the_tape_sees(backend):
    v = pycg.Variable(np.array([1.0, 2.0]), name="v")
    v.assign([3.0, 4.0])
    v.assign_add(np.array([1.0, 1.0]))
    v.assign_sub([0.5, 0.5])
    allclose(v.numpy(), [3.5, 4.5])
    with pycg.GradientTape() as tape:
        y = ops.sum(v * v)
    allclose(tape.gradient(y, v), [7.0, 9.0])


# ---- stop_recording, reset, jacobian ----------------------------------------
def test_stop_recording_hides_the_ops_inside(backend):
    x = pycg.constant(2.0)
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = x * x
        with tape.stop_recording():
            z = y * x          # not recorded: a constant to the tape
        w = z * x
    allclose(tape.gradient(w, x), 8.0)


def test_stop_recording_outside_the_block_raises(backend):
    tape = pycg.GradientTape()
    with pytest.raises(RuntimeError, match="the tape is not recording"):
        with tape.stop_recording():
            pass


def test_reset_forgets_what_was_recorded(backend):
    x = pycg.constant(2.0)
    with pycg.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        tape.reset()
        tape.watch(x)
        z = x * x * x
    assert tape.gradient(y, x) is None
    allclose(tape.gradient(z, x), 12.0)


def test_jacobian_of_a_linear_map_is_its_matrix(backend):
    a = np.array([[1.0, 2.0, 0.5], [-1.0, 0.0, 3.0]])
    x = vec(0.3, -0.2, 1.0)
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = ops.matmul(pycg.constant(a), x)
    j = tape.jacobian(y, x)
    assert j.shape == (2, 3)
    allclose(j, a)


def test_jacobian_has_shape_target_then_source(backend):
    x = pycg.constant(np.arange(1.0, 7.0).reshape(2, 3))
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = ops.square(x)
    j = tape.jacobian(y, x)
    assert j.shape == (2, 3, 2, 3)
    expected = np.diag(2 * np.arange(1.0, 7.0)).reshape(2, 3, 2, 3)
    allclose(j, expected)


def test_jacobian_of_unconnected_source(backend):
    x, u = pycg.constant(np.ones(2)), pycg.constant(np.ones(3))
    with pycg.GradientTape(persistent=True) as tape:
        tape.watch([x, u])
        y = x * 2
    assert tape.jacobian(y, u) is None
    allclose(tape.jacobian(y, u, unconnected_gradients="zero"),
             np.zeros((2, 3)))


def test_jacobian_after_gradient_on_a_non_persistent_tape_raises(backend):
    x = pycg.constant(np.ones(2))
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = x * 2
    tape.gradient(y, x)
    with pytest.raises(RuntimeError, match="GradientTape.jacobian can only be "
                       "called once"):
        tape.jacobian(y, x)


# ---- context rules ----------------------------------------------------------
def test_ops_after_the_block_exits_are_not_recorded(backend):
    x = pycg.constant(1.0)
    with pycg.GradientTape() as tape:
        tape.watch(x)
    y = x * 2
    assert tape.gradient(y, x) is None


def test_a_used_tape_cannot_be_reentered(backend):
    x = pycg.constant(1.0)
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = x * 2
    tape.gradient(y, x)
    with pytest.raises(RuntimeError, match="already used by gradient"):
        with tape:
            pass


def test_a_tape_records_nothing_from_another_thread(backend):
    x = pycg.constant(3.0)
    result = {}

    def work():
        result["y"] = x * x
        with pycg.GradientTape() as own:
            own.watch(x)
            z = x * x * x
        result["g"] = own.gradient(z, x)

    with pycg.GradientTape(persistent=True) as tape:
        tape.watch(x)
        thread = threading.Thread(target=work)
        thread.start()
        thread.join()
        y_here = x * x
    allclose(result["g"], 27.0)
    assert tape.gradient(result["y"], x) is None
    allclose(tape.gradient([result["y"], y_here], x), 6.0)


def test_a_thread_that_recorded_leaves_the_next_thread_recording_nothing(
        backend):
    from pycg.core import recorder   # (each thread starts with the idle state)
    x, seen = pycg.constant(3.0), []

    def record():
        with pycg.GradientTape() as tape:
            tape.watch(x)
            seen.append(recorder.is_recording())
            x * x

    def look():
        seen.append((recorder.is_recording(), recorder.state().active))
    for target in (record, look):
        thread = threading.Thread(target=target)
        thread.start()
        thread.join()
    assert seen == [True, (False, False)]
    assert not recorder.is_recording() and not recorder.state().active


# ---- explain ----------------------------------------------------------------
def test_explain_an_unwatched_source(backend):
    x = pycg.constant(1.0)
    with pycg.GradientTape() as tape:
        y = x * 2
    assert tape.explain(y, x).startswith("the source is not watched: call "
                                         "tape.watch(x)")


def test_explain_a_non_trainable_variable(backend):
    v = pycg.Variable(1.0, trainable=False)
    with pycg.GradientTape() as tape:
        y = v * 2
    assert tape.explain(y, v) == ("the source is a non-trainable Variable; "
                                  "watch() it")


def test_explain_an_integer_source(backend):
    i = pycg.constant(2)
    with pycg.GradientTape() as tape:
        y = i * 2
    assert tape.explain(y, i) == ("the source has integer dtype int32: only "
                                  "floating tensors get gradients")


def test_explain_a_target_not_recorded(backend):
    x = pycg.constant(1.0)
    with pycg.GradientTape() as tape:
        tape.watch(x)
        with tape.stop_recording():
            y = x * 2
    assert tape.explain(y, x).startswith("the target was not recorded on this "
                                         "tape: it was computed under "
                                         "stop_recording()")


def test_explain_a_disconnected_target(backend):
    x, z = pycg.constant(1.0), pycg.constant(2.0)
    with pycg.GradientTape() as tape:
        tape.watch([x, z])
        y = z * 2
    assert tape.explain(y, x).startswith("the target is disconnected from "
                                         "the source")


def test_explain_a_stop_gradient(backend):
    x, z = pycg.constant(1.0), pycg.constant(2.0)
    with pycg.GradientTape() as tape:
        tape.watch([x, z])
        y = ops.stop_gradient(x) * z
    assert "stop_gradient" in tape.explain(y, x)


def test_explain_a_connected_gradient(backend):
    x = pycg.constant(1.0)
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = x * 2
    assert tape.explain(y, x) == ("the target depends on the source through "
                                  "recorded ops; the gradient is connected")


def test_explain_a_used_tape(backend):
    x = pycg.constant(1.0)
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = x * 2
    tape.gradient(y, x)
    assert tape.explain(y, x).startswith("the tape was already used by "
                                         "gradient()")


def test_variable_is_read_when_the_op_runs_not_at_gradient_time(backend):
    # y = v0^2 * v1 with v0 = 2 and v1 = 5 (assigned in between):
    # dy/dv = 2 * v0 * v1 + v0^2 = 24, TensorFlow's answer too
    v = pycg.Variable(2.0)
    with pycg.GradientTape() as tape:
        y = v * v
        v.assign(5.0)
        z = y * v
    v.assign(100.0)
    assert float(tape.gradient(z, v)) == 24.0
