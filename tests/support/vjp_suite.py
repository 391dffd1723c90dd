"""Every op's VJP against central finite differences and against
TensorFlow's own GradientTape, on each backend, in float64: the one table
of cases (every tests/support/vjp_cases_*.py, keyed by op name) and the
suite that runs a topic's share of it in tests/ops/test_<topic>.py
(tests/test_ops_vjp.py checks that the table covers every rule and public
op, and that every case has its file)."""

import numpy as np
import pytest
import tensorflow as tf

import pycg
from pycg import ops
from support.grids import every
from support.op_topics import TopicSuite, merged, of_topic

CASES = merged("vjp_cases_*.py", "CASES")

PARAMS = [pytest.param(name, case, id=f"{name}-{k}")
          for name, cases in sorted(CASES.items())
          for k, case in enumerate(cases if isinstance(cases, list)
                                   else [cases])]


def _flat(out):
    return list(out) if isinstance(out, (list, tuple)) else [out]


def _arrays(case, seed):
    rng = np.random.default_rng(seed)
    return [np.asarray(make(rng), np.float64) for make in case.args]


def _cotangents(outs, seed):
    rng = np.random.default_rng(seed + 1000)
    return [np.asarray(rng.standard_normal(o.shape), o.dtype) for o in outs]


def _pycg_vjp(case, arrays, seed):
    xs = [pycg.constant(a) for a in arrays]
    with pycg.GradientTape() as tape:
        tape.watch(xs)
        outs = _flat(case.fn(*xs))
    cts = _cotangents(outs, seed)
    grads = tape.gradient(outs, xs, output_gradients=cts)
    for x, g in zip(xs, grads):
        assert g is not None, "no gradient reached an input"
        assert g.shape == x.shape and g.dtype == np.float64
    return [o.numpy() for o in outs], cts, [g.numpy() for g in grads]


def _numeric_vjp(case, arrays, cts):
    def projected(args):
        outs = _flat(case.fn(*[pycg.constant(a) for a in args]))
        return sum(np.sum(o.numpy().astype(np.float64) * c)
                   for o, c in zip(outs, cts))

    grads = []
    for i, x in enumerate(arrays):
        g = np.zeros_like(x)
        for j in np.ndindex(x.shape):
            hi = [a.copy() for a in arrays]
            lo = [a.copy() for a in arrays]
            hi[i][j] += case.eps
            lo[i][j] -= case.eps
            g[j] = (projected(hi) - projected(lo)) / (2 * case.eps)
        grads.append(g)
    return grads


# ---- second order -----------------------------------------------------------
SECOND_ORDER = ["tanh", "sigmoid", "softplus", "erf", "power", "divide",
                "arctan2", "logsumexp", "prod", "matmul", "inv", "cholesky",
                "det", "solve", "norm", "cumsum", "getitem",
                # NumPy-namespace, math and linalg ops
                "arcsinh", "erfinv", "cbrt", "i0", "cumprod", "sort", "quantile",
                "svd", "eigh", "qr", "solve_triangular", "fft", "rfft",
                "irfft", "logdet", "pinv", "segment_max", "jvp",
                # the special functions
                "lgamma", "polygamma", "lbeta", "choose",
                # convolution and pooling: the rules of the primitives are
                # each other's transposes (tests/support/vjp_cases_nn.py)
                "conv", "depthwise_conv", "conv_transpose", "max_pool",
                "average_pool", "_conv", "_conv_input_grad",
                "_conv_filter_grad", "_max_pool_grad", "_max_pool_grad_grad",
                "_avg_pool_grad"]


def _first(name):
    cases = CASES[name]
    return cases[0] if isinstance(cases, list) else cases


def _second_order_fd(case):
    def f(*xs):
        outs = _flat(case.fn(*xs))
        return ops.sum(ops.stack([ops.sum(o) for o in outs]))
    pycg.check_gradients(f, *_arrays(case, seed=3), order=2)


def _second_order_tf(name, case):
    arrays = _arrays(case, seed=4)
    w = [np.random.default_rng(5 + i).standard_normal(a.shape)
         for i, a in enumerate(arrays)]
    xs = [pycg.constant(a) for a in arrays]
    with pycg.GradientTape() as outer:
        outer.watch(xs)
        with pycg.GradientTape() as inner:
            inner.watch(xs)
            s = ops.sum(ops.stack([ops.sum(o) for o in _flat(case.fn(*xs))]))
        gs = inner.gradient(s, xs)
        gw = ops.sum(ops.stack([ops.sum(g * wi) for g, wi in zip(gs, w)]))
    hvp = outer.gradient(gw, xs, unconnected_gradients="zero")

    txs = [tf.constant(a) for a in arrays]
    with tf.GradientTape() as touter:
        touter.watch(txs)
        with tf.GradientTape() as tinner:
            tinner.watch(txs)
            ts = tf.add_n([tf.reduce_sum(o) for o in _flat(case.tf_fn(*txs))])
        tgs = tinner.gradient(ts, txs)
        tgw = tf.add_n([tf.reduce_sum(g * wi) for g, wi in zip(tgs, w)])
    thvp = touter.gradient(tgw, txs,
                           unconnected_gradients=tf.UnconnectedGradients.ZERO)
    for i, (h, t) in enumerate(zip(hvp, thvp)):
        np.testing.assert_allclose(h.numpy(), tf.convert_to_tensor(t).numpy(),
                                   rtol=1e-6, atol=1e-7,
                                   err_msg=f"{name}: input {i}")


def _tf_vjp(case, arrays, cts):
    txs = [tf.constant(a) for a in arrays]
    with tf.GradientTape() as tape:
        tape.watch(txs)
        touts = _flat(case.tf_fn(*txs))
    tgrads = tape.gradient(touts, txs, output_gradients=cts,
                           unconnected_gradients=tf.UnconnectedGradients.ZERO)
    return touts, tgrads


class VjpSuite(TopicSuite):
    """A topic's share of the table (its ops' cases), for
    tests/ops/test_<topic>.py (tests/support/op_suites.py).
    `make test-backends` runs its finite-difference tests on jax and torch
    (-k "TestVjp and finite_differences")."""

    @classmethod
    def cases(cls, method):
        if method.startswith("test_second_order"):
            return cls.named(SECOND_ORDER)
        seeds = [("seed", [1, 2], None)] if "gradient_tape" in method else []
        params = of_topic(PARAMS, cls.TOPIC)
        if method.startswith("test_jvp"):   # (every other case; make soak:
            params = every(params, 2)        # all)
        return [("name, case", params, None)] + seeds

    def test_vjp_matches_finite_differences(self, backend, name, case):
        arrays = _arrays(case, seed=0)
        _, cts, grads = _pycg_vjp(case, arrays, seed=0)
        numeric = _numeric_vjp(case, arrays, cts)
        for i, (g, n) in enumerate(zip(grads, numeric)):
            np.testing.assert_allclose(g, n, rtol=case.rtol, atol=case.atol,
                                       err_msg=f"{name}: input {i}")

    def test_vjp_matches_tensorflow_gradient_tape(self, backend, name, case,
                                                  seed):
        arrays = _arrays(case, seed)
        outs, cts, grads = _pycg_vjp(case, arrays, seed)
        touts, tgrads = _tf_vjp(case, arrays, cts)
        assert len(outs) == len(touts)
        for o, t in zip(outs, touts):
            np.testing.assert_allclose(o, t.numpy(), rtol=1e-6, atol=1e-7,
                                       err_msg=f"{name}: forward value")
        for i, (g, t) in enumerate(zip(grads, tgrads)):
            np.testing.assert_allclose(
                g, tf.convert_to_tensor(t).numpy(), rtol=1e-6, atol=1e-7,
                err_msg=f"{name}: gradient of input {i}")

    def test_jvp_matches_finite_differences_and_the_vjp(self, backend,
                                                        name, case):
        """pycg.jvp carries tangents (pycg.core.tangents: the op's tangent
        rule, its VJP on the tangent, or its VJP transposed): J t against
        central differences along t, and <u, J t> against <J^T u, t>
        with the tape's VJP (the dot-product test)."""
        arrays = _arrays(case, seed=6)
        rng = np.random.default_rng(7)
        ts = [rng.standard_normal(a.shape) for a in arrays]
        xs = [pycg.constant(a) for a in arrays]
        outs, touts = pycg.jvp(lambda *v: _flat(case.fn(*v)), xs,
                               [pycg.constant(t) for t in ts])
        _, us, grads = _pycg_vjp(case, arrays, seed=6)

        def along(h):
            return [o.numpy() for o in _flat(case.fn(*[
                pycg.constant(a + h * t) for a, t in zip(arrays, ts)]))]
        hi, lo = along(case.eps), along(-case.eps)
        for k, (o, t_out, a, b) in enumerate(zip(outs, touts, hi, lo)):
            assert t_out.dtype == o.dtype and t_out.shape == o.shape, \
                f"{name}: output {k}'s tangent"
            np.testing.assert_allclose(
                t_out.numpy(), (a - b) / (2 * case.eps), rtol=case.rtol,
                atol=case.atol, err_msg=f"{name}: tangent of output {k}")
        # (real cotangents: for a complex output, the real part pairs)
        left = sum(float(np.real(np.sum(u * t.numpy())))
                   for u, t in zip(us, touts))
        right = sum(float(np.real(np.sum(g * t))) for g, t in zip(grads, ts))
        scale = sum(float(np.sum(np.abs(u * t.numpy())))
                    for u, t in zip(us, touts)) + 1.0
        eps = max(np.finfo(o.numpy().dtype).eps for o in outs)
        assert abs(left - right) <= 1e4 * eps * scale, \
            f"{name}: <u, J t> = {left} but <J^T u, t> = {right}"

    def test_second_order_matches_finite_differences(self, backend, name):
        _second_order_fd(_first(name))

    def test_second_order_matches_tensorflow(self, backend, name):
        _second_order_tf(name, _first(name))
