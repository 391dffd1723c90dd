"""einsum as np.einsum: ellipsis, implicit output, repeated indices
(diagonals, traces), and their gradients (issue 13 item 4). Oracles:
np.einsum for values, float64 central differences for gradients."""
import numpy as np
import pytest

import pycg
from pycg import ops

SPECS = [
    ("...ij,jk->...ik", [(2, 3, 4), (4, 5)]),
    ("...ij,...jk", [(2, 3, 4), (2, 4, 5)]),
    ("ii->", [(3, 3)]),
    ("ii", [(3, 3)]),
    ("ii->i", [(3, 3)]),
    ("...ii->...i", [(2, 3, 3)]),
    ("iij->j", [(2, 2, 3)]),
    ("ijj,jk->ik", [(2, 3, 3), (3, 2)]),
    ("iji->j", [(2, 3, 2)]),
    ("i...->...", [(3, 2, 2)]),
    ("...", [(2, 3)]),
    ("...i,...i->...", [(2, 3), (2, 3)]),
    ("ij,jk", [(2, 3), (3, 4)]),
    ("ba", [(2, 3)]),
    ("i,i", [(3,), (3,)]),
]


def _arrays(shapes, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(s) for s in shapes]


@pytest.mark.parametrize("spec,shapes", SPECS, ids=[s for s, _ in SPECS])
def test_einsum_values_match_numpy(backend, spec, shapes):
    xs = _arrays(shapes)
    got = ops.einsum(spec, *[pycg.constant(x) for x in xs])
    np.testing.assert_allclose(got.numpy(), np.einsum(spec, *xs), rtol=1e-10,
                               atol=1e-12)


def _fd_grad(f, xs, i, eps=1e-6):
    g = np.zeros_like(xs[i])
    for k in np.ndindex(xs[i].shape):
        up = [x.copy() for x in xs]
        dn = [x.copy() for x in xs]
        up[i][k] += eps
        dn[i][k] -= eps
        g[k] = (f(*up) - f(*dn)) / (2 * eps)
    return g


@pytest.mark.parametrize("spec,shapes", SPECS, ids=[s for s, _ in SPECS])
def test_einsum_gradients_match_finite_differences(backend, spec, shapes):
    xs = _arrays(shapes, 1)
    w = np.random.default_rng(2).standard_normal(np.einsum(spec, *xs).shape)

    def loss_np(*a):
        return float(np.sum(np.einsum(spec, *a) * w))
    ts = [pycg.constant(x) for x in xs]
    with pycg.GradientTape() as tape:
        tape.watch(ts)
        y = ops.sum(ops.einsum(spec, *ts) * pycg.constant(w))
    grads = tape.gradient(y, ts)
    for i, g in enumerate(grads):
        np.testing.assert_allclose(g.numpy(), _fd_grad(loss_np, xs, i),
                                   rtol=1e-6, atol=1e-7)


def test_second_derivative_through_a_trace(backend):
    # f(x) = tr(x)^2: the Hessian is 2 on pairs of diagonal entries
    x = pycg.constant(np.arange(4.0).reshape(2, 2))
    h = pycg.hessian(lambda m: ops.einsum("ii->", m) ** 2)(x)
    expected = np.zeros((2, 2, 2, 2))
    for i in range(2):
        for j in range(2):
            expected[i, i, j, j] = 2.0
    np.testing.assert_allclose(h.numpy(), expected)


def test_einsum_ellipsis_that_names_too_many_axes(backend):
    with pytest.raises(ValueError, match=r"pycg.ops.einsum: '\.\.\.ijk' "
                       r"names more axes than operand of shape \(2, 3\)"):
        ops.einsum("...ijk->...", pycg.constant(np.ones((2, 3))))
