"""pycg.to_torch's errors, each naming the user's function or argument:
a torch tensor that requires grad reaching pycg while torch records
(outside to_torch, or closed over inside it), a rule's gradient on another
device, what is not a pycg function, a torch result, torch habits on pycg
tensors (torch.sin(x), x.clamp)."""
import re

import numpy as np
import pytest

import pycg
from pycg import ops
from support import backend_switch

torch = pytest.importorskip("torch")


torch_backend = backend_switch.fixture("torch")


RECORDS = re.escape(
    "a torch tensor that requires grad (float32, shape (2,)) reached pycg "
    "while torch's autograd records (grad mode on); pycg would compute "
    "with it and torch would get no gradient through pycg. Call the pycg "
    "function through pycg.to_torch(f)")


@pytest.mark.parametrize("use", [
    lambda w: ops.exp(w), lambda w: ops.add(pycg.constant([1.0, 2.0]), w),
    lambda w: pycg.constant(w), lambda w: pycg.grad(
        lambda t: ops.sum(t * t))(w), lambda w: pycg.Variable(w)])
def test_a_tensor_torch_records_reaching_pycg_outside_to_torch(torch_backend,
                                                               use):
    w = torch.ones(2, requires_grad=True)
    with pytest.raises(TypeError, match=RECORDS):
        use(w)


def test_the_error_names_the_op(torch_backend):
    with pytest.raises(TypeError, match=r"^pycg\.ops\.exp: a torch tensor"):
        ops.exp(torch.ones(2, requires_grad=True))


@pytest.mark.parametrize("mode", ["no_grad", "inference_mode"])
def test_where_torch_does_not_record_such_a_tensor_is_a_constant(
        torch_backend, mode):
    w = torch.tensor([0.5, 1.0], requires_grad=True)
    with getattr(torch, mode)():
        np.testing.assert_allclose(ops.exp(w), np.exp([0.5, 1.0]),
                                   rtol=1e-6)
    np.testing.assert_allclose(ops.exp(w.detach()), np.exp([0.5, 1.0]),
                               rtol=1e-6)


def test_a_closed_over_parameter_inside_to_torch(torch_backend):
    w = torch.nn.Parameter(torch.ones(2))

    def scaled(x):
        return ops.sum(x * w)
    with pytest.raises(TypeError, match=re.escape(
            "pycg.to_torch(scaled): scaled reads a torch tensor that "
            "requires grad (float32, shape (2,)) that it does not take as an "
            "argument (a closed-over nn.Parameter?); pycg's gradient cannot "
            "reach it: pass it to the function pycg.to_torch made, as an "
            "argument")):
        pycg.to_torch(scaled)(torch.ones(2, requires_grad=True))
    # (and nothing is left behind: the same call with w passed works)
    x = torch.ones(2, requires_grad=True)
    pycg.to_torch(lambda x, w: ops.sum(x * w))(x, w).backward()
    np.testing.assert_allclose(w.grad, [1.0, 1.0])


@pycg.custom_gradient
def elsewhere(x, w):
    return x * w, lambda dy: (dy, pycg.constant(torch.ones(2,
                                                           device="meta")))


def test_a_gradient_on_another_device_names_the_rule_and_input(
        torch_backend):
    x, w = (torch.ones(2, requires_grad=True) for _ in range(2))
    y = pycg.to_torch(elsewhere)(x, w=w).sum()
    with pytest.raises(TypeError, match=re.escape(
            "pycg.to_torch(elsewhere): the gradient elsewhere gave its input "
            "`w` is on meta as float32, but that input is on cpu as "
            "float32; a rule must return each gradient on its input's "
            "device")):
        y.backward()
    assert x.grad is None and w.grad is None


def test_what_is_not_a_pycg_function(torch_backend):
    with pytest.raises(TypeError, match=r"pycg.to_torch: expected a function "
                       r"written with pycg .*, got int"):
        pycg.to_torch(3)
    with pytest.raises(TypeError, match=r"pycg.to_torch\(Linear\): Linear is "
                       r"a PyTorch callable \(Linear\), not a function "
                       r"written with pycg .*; call it directly"):
        pycg.to_torch(torch.nn.Linear(2, 2))


def test_a_torch_result_or_an_undecorated_rule(torch_backend):
    def torch_inside(x):
        return x._value * 2

    def undecorated(x):
        return x * 2.0, lambda dy: dy
    with pytest.raises(TypeError, match=re.escape(
            "pycg.to_torch(torch_inside): torch_inside must return a pycg "
            "tensor")):
        pycg.to_torch(torch_inside)(torch.ones(2))
    with pytest.raises(TypeError, match=re.escape(
            "pycg.to_torch(undecorated): undecorated returned a function "
            "beside its output")):
        pycg.to_torch(undecorated)(torch.ones(2))


def test_converting_twice_is_once(torch_backend):
    f = pycg.to_torch(lambda x: x * 2.0)
    assert pycg.to_torch(f) is f


def test_a_torch_function_on_a_pycg_tensor_names_the_pycg_op(torch_backend):
    for use, op in [(lambda x: torch.sin(x), "sin"),
                    (lambda x: torch.cat([x, x]), "concatenate")]:
        with pytest.raises(TypeError, match=re.escape(
                "was given a pycg tensor: inside a pycg function") +
                ".*" + re.escape(f"(no gradient); use pycg.ops.{op}")):
            pycg.to_torch(use)(torch.ones(2, requires_grad=True))


def test_a_torch_method_in_a_rule_names_the_pycg_op(torch_backend):
    @pycg.custom_gradient
    def clipped_identity(x):
        return x + 0.0, lambda g: g.clamp(-1.0, 1.0)

    x = torch.ones(2, requires_grad=True)
    y = pycg.to_torch(clipped_identity)(x).sum()
    with pytest.raises(AttributeError, match=re.escape(
            "pycg tensors have no .clamp (a torch tensor method?); use "
            "pycg.ops.clip")):
        y.backward()


def test_other_missing_attributes_read_as_python_s(backend):
    t = pycg.constant([1.0, 2.0])
    with pytest.raises(AttributeError,
                       match=r"^'Tensor' object has no attribute 'frob'$"):
        _ = t.frob
    assert getattr(t, "_private", 3) == 3 and not hasattr(t, "__frob__")
    with pytest.raises(AttributeError, match=re.escape(
            "no .unsqueeze (a torch tensor method?); use pycg.ops."
            "expand_dims")):
        t.unsqueeze(0)


def test_a_torch_operator_with_a_pycg_operand_still_reaches_pycg(
        torch_backend):
    y = torch.ones(2) * pycg.constant([1.0, 2.0])
    assert isinstance(y, pycg.Tensor) and y.numpy().tolist() == [1.0, 2.0]
