"""pycg_grad() of an R function replays its record of calls into pycg
(pycg/r/replay.py): the record's gradients are the function's, at inputs
other than the recorded ones, and a record that R's decisions could make
wrong is not kept. R is stood in for by Python functions that call pycg
only as R does, through pycg/r/interop.py's guarded functions."""
import threading

import numpy as np

import pycg
from pycg.r import grad, interop, replay


def _vg(f, value=True):
    return grad.checked_value_and_grad(f, 0, False, value, replay=True)


def _float(t):
    return np.asarray(t.numpy(), dtype=np.float64)


class _Counted:
    """An "R function": counts its calls."""

    def __init__(self, body):
        self.body, self.calls, self.__name__ = body, 0, "f"

    def __call__(self, *args):
        self.calls += 1
        return self.body(*args)


_W = pycg.convert_to_tensor(np.array([1.0, 2.0, 3.0]))   # R data


def _exp_sum(p):   # sum(exp(p) * w) + sum(p^2), as R's operators call pycg
    e = interop.call_op("exp", p)
    t = interop.r_operator("*", e, _W)
    return interop.call_op("add", interop.call_op("sum", t),
                           interop.call_op("sum", interop.r_operator(
                               "^", p, 2.0)))


def test_a_replay_gives_the_functions_gradient_at_new_inputs(backend):
    f = _Counted(_exp_sum)
    vg = _vg(f)
    for p in ([0.1, 0.2, 0.3], [1.0, -1.0, 0.5], [-2.0, 0.0, 2.0]):
        x = pycg.convert_to_tensor(np.array(p))
        value, grad = vg(x)
        w = np.array([1.0, 2.0, 3.0])
        np.testing.assert_allclose(_float(value),
                                   np.sum(np.exp(p) * w) + np.sum(np.square(p)),
                                   rtol=1e-12)
        np.testing.assert_allclose(_float(grad), np.exp(p) * w + 2 * np.array(p),
                                   rtol=1e-12)
    assert f.calls == 1
    assert "replayed without R" in vg.replayed.explain()[0]


def test_a_new_signature_makes_a_new_record(backend):
    f = _Counted(lambda p: interop.call_op("sum", interop.call_op("exp", p)))
    vg = _vg(f)
    for n in (2, 3, 2, 3):
        x = pycg.convert_to_tensor(np.linspace(0, 1, n))
        np.testing.assert_allclose(_float(vg(x)[1]), np.exp(np.linspace(0, 1, n)))
    assert f.calls == 2


def test_converting_a_computed_tensor_to_r_keeps_no_record(backend):
    def body(p):   # if (as.numeric(sum(p)) > 0) sum(p^2) else sum(p^3)
        s = interop.call_op("sum", p)
        interop.to_r(s)
        power = 2.0 if float(s.numpy()) > 0 else 3.0
        return interop.call_op("sum", interop.r_operator("^", p, power))
    f = _Counted(body)
    vg = _vg(f)
    for p, want in (([1.0, 2.0], [2.0, 4.0]), ([-1.0, -2.0], [3.0, 12.0])):
        np.testing.assert_allclose(
            _float(vg(pycg.convert_to_tensor(np.array(p)))[1]), want)
    assert f.calls == 2
    assert "converts a tensor computed from its arguments" in \
        vg.replayed.explain()[0]


def test_converting_a_constant_keeps_the_record(backend):
    data = pycg.convert_to_tensor(np.array([2.0, 3.0]))

    def body(p):
        interop.to_r(data)
        return interop.call_op("sum", interop.r_operator("*", p, data))
    f = _Counted(body)
    vg = _vg(f)
    for p in ([1.0, 1.0], [5.0, -1.0]):
        np.testing.assert_allclose(
            _float(vg(pycg.convert_to_tensor(np.array(p)))[1]), [2.0, 3.0])
    assert f.calls == 1


def test_a_tensor_computed_outside_the_recorded_calls_keeps_no_record(backend):
    def body(p):   # pycg.ops called directly: no step records it
        e = pycg.ops.exp(p)
        return interop.call_op("sum", e)
    f = _Counted(body)
    vg = _vg(f)
    for p in ([0.0, 1.0], [1.0, 2.0]):
        np.testing.assert_allclose(
            _float(vg(pycg.convert_to_tensor(np.array(p)))[1]), np.exp(p))
    assert f.calls == 2
    assert "reached pycg by a call no record holds" in vg.replayed.explain()[0]


def test_a_step_that_answers_otherwise_falls_back_to_r(backend):
    # a step whose answer's structure depends on the values (R's NA mask
    # beside a logical result): the replay notices and the R function runs
    def step(p):
        out = pycg.ops.multiply(p, 2.0)
        return (out, out) if float(pycg.ops.sum(p).numpy()) > 0 else out
    guarded = interop.guard(step)

    def body(p):
        out = guarded(p)
        first = out[0] if isinstance(out, tuple) else out
        return interop.call_op("sum", first)
    f = _Counted(body)
    vg = _vg(f)
    for p in ([1.0, 1.0], [-1.0, -3.0], [2.0, 2.0]):
        np.testing.assert_allclose(
            _float(vg(pycg.convert_to_tensor(np.array(p)))[1]), [2.0, 2.0])
    assert f.calls >= 2
    assert any("diverged" in line or "could not be compiled" in line
               for line in vg.replayed.explain())


def test_a_failing_call_keeps_no_record(backend):
    def body(p):
        bad = interop.call_op("reshape", p, (7,))   # a Failure R may handle
        assert isinstance(bad, interop.Failure)
        return interop.call_op("sum", p)
    f = _Counted(body)
    vg = _vg(f)
    for _ in range(2):
        vg(pycg.convert_to_tensor(np.array([1.0, 2.0])))
    assert f.calls == 2
    assert "failed" in vg.replayed.explain()[0]


def test_r_says_no_record_and_why(backend):
    f = _Counted(lambda p: interop.call_op("sum", p))
    vg = grad.checked_value_and_grad(f, 0, False, True,
                                   replay="it reads the R environment `e`")
    for _ in range(2):
        vg(pycg.convert_to_tensor(np.array([1.0])))
    assert f.calls == 2
    assert "reads the R environment" in vg.replayed.explain()[0]


def test_records_of_two_threads_stay_apart(backend):
    results, errors = {}, []

    def work(k):
        try:
            f = _Counted(lambda p: interop.call_op("sum", interop.r_operator(
                "*", p, float(k))))
            vg = _vg(f)
            for i in range(20):
                g = vg(pycg.convert_to_tensor(np.full(3, float(i))))[1]
                np.testing.assert_allclose(_float(g), np.full(3, float(k)))
            results[k] = f.calls
        except Exception as e:   # reported below
            errors.append(e)
    threads = [threading.Thread(target=work, args=(k,)) for k in (2, 5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and results == {2: 1, 5: 1}
    assert replay.current() is None
