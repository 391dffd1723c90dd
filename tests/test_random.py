"""pycg.random: Keras' seed semantics, identical streams on both backends
(eagerly and inside pycg.function), and the right distributions (wide
bounds, fixed seeds)."""
import math
import warnings

import numpy as np
import pytest

import pycg
from pycg import ops, random
from support import backend_switch

N = 20000
DRAWS = {
    "normal": lambda seed: random.normal((3, 4), seed=seed),
    "uniform": lambda seed: random.uniform((5,), -1.0, 2.0, seed=seed),
    "truncated_normal": lambda seed: random.truncated_normal((7,), seed=seed),
    "randint": lambda seed: random.randint((6,), 0, 100, seed=seed),
    "categorical": lambda seed: random.categorical(
        [[0.0, 1.0, 2.0], [2.0, 0.0, -1.0]], 5, seed=seed),
    "shuffle": lambda seed: random.shuffle(ops.arange(10.0), seed=seed),
    "dropout": lambda seed: random.dropout(ops.ones((4, 5)), 0.5, seed=seed),
}


def on(backend, draw, seed):
    with backend_switch.on(backend):
        return draw(seed).numpy()


@pytest.mark.parametrize("op", sorted(DRAWS))
def test_int_seed_gives_the_same_numbers_every_call(op, backend):
    a, b = DRAWS[op](1234).numpy(), DRAWS[op](1234).numpy()
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, DRAWS[op](1235).numpy())


@pytest.mark.parametrize("op", sorted(DRAWS))
def test_both_backends_draw_the_same_stream(op):
    np.testing.assert_array_equal(on("numpy", DRAWS[op], 99),
                                  on("tensorflow", DRAWS[op], 99))
    np.testing.assert_array_equal(
        on("numpy", DRAWS[op], random.SeedGenerator(5)),
        on("tensorflow", DRAWS[op], random.SeedGenerator(5)))


def test_seed_generator_advances_and_replays(backend):
    gen = random.SeedGenerator(7)
    a = random.normal((4,), seed=gen).numpy()
    b = random.normal((4,), seed=gen).numpy()
    assert not np.array_equal(a, b)
    assert gen.state.numpy().tolist() == [7, 2]
    again = random.SeedGenerator(7)
    np.testing.assert_array_equal(random.normal((4,), seed=again).numpy(), a)
    np.testing.assert_array_equal(random.normal((4,), seed=again).numpy(), b)


def test_no_seed_draws_fresh_numbers(backend):
    a, b = random.uniform((8,)).numpy(), random.uniform((8,)).numpy()
    assert not np.array_equal(a, b)


def test_inside_function_a_generator_moves_on_each_call(tf_backend):
    gen = random.SeedGenerator(3)

    @pycg.function
    def draw():
        return random.normal((3,), seed=gen), random.uniform((2,), seed=11)
    first, second = draw(), draw()
    assert draw.trace_count == 1
    eager = random.SeedGenerator(3)
    np.testing.assert_array_equal(first[0].numpy(),
                                  random.normal((3,), seed=eager).numpy())
    np.testing.assert_array_equal(second[0].numpy(),
                                  random.normal((3,), seed=eager).numpy())
    np.testing.assert_array_equal(first[1].numpy(), second[1].numpy())
    assert gen.state.numpy().tolist() == [3, 2]


def test_dropout_inside_function_differs_per_call_and_differentiates(
        tf_backend):
    gen = random.SeedGenerator(0)

    @pycg.function
    def masked_grad(x):
        return pycg.grad(lambda v: ops.sum(random.dropout(v, 0.5,
                                                          seed=gen)))(x)
    x = ops.ones((64,))
    a, b = masked_grad(x).numpy(), masked_grad(x).numpy()
    assert set(a.tolist()) == {0.0, 2.0} and not np.array_equal(a, b)


# ---- distributions ---------------------------------------------------------
def test_normal_mean_and_variance(backend):
    x = random.normal((N,), mean=2.0, stddev=3.0, seed=1).numpy()
    assert x.dtype == np.float32
    assert abs(x.mean() - 2.0) < 0.1 and abs(x.var() / 9.0 - 1) < 0.05


def test_uniform_range_mean_and_variance(backend):
    x = random.uniform((N,), minval=-1.0, maxval=3.0, seed=2).numpy()
    assert x.min() >= -1.0 and x.max() < 3.0
    assert abs(x.mean() - 1.0) < 0.05 and abs(x.var() / (16 / 12) - 1) < 0.05


def test_truncated_normal_bounds_and_variance(backend):
    x = random.truncated_normal((N,), mean=1.0, stddev=0.5, seed=3).numpy()
    assert np.abs(x - 1.0).max() <= 1.0 + 1e-6
    phi2 = math.exp(-2) / math.sqrt(2 * math.pi)
    var = 1 - 4 * phi2 / math.erf(2 / math.sqrt(2))  # truncated at +-2
    assert abs(x.mean() - 1.0) < 0.02
    assert abs(x.var() / (0.25 * var) - 1) < 0.05


def test_randint_range_and_dtype(backend):
    x = random.randint((N,), 3, 8, dtype="int64", seed=4).numpy()
    assert x.dtype == np.int64 and set(np.unique(x).tolist()) == set(
        range(3, 8))
    assert abs(x.mean() - 5.0) < 0.05


def test_categorical_frequencies_follow_softmax(backend):
    logits = np.log(np.array([[0.2, 0.5, 0.3], [0.9, 0.05, 0.05]]))
    x = random.categorical(logits.astype(np.float32), N, seed=5).numpy()
    assert x.shape == (2, N) and x.dtype == np.int32
    for row, p in zip(x, np.exp(logits)):
        np.testing.assert_allclose(np.bincount(row, minlength=3) / N, p,
                                   atol=0.02)


def test_shuffle_permutes_along_an_axis(backend):
    x = np.arange(12.0, dtype=np.float32).reshape(3, 4)
    y = random.shuffle(x, axis=1, seed=6).numpy()
    assert not np.array_equal(x, y)
    np.testing.assert_array_equal(np.sort(y, axis=1), x)
    perm = y[0].astype(int)  # x[0] is 0, 1, 2, 3: row 0 names the order
    np.testing.assert_array_equal(y, x[:, perm])  # the same for every row


def test_dropout_rate_scale_and_gradient(backend):
    x = ops.full((N,), 2.0)
    y = random.dropout(x, 0.3, seed=7).numpy()
    values = set(np.round(y.astype(np.float64), 5).tolist())
    assert values == {0.0, round(2 / 0.7, 5)}
    assert abs((y == 0).mean() - 0.3) < 0.02
    g = pycg.grad(lambda v: ops.sum(random.dropout(v, 0.3, seed=7)))(x)
    np.testing.assert_allclose(g.numpy(), y / 2.0, rtol=1e-6)


def test_dropout_noise_shape_drops_whole_rows(backend):
    y = random.dropout(ops.ones((50, 3)), 0.5, noise_shape=(None, 1),
                       seed=8).numpy()
    assert ((y == 0).all(axis=1) | (y == 2).all(axis=1)).all()
    assert 0 < (y[:, 0] == 0).sum() < 50


def test_normal_differentiates_in_mean_and_stddev(backend):
    z = random.normal((5,), seed=9)
    g_mean, g_std = pycg.grad(
        lambda m, s: ops.sum(random.normal((5,), m, s, seed=9)),
        argnums=(0, 1))(pycg.constant(1.0), pycg.constant(2.0))
    assert float(g_mean) == 5.0
    assert float(g_std) == pytest.approx(float(ops.sum(z)), rel=1e-6)


def test_float64_and_float16_draws(backend):
    assert random.normal((3,), dtype="float64", seed=1).dtype == np.float64
    assert random.uniform((3,), dtype="float16", seed=1).dtype == np.float16


# ---- errors ----------------------------------------------------------------
@pytest.mark.parametrize("call, error, message", [
    (lambda: random.normal((2,), seed="abc"), ValueError,
     r"^pycg.random.normal: `seed` must be an integer, a "
     r"pycg.random.SeedGenerator or None, got str 'abc'$"),
    (lambda: random.SeedGenerator(1.5), ValueError,
     r"^pycg.random.SeedGenerator: `seed` must be an integer or None, got "
     r"float 1.5$"),
    (lambda: random.uniform((2,), dtype="int32"), ValueError,
     r"^pycg.random.uniform: `dtype` must be a floating dtype, got int32$"),
    (lambda: random.randint((2,), 0, 5, dtype="float32"), ValueError,
     r"^pycg.random.randint: `dtype` must be an integer dtype, got float32$"),
    (lambda: random.randint((2,), 5, 5), ValueError,
     r"^pycg.random.randint: `maxval` \(5\) must be greater than `minval` "
     r"\(5\)$"),
    (lambda: random.categorical([0.0, 1.0], 2), ValueError,
     r"^pycg.random.categorical: `logits` must be 2-D \(batch_size, "
     r"num_classes\), got shape \(2,\)$"),
    (lambda: random.dropout(ops.ones((2,)), 1.5), ValueError,
     r"^pycg.random.dropout: `rate` must be a number in \[0, 1\], got 1.5$"),
    (lambda: random.shuffle(ops.ones((2,)), axis=1), ValueError,
     r"^pycg.random.shuffle: `axis` must be an int in \[-1, 1\), got 1$"),
    (lambda: random.normal((2, -1)), ValueError,
     r"^pycg.random.normal: `shape` must be a tuple of non-negative ints$"),
])
def test_error_messages(call, error, message, backend):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(error, match=message):
            call()
