"""pycg.to_torch in torch's forward mode (issue 46): a pycg.custom_gradient
rule through pycg.to_torch under torch.func.jvp, jacfwd and hessian and
torch.autograd.forward_ad's dual tensors, with first and second
derivatives the rule's own (closed forms; central differences in float64
of the closed-form gradient; torch's own forward mode of the same maths
written as plain torch)."""
import numpy as np
import pytest

import pycg
from pycg import ops

torch = pytest.importorskip("torch")
fwAD = pytest.importorskip("torch.autograd.forward_ad")


@pycg.custom_gradient
def log1pexp(x):
    e = ops.exp(x)

    def grad(upstream):
        return upstream * (1 - 1 / (1 + e))
    return ops.log(1 + e), grad


@pycg.custom_gradient
def square_rule_x(x):
    """x**2 whose rule says the derivative is x (not 2x)."""
    return x * x, lambda g: g * x


def sigmoid(x):
    return 1 / (1 + np.exp(-np.asarray(x, np.float64)))


POINTS = torch.tensor([-2.0, -0.3, 0.0, 0.7, 3.0], dtype=torch.float64)


def test_func_jvp_is_the_rule_s_derivative_not_the_forward_s():
    y, t = torch.func.jvp(pycg.to_torch(square_rule_x),
                          (torch.tensor(3.0),), (torch.tensor(1.0),))
    assert float(y) == 9.0 and float(t) == 3.0


def test_func_jvp_of_log1pexp_at_100_in_float32_is_one_not_nan():
    _, t = torch.func.jvp(pycg.to_torch(log1pexp), (torch.tensor(100.0),),
                          (torch.tensor(1.0),))
    assert t.dtype == torch.float32 and float(t) == 1.0


def test_func_jvp_matches_torch_s_own_forward_mode():
    t = torch.tensor([1.0, -2.0, 0.5, 3.0, 1.0], dtype=torch.float64)
    _, got = torch.func.jvp(pycg.to_torch(log1pexp), (POINTS,), (t,))
    _, want = torch.func.jvp(torch.nn.functional.softplus, (POINTS,), (t,))
    torch.testing.assert_close(got, want)


def test_jacfwd_equals_jacrev_and_the_closed_form():
    f = pycg.to_torch(log1pexp)
    fwd, rev = torch.func.jacfwd(f)(POINTS), torch.func.jacrev(f)(POINTS)
    np.testing.assert_allclose(fwd.numpy(), np.diag(sigmoid(POINTS)),
                               rtol=1e-12)
    torch.testing.assert_close(fwd, rev)


def test_hessian_is_the_rule_s_second_derivative():
    # (the rule's derivative is x: its second derivative is 1, f's own ops
    # would say 2)
    h = torch.func.hessian(pycg.to_torch(square_rule_x))(
        torch.tensor(3.0, dtype=torch.float64))
    assert float(h) == 1.0


def test_hessian_of_log1pexp_matches_central_differences_in_float64():
    h = torch.func.hessian(lambda v: pycg.to_torch(log1pexp)(v).sum())(POINTS)
    eps, x = 1e-6, POINTS.numpy()
    fd = (sigmoid(x + eps) - sigmoid(x - eps)) / (2 * eps)
    np.testing.assert_allclose(torch.diagonal(h).numpy(), fd, rtol=1e-7)
    assert torch.count_nonzero(h - torch.diag(torch.diagonal(h))) == 0


def test_forward_ad_dual_tensors_carry_the_rule():
    with fwAD.dual_level():
        x = fwAD.make_dual(torch.tensor(3.0), torch.tensor(2.0))
        assert float(fwAD.unpack_dual(
            pycg.to_torch(square_rule_x)(x)).tangent) == 6.0
        big = fwAD.make_dual(torch.tensor(100.0), torch.tensor(1.0))
        assert float(fwAD.unpack_dual(
            pycg.to_torch(log1pexp)(big)).tangent) == 1.0


def test_two_inputs_an_integer_one_and_nested_outputs():
    @pycg.custom_gradient
    def scaled(x, y, n):
        return (x * y * ops.cast(n, x.dtype), x * 2.0), \
            lambda g1, g2: (g1 * y * 2.0 + 2.0 * g2, g1 * x * 2.0, None)
    f = pycg.to_torch(scaled)
    x, y = torch.tensor(2.0), torch.tensor(5.0)
    n = torch.tensor(3)
    _, (t1, t2) = torch.func.jvp(lambda x, y: f(x, y, n), (x, y),
                                 (torch.tensor(1.0), torch.tensor(10.0)))
    # the rule: d/dx = 2y, d/dy = 2x (not the forward's 3y, 3x)
    assert float(t1) == 2.0 * 5.0 * 1.0 + 2.0 * 2.0 * 10.0
    assert float(t2) == 2.0


def test_reverse_mode_still_runs_the_rule():
    x = torch.tensor(100.0, requires_grad=True)
    pycg.to_torch(log1pexp)(x).backward()
    assert float(x.grad) == 1.0
    assert float(torch.func.grad(pycg.to_torch(square_rule_x))(
        torch.tensor(3.0))) == 3.0
