"""The fast paths of issue 15 give the same bits as the general ones: VJPs
on backend values (used while nothing records) against the rules' ops
(used under an outer recording tape), and custom_gradient's lean path (one
tape) against its general path (two tapes)."""
import numpy as np
import pytest

import pycg
from pycg import ops
from support.log1pexp_case import log1pexp


def _chain(x):
    y = x
    for i in range(12):
        y = [ops.tanh, ops.sigmoid, ops.exp, ops.relu, log1pexp][i % 5](y)
        y = y * 0.5
    return y


def _grad(x, outer):
    if outer:   # an enclosing tape records: the general paths run
        with pycg.GradientTape(persistent=True) as out:
            out.watch(x)
            with pycg.GradientTape() as tape:
                tape.watch(x)
                y = _chain(x)
            return tape.gradient(y, x)
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = _chain(x)
    return tape.gradient(y, x)


@pytest.mark.parametrize("value", [0.5, [-1.5, 0.25, 2.0]])
def test_fast_and_general_paths_agree_bit_for_bit(backend, value):
    x = pycg.constant(np.asarray(value, np.float32))
    fast, general = _grad(x, False), _grad(x, True)
    assert fast.dtype == general.dtype
    np.testing.assert_array_equal(fast.numpy(), general.numpy())


def test_the_lean_path_still_has_a_second_derivative(backend):
    x = pycg.constant(0.3)
    with pycg.GradientTape() as t2:
        t2.watch(x)
        with pycg.GradientTape() as t1:
            t1.watch(x)
            y = log1pexp(x)
        g = t1.gradient(y, x)
    s = 1 / (1 + np.exp(-0.3))
    np.testing.assert_allclose(float(g), s, rtol=1e-6)
    np.testing.assert_allclose(float(t2.gradient(g, x)), s * (1 - s),
                               rtol=1e-5)


def test_what_a_tape_tracks_is_what_its_roots_reach(backend):
    # the backward loop takes the tape's ids as the live set when the
    # sources include every root (pycg.core.Recorder.roots); that holds
    # only if the ids are exactly what the roots reach through the entries
    from pycg.core import recorder as core
    x, w = pycg.constant([0.5, -1.0]), pycg.Variable([2.0, 3.0])
    c = pycg.constant([1.0, 1.0])
    with pycg.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = log1pexp(x * w) + c
        z, _ = ops.split(ops.tanh(y), 2)
        ops.sin(c)   # not tracked
    rec = tape._rec
    assert rec.roots == {x._id, w._id}
    assert core.live_ids(rec.entries, rec.roots) == rec.ids
    gx, gw = tape.gradient(z, [x, w])        # the shortcut
    (gx1,) = tape.gradient(z, [x])           # live_ids (w is a root too)
    np.testing.assert_array_equal(gx.numpy(), gx1.numpy())
    tape.reset()
    assert rec.roots == set() and rec.ids == set()


@pytest.mark.parametrize("value", [np.float32(0.5), np.float64(-0.75),
                                   np.array([0.5, -2.0], np.float32)])
def test_a_rule_called_alone_gives_the_backward_loops_bits(backend, value):
    # the backward loop and Rule.__call__ share Rule.one_input: the same
    # direct VJP on a NumPy scalar (its type says its dtype) as on an array
    x = pycg.constant(value)
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = ops.tanh(ops.sigmoid(x))
    (rule, ins, outs, params), = tape._rec.entries[-1:]
    up = pycg.constant(np.full(np.shape(value), 1.5, np.asarray(value).dtype))
    alone = rule((up,), ins, outs, params, {ins[0]._id})[0]
    with pycg.GradientTape() as tape:
        tape.watch(ins[0])
        y = ops.tanh(ins[0])
    looped = tape.gradient(y, ins[0], output_gradients=up)
    assert alone.dtype == looped.dtype
    np.testing.assert_array_equal(alone.numpy(), looped.numpy())
    np.testing.assert_array_equal(
        alone.numpy(), (up.numpy() * (1 - outs[0].numpy() ** 2)))


def test_a_variable_read_gives_the_general_readings_bits(backend):
    # a call that reads a variable is recorded by its plan; grad_fn's pair
    # is taken as it stands where it fits, a dict is read by the general
    # contracts: the same gradients, and the closed form
    v = pycg.Variable(np.array([0.5, -2.0], np.float32))

    @pycg.custom_gradient
    def by_pair(x):
        def grad(upstream, variables=None):
            return upstream * v * 3.0, [upstream * x]
        return x * v, grad

    @pycg.custom_gradient
    def by_dict(x):
        def grad(upstream):
            return {"x": upstream * v * 3.0, v: upstream * x}
        return x * v, grad

    x = pycg.constant(np.array([1.5, 0.25], np.float32))
    got = []
    for f in (by_pair, by_dict):
        with pycg.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        got.append([g.numpy() for g in tape.gradient(y, [x, v])])
    for a, b in zip(*got):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_allclose(got[0][0], v.numpy() * 3.0)
    np.testing.assert_allclose(got[0][1], x.numpy())


def test_a_scalar_variable_reads_as_a_scalar_constant_is(backend):
    # on numpy a 0-d value is a NumPy scalar (an op on a 0-d array costs
    # ~13x as much); a variable's reads stay so after each kind of update
    c = pycg.constant(np.float32(1.5))
    v = pycg.Variable(np.float32(1.5))
    snapshot = v.read()
    reads = [v.read()._value]
    for update, arg, want in ((v.assign, 4.0, 4.0), (v.assign_add, 0.5, 4.5),
                              (v.assign_sub, 2.0, 2.5)):
        update(arg)
        reads.append(v.read()._value)
        assert float(v.numpy()) == want
    assert {type(r) for r in reads} == {type(c._value)}
    assert float(snapshot.numpy()) == 1.5   # (a read is not a view)
    assert v.shape == () and v.dtype == np.float32


def test_two_tensors_and_a_variable_take_the_pair_as_it_stands(backend):
    # grad_fn's pair ((dx, dy), [dv]) of a call of two tensors that read a
    # variable: the closed form of d(x * y * v), and the same as the pair
    # read by the general contracts (a NumPy array for the variable)
    v = pycg.Variable(np.array([0.5, -2.0], np.float32))

    def make(as_numpy):
        @pycg.custom_gradient
        def f(x, y):
            def grad(upstream, variables=None):
                dv = upstream * x * y
                return (upstream * y * v, upstream * x * v), [
                    dv.numpy() if as_numpy else dv]
            return x * y * v, grad
        return f

    x = pycg.constant(np.array([1.5, 0.25], np.float32))
    y = pycg.constant(np.array([-3.0, 4.0], np.float32))
    got = []
    for f in (make(False), make(True)):
        with pycg.GradientTape() as tape:
            tape.watch([x, y])
            out = f(x, y)
        got.append([g.numpy() for g in tape.gradient(out, [x, y, v])])
    for a, b in zip(*got):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_allclose(got[0][0], y.numpy() * v.numpy())
    np.testing.assert_allclose(got[0][1], x.numpy() * v.numpy())
    np.testing.assert_allclose(got[0][2], x.numpy() * y.numpy())


def test_a_variables_operators_are_the_ops_on_its_read(backend):
    # a Variable's operators read it, then run the tensor's operator (as
    # tf.Variable's); Python tries a subclass's reflected operator first,
    # so `t OP v` takes the same path: the same values, bits and gradients
    import operator as o
    v = pycg.Variable(np.array([[0.5, -2.0], [1.5, 3.0]], np.float32))
    t = pycg.constant(np.array([[1.25, 0.5], [-4.0, 2.0]], np.float32))
    pairs = ((v, t, v.read(), t), (t, v, t, v.read()),
             (v, 2.0, v.read(), 2.0), (3, v, 3, v.read()))
    for op in (o.add, o.sub, o.mul, o.truediv, o.pow, o.matmul, o.mod,
               o.floordiv, o.lt, o.le, o.gt, o.ge, o.eq, o.ne):
        for a, b, ra, rb in pairs[:2] if op is o.matmul else pairs:
            got, want = op(a, b), op(ra, rb)
            assert type(got) is pycg.Tensor and got.dtype == want.dtype
            np.testing.assert_array_equal(got.numpy(), want.numpy())
    for unary in (o.neg, abs, lambda x: x[1]):
        np.testing.assert_array_equal(unary(v).numpy(),
                                      unary(v.read()).numpy())
    with pycg.GradientTape() as tape:
        y = ops.sum(v * t + t / v - v @ t)
    np.testing.assert_allclose(
        tape.gradient(y, v).numpy(),
        t.numpy() - t.numpy() / v.numpy() ** 2 - np.ones((2, 2)) @ t.numpy().T,
        rtol=1e-6)
