"""Bad input to the NumPy-namespace, math and linalg ops: each error names
the op and the argument, says what was expected and what arrived."""
import numpy as np
import pytest

from support.keras_inputs import I, IDS, TALL, V, W, X, X3
from pycg import ops


# ---- bad input: errors name the op and the argument -------------------------
ERRORS = [
    (lambda: ops.fft2((V, V)), ValueError,
     "pycg.ops.fft2: expected at least 2 axes, got shape (5,)"),
    (lambda: ops.rearrange(X3, "b h w"), ValueError,
     "pycg.ops.rearrange: `pattern` must have one '->', got 'b h w'"),
    (lambda: ops.rearrange(X3, "b h -> h b"), ValueError,
     "pycg.ops.rearrange: `pattern` 'b h -> h b' names 2 axes, the tensor has "
     "shape (2, 3, 4)"),
    (lambda: ops.rearrange(X3, "b h (w1 w) -> b h w", w1=3), ValueError,
     "pycg.ops.rearrange: axes ['w1', 'w'] of lengths [3, 1] do not make an "
     "axis of length 4"),
    (lambda: ops.rearrange(X3, "b h w -> b h c"), ValueError,
     "pycg.ops.rearrange: the two sides of 'b h w -> b h c' name different "
     "axes"),
    (lambda: ops.sort(X, axis=3), ValueError,
     "pycg.ops.sort: axis 3 is out of range for a tensor of rank 2"),
    (lambda: ops.argsort(X, axis=-3), ValueError,
     "pycg.ops.argsort: axis -3 is out of range for a tensor of rank 2"),
    (lambda: ops.median(X, axis=2), ValueError,
     "pycg.ops.median: axis 2 is out of range for a tensor of rank 2"),
    (lambda: ops.any(X, axis=5), ValueError,
     "pycg.ops.any: axis 5 is out of range"),
    (lambda: ops.top_k(X, 5), ValueError,
     "pycg.ops.top_k: k=5 is out of range for a last axis of length 4"),
    (lambda: ops.quantile(X, 1.5), ValueError,
     "pycg.ops.quantile: q must be a scalar or 1-d, inside [0, 1], got 1.5"),
    (lambda: ops.quantile(X, 0.5, method="cubic"), ValueError,
     "pycg.ops.quantile: method must be one of 'linear', 'lower', 'higher',"
     " 'midpoint', 'nearest', got 'cubic'"),
    (lambda: ops.diagonal(X, axis1=1, axis2=1), ValueError,
     "pycg.ops.diagonal: axis1 and axis2 are both 1"),
    (lambda: ops.diag(X3), ValueError,
     "pycg.ops.diag: expected a tensor of rank 1 or 2, got shape (2, 3, 4)"),
    (lambda: ops.tril(V), ValueError,
     "pycg.ops.tril: expected a tensor of rank >= 2, got shape (5,)"),
    (lambda: ops.bitwise_and(X, I), TypeError,
     "pycg.ops.bitwise_and: expected an integer or bool tensor, got dtype "
     "float32"),
    (lambda: ops.svd(V), ValueError,
     "pycg.ops.svd: expected a matrix (or a batch of them), got shape (5,)"),
    (lambda: ops.eigh(TALL), ValueError,
     "pycg.ops.eigh: expected a square matrix (or a batch of them), got "
     "shape (4, 3)"),
    (lambda: ops.qr(TALL, mode="r"), ValueError,
     "pycg.ops.qr: mode must be 'reduced' or 'complete', got 'r'"),
    (lambda: ops.average(X, axis=1, weights=V), ValueError,
     "pycg.ops.average: weights have length 5, axis 1 of x has length 4"),
    (lambda: ops.fft(X), ValueError,
     "pycg.ops.fft: x must be a (real, imaginary) pair of tensors, got "
     "ndarray"),
    (lambda: ops.fft((X, V)), ValueError,
     "pycg.ops.fft: the real and imaginary parts differ in shape: (3, 4) "
     "and (5,)"),
    (lambda: ops.stft(I, 4, 2, 4), TypeError,
     "pycg.ops.stft: x must be float32 or float64, got int32"),
    (lambda: ops.segment_sum(V, IDS[:3]), ValueError,
     "pycg.ops.segment_sum: segment_ids must be a 1-d integer tensor with "
     "one id per row of data (5), got shape (3,) and dtype int32"),
    (lambda: ops.scatter(np.array([[0.5]]), V[:1], (3,)), TypeError,
     "pycg.ops.scatter: indices must be integers, got dtype float64"),
    (lambda: ops.slice_update(X, (2, 3), np.ones((2, 2), "float32")),
     ValueError, "pycg.ops.slice_update: updates of shape (2, 2) at (2, 3) "
     "do not fit inside shape (3, 4)"),
    (lambda: ops.moveaxis(X3, 0, 4), ValueError,
     "pycg.ops.moveaxis: axis 4 is out of range for a tensor of rank 3"),
    (lambda: ops.ldexp(X, X), TypeError,
     "pycg.ops.ldexp: x2 must be an integer tensor, got dtype float32"),
    (lambda: ops.searchsorted(X, V), ValueError,
     "pycg.ops.searchsorted: sorted_sequence must be 1-d, got shape (3, 4)"),
    (lambda: ops.meshgrid(V, W, indexing="ji"), ValueError,
     "pycg.ops.meshgrid: indexing must be 'xy' or 'ij', got 'ji'"),
]


@pytest.mark.parametrize("fn, kind, message", ERRORS,
                         ids=[e[2].split(":")[0] + f"-{i}"
                              for i, e in enumerate(ERRORS)])
def test_bad_input_names_op_and_argument(backend, fn, kind, message):
    with pytest.raises(kind) as info:
        fn()
    assert message in str(info.value)


# ops whose values this module checks (test_ops_values.py counts them)


def _gradient_of(fn, x):
    import pycg
    t = pycg.constant(x)
    with pycg.GradientTape() as tape:
        tape.watch(t)
        out = ops.sum(fn(t))
    return tape.gradient(out, t)


def test_svd_gradient_of_full_matrices_names_the_fix(backend):
    with pytest.raises(NotImplementedError) as info:
        _gradient_of(lambda t: ops.svd(t)[0], TALL.astype("float64"))
    assert ("pycg.ops.svd: no gradient for full_matrices=True with a "
            "non-square x (shape (4, 3)); pass full_matrices=False"
            in str(info.value))


def test_qr_gradient_of_a_wide_matrix_says_what_it_needs(backend):
    with pytest.raises(NotImplementedError) as info:
        _gradient_of(lambda t: ops.qr(t)[1], TALL.T.astype("float64"))
    assert ("pycg.ops.qr: a gradient needs rows >= columns and "
            "mode='reduced' (got shape (3, 4), mode='reduced')"
            in str(info.value))
