"""pycg.to_jax and the state f touches without taking it as an argument:
random draws (a SeedGenerator, the global generator) and closed-over
pycg.Variables, under jax.vjp, jax.grad, jax.jit and jax.vmap.

The oracles: the chain rule (dropout's gradient is its forward's mask
times the upstream), eager pycg's sequence of draws from a twin generator
(the same seed: the numbers depend only on the (seed, counter) pair), and
the variables' values as assigned."""
import numpy as np
import pytest

import pycg
from pycg import ops
from pycg.random import seed_generator
from support import backend_switch

jax = pytest.importorskip("jax")
jnp = jax.numpy


jax_backend = backend_switch.fixture("jax", autouse=True)


def _dropout(seed):
    return pycg.to_jax(lambda x: pycg.random.dropout(x, 0.5, seed=seed))


def _eager_masks(seed, n, count):
    """The masks eager pycg draws from a fresh generator of `seed`."""
    twin = pycg.random.SeedGenerator(seed)
    return [pycg.random.dropout(ops.ones((n,)), 0.5, seed=twin).numpy()
            for _ in range(count)]


def _concrete(variable):
    return not isinstance(variable._value, jax.core.Tracer)


def test_the_backward_sees_the_forward_draw():
    f = _dropout(pycg.random.SeedGenerator(3))
    y, vjp = jax.vjp(f, jnp.ones(64))
    (g,) = vjp(jnp.ones(64))
    np.testing.assert_array_equal(g, (np.asarray(y) != 0) * 2.0)
    assert 0 < int((np.asarray(y) == 0).sum()) < 64


def test_the_backward_sees_the_forward_draw_after_other_draws():
    gen = pycg.random.SeedGenerator(4)
    f = _dropout(gen)
    y, vjp = jax.vjp(f, jnp.ones(64))
    for _ in range(3):   # (the generator moves on meanwhile)
        pycg.random.uniform((2,), seed=gen)
        f(jnp.ones(64))
    (g,) = vjp(jnp.ones(64))
    np.testing.assert_array_equal(g, (np.asarray(y) != 0) * 2.0)


def test_eager_calls_draw_eager_pycg_sequence():
    f = _dropout(pycg.random.SeedGenerator(5))
    got = [np.asarray(f(jnp.ones(32))) for _ in range(2)]
    got.append(np.asarray(jax.grad(lambda x: jnp.sum(f(x)))(jnp.ones(32))))
    for a, b in zip(got, _eager_masks(5, 32, 3)):
        np.testing.assert_array_equal(a, b)


def test_jit_draws_fresh_numbers_at_each_call_as_eager_pycg():
    gen = pycg.random.SeedGenerator(6)
    f = jax.jit(_dropout(gen))
    got = [np.asarray(f(jnp.ones(32))) for _ in range(3)]
    for a, b in zip(got, _eager_masks(6, 32, 3)):
        np.testing.assert_array_equal(a, b)
    assert not np.array_equal(got[0], got[1])
    assert _concrete(gen.state)
    assert gen.state.numpy().tolist() == [6, 3]
    pycg.random.uniform((2,), seed=gen)   # (no tracer left: works)
    pycg.random.uniform((2,))


def test_jit_of_the_gradient_uses_each_call_own_draw():
    gen = pycg.random.SeedGenerator(7)
    f = _dropout(gen)

    @jax.jit
    def value_and_mask(x):
        y, vjp = jax.vjp(f, x)
        return y, vjp(jnp.ones_like(x))[0]
    masks = _eager_masks(7, 48, 2)
    for expected in masks:
        y, g = value_and_mask(jnp.ones(48))
        np.testing.assert_array_equal(y, expected)
        np.testing.assert_array_equal(g, expected)
    assert gen.state.numpy().tolist() == [7, 2]


def test_the_global_generator_made_inside_jit_moves_on(monkeypatch):
    monkeypatch.setattr(seed_generator, "_global", [])
    f = jax.jit(pycg.to_jax(lambda x: x * pycg.random.uniform((4,))))
    a, b = (np.asarray(f(jnp.ones(4))) for _ in range(2))
    state = seed_generator._global[0].state
    assert _concrete(state)
    seed, counter = state.numpy().tolist()
    assert counter == 2
    twin = pycg.random.SeedGenerator(seed)
    np.testing.assert_array_equal(a, pycg.random.uniform((4,), seed=twin))
    np.testing.assert_array_equal(b, pycg.random.uniform((4,), seed=twin))


def test_a_closed_over_variable_is_read_at_each_jit_call():
    w = pycg.Variable(3.0)
    f = jax.jit(pycg.to_jax(lambda x: x * w))
    g = jax.jit(jax.grad(pycg.to_jax(lambda x: x * w)))
    assert float(f(1.0)) == 3.0 and float(g(1.0)) == 3.0
    w.assign(30.0)
    assert float(f(1.0)) == 30.0 and float(g(1.0)) == 30.0


def test_the_backward_reads_the_variable_the_forward_read():
    w = pycg.Variable(2.0)
    y, vjp = jax.vjp(pycg.to_jax(lambda x: x * w), 1.0)
    w.assign(50.0)
    assert float(y) == 2.0 and float(vjp(1.0)[0]) == 2.0


@pytest.mark.parametrize("compiled", [False, True])
def test_assign_add_inside_to_jax_updates_the_variable(compiled):
    w = pycg.Variable(1.0)

    def step(x):
        w.assign_add(x)
        return x * w
    f = pycg.to_jax(step)
    f = jax.jit(f) if compiled else f
    assert float(f(2.0)) == 2.0 * 3.0
    assert float(f(2.0)) == 2.0 * 5.0
    assert _concrete(w) and float(w.numpy()) == 5.0


def test_assign_under_vmap_is_a_clear_error_and_leaves_no_tracer():
    w = pycg.Variable(1.0)

    def step(x):
        w.assign_add(x)
        return x * 2
    with pytest.raises(ValueError, match=r"pycg.to_jax\(step\): step "
                       r"assigns a value JAX traces .*jax.vmap.* return the "
                       r"value from step and assign it outside"):
        jax.vmap(pycg.to_jax(step))(jnp.ones(3))
    assert _concrete(w) and float(w.numpy()) == 1.0


def test_an_error_inside_a_jit_trace_leaves_no_tracer():
    gen = pycg.random.SeedGenerator(8)

    def bad(x):
        pycg.random.uniform((2,), seed=gen)
        raise KeyError("inside")
    with pytest.raises(KeyError):
        jax.jit(pycg.to_jax(bad))(1.0)
    assert _concrete(gen.state) and gen.state.numpy().tolist() == [8, 0]
    pycg.random.uniform((2,), seed=gen)


def test_pycg_function_around_to_jax_threads_the_draws():
    gen = pycg.random.SeedGenerator(9)
    drop = _dropout(gen)
    f = pycg.function(lambda x: pycg.convert_to_tensor(drop(x)))
    got = [f(pycg.constant(np.ones(16, "float32"))).numpy() for _ in range(2)]
    for a, b in zip(got, _eager_masks(9, 16, 2)):
        np.testing.assert_array_equal(a, b)


def test_a_variable_made_at_every_trace_is_a_clear_error():
    kept = []

    def grows(x):
        kept.append(pycg.Variable(1.0))
        return x * kept[-1]
    with pytest.raises(ValueError, match=r"pycg.to_jax\(grows\): grows "
                       r"creates a new pycg.Variable that outlives it each "
                       r"time JAX traces it; create its variables outside"):
        jax.jit(pycg.to_jax(grows))(2.0)
    assert all(_concrete(v) for v in kept)
    w = pycg.Variable(1.0)   # (made once, outside: read at each call)
    f = jax.jit(pycg.to_jax(lambda x: x * w))
    assert float(f(2.0)) == 2.0
