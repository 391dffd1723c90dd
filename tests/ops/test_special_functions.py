"""The special functions (pycg/ops/special.py) on every backend against
their peers: TensorFlow's lgamma, digamma and polygamma, SciPy's gamma,
digamma, betaln and beta, Python's exact math.comb; at the edges (0, -0,
the negative integers, +-inf, NaN) the peer's answer; dtypes as the other
float ops; complex inputs and bad orders refused by name."""
import math

import numpy as np
import pytest
import scipy.special as sp
import tensorflow as tf

import pycg
from pycg import ops
EDGES = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, -1.0, -2.0, -1e300,
                  1e300, -0.5, 0.5, 1.0, 2.0, 171.7, -171.5])


@pytest.fixture
def every_backend(backend):
    """The backends of the `backend` fixture (make test leaves jax to make
    soak, as for every op: XLA compiles each of these for a few seconds;
    test_the_jax_kernels_are_the_numpy_ones runs on jax always)."""
    return backend


def _ulps(got, want):
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    scale = np.spacing(np.maximum(np.abs(got), np.abs(want)))
    out = np.abs(got - want) / scale
    out[(got == want) | (np.isnan(got) & np.isnan(want))] = 0
    return out


def _grid():
    rng = np.random.default_rng(0)
    x = np.concatenate([rng.uniform(0, 3, 3000),
                        np.exp(rng.uniform(-20, 20, 2000)),
                        1 + rng.uniform(-1e-3, 1e-3, 200),
                        2 + rng.uniform(-1e-3, 1e-3, 200),
                        1.4616321449683622 + rng.uniform(-1e-3, 1e-3, 200)])
    return x[x != np.round(x)]


POSITIVE = _grid()
NEGATIVE = -np.exp(np.random.default_rng(1).uniform(-10, 4, 3000))
NEGATIVE = NEGATIVE[NEGATIVE != np.round(NEGATIVE)]


def _tf_polygamma(n, x):
    return tf.math.polygamma(tf.constant(float(n), tf.float64), x).numpy()


# the best peer of each for x > 0 (SciPy's lgamma and TensorFlow's digamma
# lose digits near their zeros; glibc's lgamma and SciPy's digamma do not),
# and the ulps within which pycg agrees with it there
@pytest.mark.parametrize("name, ours, peer, ulps", [
    ("lgamma", ops.lgamma, lambda x: tf.math.lgamma(x).numpy(), 8),
    ("digamma", ops.digamma, sp.psi, 4),
    ("trigamma", lambda x: ops.polygamma(1, x), lambda x: sp.polygamma(1, x),
     8),
    ("polygamma3", lambda x: ops.polygamma(3, x),
     lambda x: sp.polygamma(3, x), 16),
    ("gamma", ops.gamma, sp.gamma, 8),
])
def test_positive_x_within_a_few_ulps_of_the_peer(every_backend, name, ours,
                                                    peer, ulps):
    # (TensorFlow's float64 pow and exp, which gamma's Stirling form uses
    # above 12, are off by up to 20 ulps there; NumPy's and JAX's are not)
    if name == "gamma" and every_backend == "tensorflow":
        ulps = 32
    got = ours(pycg.constant(POSITIVE)).numpy()
    assert _ulps(got, peer(POSITIVE)).max() <= ulps, name


@pytest.mark.parametrize("name, ours, peer", [
    ("lgamma", ops.lgamma, lambda x: tf.math.lgamma(x).numpy()),
    ("digamma", ops.digamma, sp.psi),
    ("trigamma", lambda x: ops.polygamma(1, x),
     lambda x: _tf_polygamma(1, x)),
    ("gamma", ops.gamma, sp.gamma),
])
def test_negative_x_agrees_with_the_peer(every_backend, name, ours, peer):
    # (by reflection, as the peers: near the functions' zeros on the
    # negative axis every one of them loses digits, so relative 1e-9 there)
    got = ours(pycg.constant(NEGATIVE)).numpy()
    np.testing.assert_allclose(got, peer(NEGATIVE), rtol=1e-9, atol=1e-12,
                               err_msg=name)


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4])
def test_the_gamma_family_at_the_edges_gives_tensorflows_answers(
        every_backend, n):
    # NaN and +-inf where TensorFlow gives them (SciPy differs at the poles:
    # -inf where TensorFlow says NaN), finite values as SciPy's (TensorFlow
    # underflows polygamma(1, 1e300) to 0; it is 1e-300)
    x = pycg.constant(EDGES)
    want = _tf_polygamma(n, EDGES)
    got = ops.polygamma(n, x).numpy()
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    infinite = np.isinf(want)
    np.testing.assert_array_equal(got[infinite], want[infinite])
    scipy = sp.psi(EDGES) if n == 0 else sp.polygamma(n, EDGES)
    right = np.isfinite(want) & (EDGES > 0)   # (SciPy's, for x > 0)
    np.testing.assert_allclose(got[right], scipy[right], rtol=1e-12)
    # at the negative half-integers cot(pi x) is 0, so the reflection
    # formula gives (-1)^n psi_n(1 - x) - pi^(n+1) C_n(0) (TensorFlow's
    # own loses 5 digits at x = -171.5, n = 4)
    left = np.isfinite(want) & (EDGES < 0)
    at_zero = {0: 0, 1: -1, 2: 0, 3: -2, 4: 0}[n]
    one_minus = 1 - EDGES[left]
    reflected = (-1) ** n * (sp.psi(one_minus) if n == 0 else
                             sp.polygamma(n, one_minus)) \
        - math.pi ** (n + 1) * at_zero
    np.testing.assert_allclose(got[left], reflected, rtol=1e-12)
    np.testing.assert_array_equal(np.signbit(got[scipy == 0]),
                                  np.signbit(scipy[scipy == 0]))
    if n == 0:
        np.testing.assert_array_equal(ops.digamma(x).numpy(), got)
        lg = ops.lgamma(x).numpy()
        tf_lg = tf.math.lgamma(EDGES).numpy()
        np.testing.assert_array_equal(np.isnan(lg), np.isnan(tf_lg))
        np.testing.assert_allclose(lg, tf_lg, rtol=1e-13)


def test_gamma_at_the_edges_gives_scipys_answers(every_backend):
    got = ops.gamma(pycg.constant(EDGES)).numpy()
    want = sp.gamma(EDGES)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_allclose(got, want, rtol=1e-13)   # (+-inf, 0 exact)
    assert np.signbit(got[4]) and got[4] == -np.inf      # gamma(-0) = -inf


def test_lbeta_and_beta_at_the_edges(every_backend):
    a = pycg.constant(np.array([0.0, -0.0, -1.0, -np.inf, np.inf, np.nan,
                                2.0, -0.5]))
    b = pycg.constant(np.array([2.0, 2.0, 2.0, 2.0, 2.0, 1.0, np.inf, 2.0]))
    # inf where an argument is 0, NaN at a negative integer, -inf (0) where
    # one is inf, log |B| = log 4 at (-0.5, 2): SciPy's betaln there
    want = [np.inf, np.inf, np.nan, np.nan, -np.inf, np.nan, -np.inf,
            float(sp.betaln(-0.5, 2.0))]
    np.testing.assert_allclose(ops.lbeta(a, b).numpy(), want, rtol=1e-14)
    np.testing.assert_allclose(
        ops.beta(a, b).numpy(),
        [np.inf, np.inf, np.nan, np.nan, 0.0, np.nan, 0.0, -4.0], rtol=1e-14)


def test_lbeta_is_accurate_where_an_argument_is_large(every_backend):
    # B(a, m) = (m - 1)! / (a (a + 1) ... (a + m - 1)) for a whole m: where
    # lgamma(a) + lgamma(b) - lgamma(a + b) loses the digits (a up to 1e12;
    # SciPy's betaln loses 8 of them at a = 1e5, b = 0.16)
    rng = np.random.default_rng(2)
    a = np.concatenate([[1e3, 1e6, 1e9, 1e12], np.exp(rng.uniform(-3, 12,
                                                                  200))])
    for m in (1, 2, 3, 7, 15):
        want = math.lgamma(m) - np.sum(np.log(a[:, None] + np.arange(m)), 1)
        np.testing.assert_allclose(ops.lbeta(pycg.constant(a), float(m))
                                   .numpy(), want, rtol=1e-13, err_msg=m)
        np.testing.assert_allclose(ops.lbeta(float(m), pycg.constant(a))
                                   .numpy(), want, rtol=1e-13, err_msg=m)
    p, q = np.exp(rng.uniform(-3, 3, (2, 500)))
    np.testing.assert_allclose(ops.beta(pycg.constant(p), q).numpy(),
                               sp.beta(p, q), rtol=1e-12)
    np.testing.assert_allclose(ops.lbeta(pycg.constant(p), q).numpy(),
                               np.log(sp.beta(p, q)), rtol=1e-12, atol=1e-14)


def test_choose_is_exact_for_whole_numbers(every_backend):
    n, k = np.meshgrid(np.arange(-12.0, 70.0), np.arange(-2.0, 40.0))
    want = np.vectorize(lambda n, k: 0.0 if k < 0 else float(
        math.comb(int(n), int(k)) if n >= 0 else
        (-1) ** int(k) * math.comb(int(k - n - 1), int(k))))(n, k)
    got = ops.choose(pycg.constant(n), k).numpy()
    # (beyond k = 30, R's exp(lchoose) rounded, as R: within 1e-13)
    np.testing.assert_allclose(got, want, rtol=1e-13)
    whole = np.abs(want) < 2 ** 53
    np.testing.assert_array_equal(got[whole & (np.abs(n) < 40)],
                                  want[whole & (np.abs(n) < 40)])
    with np.errstate(divide="ignore"):
        np.testing.assert_allclose(ops.lchoose(pycg.constant(n), k).numpy(),
                                   np.log(np.abs(want)), rtol=1e-13)


def test_choose_of_a_real_n_and_a_fractional_k(every_backend):
    # n real: the falling factorial over k!; k is rounded (half to even)
    n = pycg.constant(np.array([2.5, -1.5, 7.3, 0.5]))
    k = pycg.constant(np.array([2.0, 3.4, 2.5, 40.0]))
    want = [2.5 * 1.5 / 2, -1.5 * -2.5 * -3.5 / 6, 7.3 * 6.3 / 2,
            float(sp.binom(0.5, 40))]
    np.testing.assert_allclose(ops.choose(n, k).numpy(), want, rtol=1e-12)
    np.testing.assert_allclose(ops.lchoose(n, k).numpy(),
                               np.log(np.abs(want)), rtol=1e-12)


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16"])
def test_narrow_floats_keep_their_dtype(every_backend, dtype):
    x = np.array([0.3, 1.7, 4.5, -0.5], np.float64)
    t = ops.cast(pycg.constant(x), dtype)
    tol = {"float32": 1e-6, "float16": 2e-3, "bfloat16": 2e-2}[dtype]
    for ours, want in [(ops.lgamma, tf.math.lgamma(x).numpy()),
                       (ops.digamma, sp.psi(x)), (ops.gamma, sp.gamma(x)),
                       (lambda v: ops.polygamma(1, v), sp.polygamma(1, x))]:
        out = ours(t)
        assert out.dtype == dtype
        np.testing.assert_allclose(out.numpy().astype(np.float64), want,
                                   rtol=tol, atol=tol)
    out = ops.lbeta(t, t)
    assert out.dtype == dtype


def test_integers_and_python_numbers_are_floatx(every_backend):
    out = ops.lgamma(pycg.constant([1, 2, 5]))
    assert out.dtype == pycg.config.floatx()
    np.testing.assert_allclose(out.numpy(), [0.0, 0.0, math.log(24)],
                               atol=1e-6)
    assert ops.choose(5, 2).dtype == pycg.config.floatx()
    assert float(ops.choose(5, 2)) == 10.0


@pytest.mark.parametrize("name, call", [
    ("lgamma", lambda z: ops.lgamma(z)),
    ("digamma", lambda z: ops.digamma(z)),
    ("gamma", lambda z: ops.gamma(z)),
    ("polygamma", lambda z: ops.polygamma(1, z)),
    ("lbeta", lambda z: ops.lbeta(z, 1.0)),
    ("beta", lambda z: ops.beta(2.0, z)),
    ("choose", lambda z: ops.choose(z, 2.0)),
    ("lchoose", lambda z: ops.lchoose(z, 2.0)),
])
def test_complex_inputs_are_refused_by_name(every_backend, name, call):
    z = pycg.constant(np.array([1 + 1j], np.complex64))
    with pytest.raises(TypeError, match=rf"pycg\.ops\.{name}: expected a "
                       "real tensor, got complex64"):
        call(z)


@pytest.mark.parametrize("n", [-1, 1.5, "1", True, None, [1, 2], 171,
                               10**30])
def test_polygamma_takes_one_whole_order(every_backend, n):
    with pytest.raises(ValueError, match=r"pycg\.ops\.polygamma: `n` must be "
                       r"a whole number from 0 to 170 \(the order of the "
                       r"derivative; beyond, n! overflows float64\), got "):
        ops.polygamma(n, 1.0)


def test_polygamma_of_the_highest_order(every_backend):
    # psi_170(1) = -170! zeta(171), and zeta(171) is 1 to float64 precision
    got = float(ops.polygamma(170, pycg.constant(np.array(1.0))))
    assert got == pytest.approx(-float(math.factorial(170)), rel=1e-14)


def test_polygamma_takes_a_whole_float_or_a_one_element_tensor(every_backend):
    want = math.pi ** 2 / 6
    for n in (1.0, np.int64(1), pycg.constant(1), pycg.constant([1.0])):
        assert float(ops.polygamma(n, 1.0)) == pytest.approx(want, 1e-6)


def test_every_order_has_a_gradient(every_backend):
    # d^3/dx^3 lgamma = polygamma(2): three rules in a row
    def total(f):
        return lambda v: ops.sum(f(v))
    f = pycg.grad(total(pycg.grad(total(pycg.grad(total(ops.lgamma))))))
    x = pycg.constant(np.array([0.7, 2.5, -1.5, 30.0]))
    np.testing.assert_allclose(f(x).numpy(),
                               sp.polygamma(2, x.numpy()), rtol=1e-12)


def test_choose_has_the_polynomials_derivative_at_its_zeros(every_backend):
    # choose(n, 4) = n (n-1) (n-2) (n-3) / 24 vanishes at n = 0, 1, 2, 3,
    # where its derivative is the product of the other factors over 24
    n = pycg.constant(np.array([0.0, 1.0, 2.0, 3.0, -2.0, 5.5]))
    g = pycg.grad(lambda v: ops.sum(ops.choose(v, 4.0)))(n).numpy()
    v = n.numpy()
    want = [sum(np.prod([v[i] - j for j in range(4) if j != m])
                for m in range(4)) / 24 for i in range(len(v))]
    np.testing.assert_allclose(g, want, rtol=1e-12, atol=1e-14)


def test_the_jax_kernels_are_the_numpy_ones():
    # the same algorithms (pycg/backends/_gamma.py, _beta.py), compiled by
    # XLA, which must not reassociate them (digamma's root in two parts:
    # that lost 5 digits near it); XLA's log and sin differ from NumPy's in
    # the last bit, which the negative zeros of lgamma amplify to 1e-14
    pytest.importorskip("jax")
    x = np.concatenate([EDGES, POSITIVE[::7], NEGATIVE[::7]])
    calls = {"lgamma": ops.lgamma, "digamma": ops.digamma,
             "trigamma": lambda v: ops.polygamma(1, v), "gamma": ops.gamma,
             "lbeta": lambda v: ops.lbeta(v, 2.5),
             "choose": lambda v: ops.choose(v, 3.0)}
    previous = pycg.config.backend()
    try:
        want = {k: f(pycg.constant(x)).numpy() for k, f in calls.items()}
        pycg.config.set_backend("jax")
        for name, f in calls.items():
            got = f(pycg.constant(x)).numpy()
            np.testing.assert_array_equal(np.isnan(got), np.isnan(want[name]))
            np.testing.assert_allclose(got, want[name], rtol=1e-12,
                                       err_msg=name)
    finally:
        pycg.config.set_backend(previous)
