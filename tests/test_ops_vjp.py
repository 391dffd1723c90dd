"""Every op's VJP against central finite differences and against
TensorFlow's own GradientTape, on both backends, in float64.

CASES is keyed by op name. A rule in the VJP table (RULES) or a public
differentiable op in pycg.ops without a case fails
test_every_rule_and_public_op_has_a_case.
"""
import importlib
import pathlib

import numpy as np
import pytest
import tensorflow as tf
from tensorflow.python.ops import gen_math_ops as tf_raw
from tensorflow.python.ops import gen_nn_ops as tf_nn_raw

import pycg
from pycg import ops
from pycg.ops._machinery import dynamic as D
from pycg.ops import elementwise as E
from pycg.ops import manipulation as S
from pycg.ops._machinery.dispatch import RULES
from pycg.ops import rules as _rules
from support.vjp_case import (
    COND, Case, POSITIONS, binary, invertible, normal, off_bounds,
    off_integer, off_tenth, off_zero, positive, spd, sym, tf_scatter,
    tf_sym, unary, uniform_, unit, with_zeros)

# every topic's rules (pycg/ops/rules/<topic>.py) list its ops without a
# gradient
NON_DIFFERENTIABLE = tuple(
    name for path in sorted(pathlib.Path(_rules.__file__).parent.glob(
        "[!_]*.py"))
    for name in getattr(importlib.import_module(
        f"pycg.ops.rules.{path.stem}"), "NON_DIFFERENTIABLE", ()))

tnp = tf.experimental.numpy


CASES = {
    # elementwise, one input
    "abs": unary(ops.abs, tf.abs, off_zero),
    "negative": unary(ops.negative, tf.negative),
    "sqrt": unary(ops.sqrt, tf.sqrt, positive),
    "rsqrt": unary(ops.rsqrt, tf.math.rsqrt, positive),
    "square": unary(ops.square, tf.square),
    "reciprocal": unary(ops.reciprocal, tf.math.reciprocal, off_zero),
    "exp": unary(ops.exp, tf.exp),
    "expm1": unary(ops.expm1, tf.math.expm1),
    "log": unary(ops.log, tf.math.log, positive),
    "log1p": unary(ops.log1p, tf.math.log1p, positive),
    "log2": unary(ops.log2, tnp.log2, positive),
    "log10": unary(ops.log10, tnp.log10, positive),
    "sin": unary(ops.sin, tf.sin),
    "cos": unary(ops.cos, tf.cos),
    "tan": unary(ops.tan, tf.tan, unit),
    "arcsin": unary(ops.arcsin, tf.asin, unit),
    "arccos": unary(ops.arccos, tf.acos, unit),
    "arctan": unary(ops.arctan, tf.atan),
    "sinh": unary(ops.sinh, tf.sinh),
    "cosh": unary(ops.cosh, tf.cosh),
    "tanh": unary(ops.tanh, tf.tanh),
    "erf": unary(ops.erf, tf.math.erf),
    "sigmoid": unary(ops.sigmoid, tf.sigmoid),
    "softplus": unary(ops.softplus, tf.nn.softplus),
    "relu": unary(ops.relu, tf.nn.relu, off_zero),
    "sign": unary(ops.sign, tf.sign, off_zero),
    "floor": unary(ops.floor, tf.floor, off_integer),
    "ceil": unary(ops.ceil, tf.math.ceil, off_integer),
    "round": [unary(ops.round, tf.round, off_integer),
              unary(lambda x: ops.round(x, 1),
                    lambda x: tf.round(x * 10) / 10, off_tenth)],
    "cast": unary(lambda x: ops.cast(x, "float32"),
                  lambda x: tf.cast(x, tf.float32), eps=1e-3, rtol=1e-3,
                  atol=1e-4),
    "convert_to_tensor": [
        unary(ops.convert_to_tensor, tf.convert_to_tensor),
        unary(lambda x: ops.convert_to_tensor(x, "float32"),
              lambda x: tf.cast(x, tf.float32), eps=1e-3, rtol=1e-3,
              atol=1e-4)],
    "clip": unary(lambda x: ops.clip(x, -0.5, 0.5),
                  lambda x: tf.clip_by_value(x, -0.5, 0.5), off_bounds),
    # elementwise, two inputs, broadcasting
    "add": binary(ops.add, tf.add),
    "subtract": binary(ops.subtract, tf.subtract, shapes=((2, 1), (2, 3))),
    "multiply": binary(ops.multiply, tf.multiply, shapes=((3,), (2, 1))),
    "divide": binary(ops.divide, tf.divide, dom_y=off_zero),
    "true_divide": binary(ops.true_divide, tf.divide, dom_y=off_zero,
                          shapes=((2, 3), ())),
    "power": [binary(ops.power, tf.pow, dom_x=positive),
              Case(lambda x: ops.power(x, 3.0), lambda x: x ** 3,
                   (normal(2, 3),))],
    # x / y stays inside (0.08, 0.55): no jump of floor() near the inputs
    "mod": binary(ops.mod, tf.math.floormod, dom_x=uniform_(0.2, 0.8),
                  dom_y=uniform_(1.5, 2.5)),
    "floor_divide": binary(ops.floor_divide, tf.math.floordiv,
                           dom_x=uniform_(0.2, 0.8),
                           dom_y=uniform_(1.5, 2.5)),
    "maximum": binary(ops.maximum, tf.maximum),
    "minimum": binary(ops.minimum, tf.minimum, shapes=((2, 1), (2, 3))),
    "arctan2": binary(ops.arctan2, tf.atan2, off_zero, off_zero),
    "logaddexp": binary(ops.logaddexp, tnp.logaddexp),
    "where": Case(lambda x, y: ops.where(COND, x, y),
                  lambda x, y: tf.where(COND, x, y), (normal(2, 3),
                                                      normal(3,))),
    # activations and log-space ops
    "elu": unary(ops.elu, tf.nn.elu, off_zero),
    "gelu": [unary(ops.gelu, lambda x: tf.nn.gelu(x, approximate=True)),
             unary(lambda x: ops.gelu(x, approximate=False),
                   lambda x: tf.nn.gelu(x, approximate=False))],
    "silu": unary(ops.silu, tf.nn.silu),
    "softmax": [unary(ops.softmax, tf.nn.softmax),
                unary(lambda x: ops.softmax(x, axis=0),
                      lambda x: tf.nn.softmax(x, axis=0))],
    "log_softmax": unary(ops.log_softmax, tf.nn.log_softmax),
    "logsumexp": [unary(ops.logsumexp, tf.reduce_logsumexp),
                  unary(lambda x: ops.logsumexp(x, axis=1),
                        lambda x: tf.reduce_logsumexp(x, axis=1))],
    # reductions and scans
    "sum": [unary(ops.sum, tf.reduce_sum),
            unary(lambda x: ops.sum(x, axis=1), lambda x: tf.reduce_sum(x, 1)),
            unary(lambda x: ops.sum(x, axis=0, keepdims=True),
                  lambda x: tf.reduce_sum(x, 0, keepdims=True))],
    "mean": [unary(ops.mean, tf.reduce_mean),
             unary(lambda x: ops.mean(x, axis=-1),
                   lambda x: tf.reduce_mean(x, -1))],
    "prod": [unary(ops.prod, tf.reduce_prod, off_zero),
             unary(lambda x: ops.prod(x, axis=1),
                   lambda x: tf.reduce_prod(x, 1), with_zeros(1)),
             unary(ops.prod, tf.reduce_prod, with_zeros(2))],
    "max": [unary(ops.max, tf.reduce_max),
            unary(lambda x: ops.max(x, axis=0, keepdims=True),
                  lambda x: tf.reduce_max(x, 0, keepdims=True))],
    "min": [unary(ops.min, tf.reduce_min),
            unary(lambda x: ops.min(x, axis=1),
                  lambda x: tf.reduce_min(x, 1))],
    "var": unary(lambda x: ops.var(x, axis=1),
                 lambda x: tf.math.reduce_variance(x, 1)),
    "std": unary(ops.std, tf.math.reduce_std),
    "cumsum": [unary(lambda x: ops.cumsum(x, axis=1),
                     lambda x: tf.cumsum(x, 1)),
               unary(ops.cumsum, lambda x: tf.cumsum(tf.reshape(x, [-1])))],
    # shapes and indexing
    "reshape": unary(lambda x: ops.reshape(x, (3, 2)),
                     lambda x: tf.reshape(x, (3, 2))),
    "real": unary(ops.real, tf.math.real),
    "imag": unary(ops.imag, tf.math.imag),
    "conj": unary(ops.conj, tf.math.conj),
    "_copy": unary(lambda x: ops.reshape(x, x.shape), tf.identity),
    "ravel": unary(ops.ravel, lambda x: tf.reshape(x, [-1])),
    "transpose": Case(lambda x: ops.transpose(x, (2, 0, 1)),
                      lambda x: tf.transpose(x, (2, 0, 1)),
                      (normal(2, 3, 2),)),
    "swapaxes": Case(lambda x: ops.swapaxes(x, 0, 2),
                     lambda x: tf.transpose(x, (2, 1, 0)), (normal(2, 3, 2),)),
    "expand_dims": unary(lambda x: ops.expand_dims(x, 1),
                         lambda x: tf.expand_dims(x, 1)),
    "squeeze": Case(lambda x: ops.squeeze(x, 1), lambda x: tf.squeeze(x, 1),
                    (normal(3, 1, 2),)),
    "broadcast_to": Case(lambda x: ops.broadcast_to(x, (2, 3, 2)),
                         lambda x: tf.broadcast_to(x, (2, 3, 2)),
                         (normal(3, 1),)),
    "concatenate": Case(lambda a, b, c: ops.concatenate([a, b, c], axis=1),
                        lambda a, b, c: tf.concat([a, b, c], 1),
                        (normal(2, 1), normal(2, 3), normal(2, 2))),
    "stack": Case(lambda a, b: ops.stack([a, b], axis=1),
                  lambda a, b: tf.stack([a, b], 1), (normal(2, 3),
                                                     normal(2, 3))),
    "split": [Case(lambda x: ops.split(x, 2, axis=1),
                   lambda x: tf.split(x, 2, 1), (normal(2, 4),)),
              Case(lambda x: ops.split(x, [1, 3]),
                   lambda x: tf.split(x, [1, 2, 1]), (normal(4, 2),))],
    "tile": unary(lambda x: ops.tile(x, (2, 1)), lambda x: tf.tile(x, (2, 1))),
    "repeat": unary(lambda x: ops.repeat(x, 2, axis=1),
                    lambda x: tf.repeat(x, 2, axis=1)),
    "take": [unary(lambda x: ops.take(x, [2, 0, 2], axis=1),
                   lambda x: tf.gather(x, [2, 0, 2], axis=1)),
             unary(lambda x: ops.take(x, [[5, 1], [1, 1]]),
                   lambda x: tf.gather(tf.reshape(x, [-1]),
                                       [[5, 1], [1, 1]]))],
    "take_along_axis": unary(
        lambda x: ops.take_along_axis(x, np.array([[2, 2], [0, 1]]), axis=1),
        lambda x: tnp.take_along_axis(x, np.array([[2, 2], [0, 1]]), 1)),
    "slice": Case(lambda x: ops.slice(x, (1, 0), (2, 2)),
                  lambda x: tf.slice(x, (1, 0), (2, 2)), (normal(3, 3),)),
    "flip": [unary(lambda x: ops.flip(x, axis=1),
                   lambda x: tf.reverse(x, [1])),
             unary(ops.flip, lambda x: tf.reverse(x, [0, 1]))],
    "pad": unary(lambda x: ops.pad(x, ((1, 0), (2, 1))),
                 lambda x: tf.pad(x, ((1, 0), (2, 1)))),
    "getitem": [Case(lambda x: x[1:, ::-1], lambda x: x[1:, ::-1],
                     (normal(3, 3),)),
                Case(lambda x: x[[0, 2, 0]], lambda x: tf.gather(x, [0, 2, 0]),
                     (normal(3, 2),)),
                Case(lambda x: x[..., 1, None], lambda x: x[..., 1, None],
                     (normal(2, 3),))],
    # fused kernels: y and dy always share a shape (no broadcasting)
    "_tanh_grad": binary(E._tanh_grad, tf_raw.tanh_grad,
                         shapes=((2, 3), (2, 3))),
    "_sigmoid_grad": binary(E._sigmoid_grad, tf_raw.sigmoid_grad,
                            shapes=((2, 3), (2, 3))),
    "_relu_grad": binary(E._relu_grad, tf_nn_raw.relu_grad, dom_y=off_zero,
                         shapes=((2, 3), (2, 3))),
    "_sqrt_grad": binary(E._sqrt_grad, tf_raw.sqrt_grad, dom_x=positive,
                         shapes=((2, 3), (2, 3))),
    "_rsqrt_grad": binary(E._rsqrt_grad, tf_raw.rsqrt_grad,
                          shapes=((2, 3), (2, 3))),
    "_reciprocal_grad": binary(E._reciprocal_grad, tf_raw.reciprocal_grad,
                               shapes=((2, 3), (2, 3))),
    "_gather": unary(lambda x: S._gather(x, POSITIONS),
                     lambda x: tf.gather(tf.reshape(x, [-1]), POSITIONS)),
    "_scatter": Case(lambda g: S._scatter(g, POSITIONS, (2, 3)),
                     lambda g: tf_scatter(g, POSITIONS, (2, 3)), (normal(5),)),
    # slices and pads with sizes unknown while tracing
    "_slice_axis": unary(lambda x: D.slice_axis(x, 1, 1, 2),
                         lambda x: x[:, 1:3]),
    "_pad_axis": unary(lambda x: D.pad_axis(x, 1, 2, 1),
                       lambda x: tf.pad(x, [[0, 0], [2, 1]])),
    "_sum_to": unary(lambda g: D.sum_to(g, ops.zeros((1, 3))),
                     lambda g: tf.reduce_sum(g, 0, keepdims=True)),
    # linear algebra
    "matmul": [binary(ops.matmul, tf.matmul, shapes=((2, 3), (3, 4))),
               binary(ops.matmul, tf.matmul, shapes=((2, 2, 3), (3, 2))),
               binary(ops.matmul, lambda a, b: tf.linalg.matvec(b, a,
                                                                 True),
                      shapes=((3,), (3, 2)))],
    "dot": [binary(ops.dot, lambda a, b: tf.linalg.matvec(a, b),
                   shapes=((2, 3), (3,))),
            binary(ops.dot, lambda a, b: tf.tensordot(a, b, [[1], [1]]),
                   shapes=((2, 3), (2, 3, 2)))],
    "tensordot": [binary(lambda a, b: ops.tensordot(a, b, 1),
                         lambda a, b: tf.tensordot(a, b, 1),
                         shapes=((2, 3), (3, 2))),
                  binary(lambda a, b: ops.tensordot(a, b, ([0, 1], [1, 0])),
                         lambda a, b: tf.tensordot(a, b, ([0, 1], [1, 0])),
                         shapes=((2, 3), (3, 2, 2)))],
    "einsum": [binary(lambda a, b: ops.einsum("ij,jk->ik", a, b),
                      lambda a, b: tf.einsum("ij,jk->ik", a, b),
                      shapes=((2, 3), (3, 2))),
               binary(lambda a, b: ops.einsum("ij,i->j", a, b),
                      lambda a, b: tf.einsum("ij,i->j", a, b),
                      shapes=((2, 3), (2,))),
               unary(lambda x: ops.einsum("ij->ji", x),
                     lambda x: tf.einsum("ij->ji", x)),
               unary(lambda x: ops.einsum("ij->i", x),
                     lambda x: tf.einsum("ij->i", x)),
               # ellipsis, diagonals, traces
               binary(lambda a, b: ops.einsum("...ij,jk->...ik", a, b),
                      lambda a, b: tf.einsum("...ij,jk->...ik", a, b),
                      shapes=((2, 2, 3), (3, 2))),
               Case(lambda x: ops.einsum("ii->", x),
                    lambda x: tf.einsum("ii->", x), (normal(3, 3),)),
               Case(lambda x: ops.einsum("...ii->...i", x),
                    lambda x: tf.einsum("...ii->...i", x), (normal(2, 3, 3),)),
               binary(lambda a, b: ops.einsum("ijj,jk->ik", a, b),
                      lambda a, b: tf.einsum("ijj,jk->ik", a, b),
                      shapes=((2, 3, 3), (3, 2))),
               Case(lambda x: ops.einsum("iji->j", x),
                    lambda x: tf.einsum("iji->j", x), (normal(2, 3, 2),))],
    "outer": binary(ops.outer, lambda a, b: tf.tensordot(a, b, 0),
                    shapes=((3,), (2,))),
    "norm": [unary(ops.norm, lambda x: tf.norm(x)),
             unary(lambda x: ops.norm(x, axis=1),
                   lambda x: tf.norm(x, axis=1)),
             unary(lambda x: ops.norm(x, ord=1, axis=1),
                   lambda x: tf.norm(x, ord=1, axis=1), off_zero),
             unary(lambda x: ops.norm(x, ord="fro"),
                   lambda x: tf.norm(x, ord="fro", axis=(0, 1))),
             unary(lambda x: ops.norm(x, ord=1),
                   lambda x: tf.norm(x, ord=1, axis=(0, 1)), off_zero),
             # (keras.ops.norm's own composition on TensorFlow)
             unary(lambda x: ops.norm(x, ord=2),
                   lambda x: tf.reduce_max(tf.linalg.svd(
                       x, compute_uv=False), -1)),
             unary(lambda x: ops.norm(x, ord=-2, axis=(1, 0)),
                   lambda x: tf.reduce_min(tf.linalg.svd(
                       tf.transpose(x), compute_uv=False), -1)),
             unary(lambda x: ops.norm(x, ord="nuc"),
                   lambda x: tf.reduce_sum(tf.linalg.svd(
                       x, compute_uv=False), -1))],
    "cholesky": Case(lambda x: ops.cholesky(sym(x)),
                     lambda x: tf.linalg.cholesky(tf_sym(x)), (spd(3),)),
    "inv": Case(ops.inv, tf.linalg.inv, (invertible(3, 3),)),
    "det": [Case(ops.det, tf.linalg.det, (invertible(3, 3),)),
            Case(ops.det, tf.linalg.det, (invertible(2, 2, 2),))],
    "solve": [Case(ops.solve, tf.linalg.solve, (invertible(3, 3),
                                                  normal(3, 2))),
              Case(ops.solve,
                   lambda a, b: tf.linalg.solve(a, b[:, None])[:, 0],
                   (invertible(3, 3), normal(3)))],
    "slogdet": Case(lambda x: ops.slogdet(x)[1],
                    lambda x: tf.linalg.slogdet(x)[1], (invertible(3, 3),)),
    "logabsdet": Case(lambda x: ops.slogdet(-x)[1],
                      lambda x: tf.linalg.slogdet(-x)[1],
                      (invertible(2, 3, 3),)),
}

for _path in sorted((pathlib.Path(__file__).parent / "support").glob(
        "vjp_cases_*.py")):
    _extra = importlib.import_module(f"support.{_path.stem}").CASES
    _clash = set(_extra) & set(CASES)
    assert not _clash, f"{_path.name} repeats cases for {sorted(_clash)}"
    CASES.update(_extra)

PARAMS = [pytest.param(name, case, id=f"{name}-{k}")
          for name, cases in sorted(CASES.items())
          for k, case in enumerate(cases if isinstance(cases, list)
                                   else [cases])]


def _public_ops():
    return {n for n in ops.__all__ if callable(getattr(ops, n))}


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


# ---- the table covers every op ----------------------------------------------
def test_every_rule_and_public_op_has_a_case():
    needed = set(RULES) | (_public_ops() - set(NON_DIFFERENTIABLE))
    missing = sorted(needed - set(CASES))
    assert not missing, f"ops without a VJP test case: {missing}"


def test_every_case_names_a_rule_or_public_op():
    stale = sorted(set(CASES) - set(RULES) - _public_ops())
    assert not stale, f"test cases for ops that do not exist: {stale}"


def test_non_differentiable_ops_are_public_and_have_no_rule():
    names = set(NON_DIFFERENTIABLE)
    assert names <= _public_ops()
    assert not names & set(RULES)


# ---- the oracles ------------------------------------------------------------
@pytest.mark.parametrize("name, case", PARAMS)
def test_vjp_matches_finite_differences(backend, name, case):
    arrays = _arrays(case, seed=0)
    _, cts, grads = _pycg_vjp(case, arrays, seed=0)
    numeric = _numeric_vjp(case, arrays, cts)
    for i, (g, n) in enumerate(zip(grads, numeric)):
        np.testing.assert_allclose(g, n, rtol=case.rtol, atol=case.atol,
                                   err_msg=f"{name}: input {i}")


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("name, case", PARAMS)
def test_vjp_matches_tensorflow_gradient_tape(backend, name, case, seed):
    arrays = _arrays(case, seed)
    outs, cts, grads = _pycg_vjp(case, arrays, seed)
    txs = [tf.constant(a) for a in arrays]
    with tf.GradientTape() as tape:
        tape.watch(txs)
        touts = _flat(case.tf_fn(*txs))
    tgrads = tape.gradient(touts, txs, output_gradients=cts,
                           unconnected_gradients=tf.UnconnectedGradients.ZERO)
    assert len(outs) == len(touts)
    for o, t in zip(outs, touts):
        np.testing.assert_allclose(o, t.numpy(), rtol=1e-6, atol=1e-7,
                                   err_msg=f"{name}: forward value")
    for i, (g, t) in enumerate(zip(grads, tgrads)):
        np.testing.assert_allclose(g, tf.convert_to_tensor(t).numpy(),
                                   rtol=1e-6, atol=1e-7,
                                   err_msg=f"{name}: gradient of input {i}")


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


@pytest.mark.parametrize("name", SECOND_ORDER)
def test_second_order_matches_finite_differences(backend, name):
    case = _first(name)

    def f(*xs):
        outs = _flat(case.fn(*xs))
        return ops.sum(ops.stack([ops.sum(o) for o in outs]))
    pycg.check_gradients(f, *_arrays(case, seed=3), order=2)


@pytest.mark.parametrize("name", SECOND_ORDER)
def test_second_order_matches_tensorflow(backend, name):
    case = _first(name)
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


@pytest.mark.parametrize("axis, zeros", [
    (None, 1), (None, 2), (1, 1), (1, 2), ((0, 2), 2)])
def test_prod_second_order_with_zeros(backend, axis, zeros):
    # the product of the others is a polynomial in x, so its own derivative
    # (the mixed terms at an exact zero included) matches central differences
    shape = (3, 4) if axis == 1 else (2, 3, 2) if axis == (0, 2) else (5,)
    x = with_zeros(zeros)(*shape)(np.random.default_rng(7))
    if axis == 1:
        x[1, 2] = 0.0  # a zero in a second row too

    def f(x):
        return ops.sum(ops.prod(x, axis=axis))
    pycg.check_gradients(f, x, order=2)


@pytest.mark.parametrize("transpose_a", [False, True])
@pytest.mark.parametrize("transpose_b", [False, True])
def test_matmul_with_transposed_operands_first_and_second_order(
        backend, transpose_a, transpose_b):
    # the gradients of matmul are matmuls with transposed operands (no
    # Transpose op); their own gradients must be right too
    from pycg.ops.linalg import _matmul
    rng = np.random.default_rng(3)
    a = rng.standard_normal((2, 4, 3) if transpose_a else (2, 3, 4))
    b = rng.standard_normal((2, 5, 4) if transpose_b else (2, 4, 5))

    def f(x, y):
        return _matmul(x, y, transpose_a=transpose_a, transpose_b=transpose_b)
    pycg.check_gradients(f, a, b)
    pycg.check_gradients(f, a, b, order=2)
