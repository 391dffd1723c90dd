"""pycg.to_torch's arguments and results: nested structures, keyword
arguments, constants (None, numbers, NumPy arrays), integer tensors (no
gradient), several outputs, outputs that never alias pycg's own tensors,
repeated backwards, and float16/bfloat16 against torch's
autograd.Function of the same rule."""
import numpy as np
import pytest

import pycg
from pycg import ops

torch = pytest.importorskip("torch")

from support.torch_backend import torch_backend  # noqa: E402,F401 (autouse)


def leaf(*values, dtype=torch.float32):
    return torch.tensor(values, dtype=dtype, requires_grad=True)


def test_nested_arguments_keywords_constants_and_several_outputs():
    def f(d, n, scale=1.0, index=None, note=None, offset=None):
        a, b = d["a"], d["b"]
        assert note == "kept" and isinstance(offset, np.ndarray)
        return {"s": ops.sum(a * b) * scale,
                "p": [a + n + offset, ops.take(b, index)]}
    a, b = leaf(1.0, 2.0), leaf(3.0, 4.0)
    out = pycg.to_torch(f)({"a": a, "b": b}, 2, scale=0.5,
                           index=torch.tensor([1, 1]), note="kept",
                           offset=np.array([10.0, 20.0], "float32"))
    assert set(out) == {"s", "p"} and isinstance(out["p"], list)
    np.testing.assert_allclose(out["p"][0].detach(), [13.0, 24.0])
    (out["s"] + out["p"][0].sum() + out["p"][1].sum()).backward()
    np.testing.assert_allclose(a.grad, 0.5 * b.detach() + 1)
    np.testing.assert_allclose(b.grad, 0.5 * a.detach().numpy() + [0.0, 2.0])


def test_a_list_of_tensors_beside_a_number_reaches_f_as_passed():
    # (as many tensors as arguments, not one per argument: not f(*tensors))
    def f(pair, k):
        assert isinstance(pair, list) and k == 5
        return ops.sum(pair[0] * pair[1]) * k
    a, b = leaf(1.0, 2.0), leaf(3.0, 4.0)
    pycg.to_torch(f)([a, b], 5).backward()
    np.testing.assert_allclose(a.grad, [15.0, 20.0])
    np.testing.assert_allclose(b.grad, [5.0, 10.0])


def test_integer_tensors_get_no_gradient_and_integer_outputs_none():
    def f(x, k):
        return x * ops.cast(k, "float32"), k * 2
    x, k = leaf(1.0, 2.0), torch.tensor([3, 4])
    y, k2 = pycg.to_torch(f)(x, k)
    assert k2.dtype == torch.int64 and not k2.requires_grad
    np.testing.assert_array_equal(k2, [6, 8])
    y.sum().backward()
    np.testing.assert_allclose(x.grad, [3.0, 4.0])


def test_an_output_unused_by_the_loss_gets_zeros_upstream():
    def f(x):
        return x * 2.0, ops.exp(x)
    x = leaf(0.5, 1.0)
    first, _ = pycg.to_torch(f)(x)
    first.sum().backward()
    np.testing.assert_allclose(x.grad, [2.0, 2.0])


def test_a_cached_number_a_variable_or_an_input_returned_stays_pycgs():
    v = pycg.Variable([1.0, 2.0])

    def f(x):
        return x, pycg.constant(2.0), v
    x = leaf(1.0, 3.0)
    same, two, var = pycg.to_torch(f)(x)
    (same.sum() + two + var.sum()).backward()
    np.testing.assert_allclose(x.grad, [1.0, 1.0])
    for value in (pycg.constant(2.0)._value, v._value):
        assert not value.requires_grad and value.grad_fn is None
    np.testing.assert_allclose(ops.exp(pycg.constant(2.0)), np.exp(2.0),
                               rtol=1e-6)


def test_backward_twice_with_retain_graph():
    x = leaf(0.5, -1.0)
    y = pycg.to_torch(lambda x: ops.sum(ops.sin(x)))(x)
    y.backward(retain_graph=True)
    y.backward()
    np.testing.assert_allclose(x.grad, 2 * np.cos([0.5, -1.0]), rtol=1e-6)


@pycg.custom_gradient
def scaled(x, w):
    def grad(dy):
        return dy * w * 3.0, dy * x
    return x * w, grad


class TorchScaled(torch.autograd.Function):
    @staticmethod
    def forward(x, w):
        return x * w

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*inputs)

    @staticmethod
    def backward(ctx, dy):
        x, w = ctx.saved_tensors
        return dy * w * 3.0, dy * x


# (a 0-d float32 tensor next to float16 ones: torch's promotion makes
# float16, pycg's (Keras') float32, on every backend: docs/backend-torch.md)
@pytest.mark.parametrize("dtypes", [
    (torch.float16, torch.float16), (torch.bfloat16, torch.bfloat16),
    (torch.float16, torch.float32), (torch.bfloat16, torch.float32)])
def test_half_precisions_answer_as_torchs_autograd_function(dtypes):
    values = []
    for fn in (pycg.to_torch(scaled), TorchScaled.apply):
        x = torch.tensor([0.3, -1.7, 2.2], dtype=dtypes[0],
                         requires_grad=True)
        w = torch.tensor([1.3, 0.7, -2.1], dtype=dtypes[1],
                         requires_grad=True)
        y = fn(x, w)
        y.sum().backward()
        values.append((y, x.grad, w.grad))
    for got, want in zip(*values):
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got.detach().float(),
                                      want.detach().float())
