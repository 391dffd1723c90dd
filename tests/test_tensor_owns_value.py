"""A tensor owns its value: writing into the NumPy array (or torch tensor)
it was made from changes no tensor, no variable and no recorded gradient,
on every backend (as TensorFlow's and JAX's tensors; NumPy and torch share
a buffer unless pycg copies, and so does JAX for a large array on the
CPU). Each way a user's array reaches pycg is one case."""
import importlib.util

import numpy as np
import pytest

import pycg
from pycg import ops

# small, and large enough that jnp.asarray shares the buffer on the CPU
SIZES = (3, 1 << 20)
MAKERS = {
    "constant": pycg.constant,
    "convert_to_tensor": pycg.convert_to_tensor,
    "constant_with_dtype": lambda a: pycg.constant(a, "float32"),
    "op_argument": lambda a: a,   # (the array itself, handed to the op)
}


def _original(n):
    return np.arange(1, n + 1, dtype="float32")


def _overwrite(buf):
    buf[...] = -7.0


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("make", sorted(MAKERS))
def test_a_recorded_gradient_keeps_the_value_the_array_had(backend, make, n):
    w = pycg.Variable(np.ones(n, "float32"))
    buf = _original(n)
    x = MAKERS[make](buf)
    with pycg.GradientTape() as tape:
        y = ops.sum(ops.multiply(w, x))
    _overwrite(buf)
    (g,) = tape.gradient(y, [w])
    # d/dw sum(w * x) = x, the value x had when the op ran
    np.testing.assert_array_equal(g.numpy(), _original(n))


@pytest.mark.parametrize("n", SIZES)
def test_a_tensor_keeps_the_value_the_array_had(backend, n):
    buf = _original(n)
    t = pycg.convert_to_tensor(buf)
    _overwrite(buf)
    np.testing.assert_array_equal(t.numpy(), _original(n))


@pytest.mark.parametrize("n", SIZES)
def test_a_variable_keeps_its_initial_value(backend, n):
    buf = _original(n)
    v = pycg.Variable(buf)
    _overwrite(buf)
    np.testing.assert_array_equal(v.numpy(), _original(n))


@pytest.mark.parametrize("method", ["assign", "assign_add", "assign_sub"])
def test_a_variable_keeps_what_it_was_assigned(backend, method):
    buf = _original(3)
    v = pycg.Variable(np.zeros(3, "float32"))
    getattr(v, method)(buf)
    _overwrite(buf)
    sign = -1.0 if method == "assign_sub" else 1.0
    np.testing.assert_array_equal(v.numpy(), sign * _original(3))


def test_a_tensor_writes_nothing_back_into_the_array(backend):
    buf = _original(3)
    t = pycg.constant(buf)
    t.numpy()   # (a NumPy view of the tensor is the tensor's, not buf)
    np.testing.assert_array_equal(buf, _original(3))
    assert not np.shares_memory(np.asarray(t.numpy()), buf)


@pytest.mark.skipif(importlib.util.find_spec("torch") is None,
                    reason="torch is not installed")
def test_a_torch_tensor_is_copied_too(backend):
    import torch
    w = pycg.Variable(np.ones(3, "float32"))
    source = torch.tensor([1.0, 2.0, 3.0])
    with pycg.GradientTape() as tape:
        y = ops.sum(w * pycg.constant(source))
    with torch.no_grad():
        source.mul_(10)
    np.testing.assert_array_equal(tape.gradient(y, w).numpy(), [1, 2, 3])


TORCH = pytest.mark.skipif(importlib.util.find_spec("torch") is None,
                           reason="torch is not installed")
JAX = pytest.mark.skipif(importlib.util.find_spec("jax") is None,
                         reason="JAX is not installed")


@pytest.fixture
def on(request):
    """The backend named by the test's parameter, restored after."""
    previous = pycg.config.backend()
    pycg.config.set_backend(request.param)
    yield request.param
    pycg.config.set_backend(previous)


def weighted_square_sum(x, c):
    return ops.sum(x * x * c)


# ---- pycg.to_torch: torch's inputs are saved, other arguments copied -------
@TORCH
@pytest.mark.parametrize("on", ["torch"], indirect=True)
@pytest.mark.parametrize("written", ["x", "c"])
def test_to_torch_refuses_an_input_written_after_the_forward(on, written):
    import torch
    f = pycg.to_torch(weighted_square_sum)
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    c = torch.ones(3)   # (an input without a gradient: saved all the same)
    y = f(x, c)
    with torch.no_grad():
        {"x": x, "c": c}[written].mul_(10)
    with pytest.raises(RuntimeError, match="modified by an inplace"):
        y.backward()   # (torch's own check of what the Function saved)


@TORCH
@pytest.mark.parametrize("on", ["torch"], indirect=True)
@pytest.mark.parametrize("written", ["x", "c"])
def test_to_torch_refuses_an_input_written_after_the_forward_under_torch_func(
        on, written):
    import torch
    f = pycg.to_torch(weighted_square_sum)
    x, c = torch.tensor([1.0, 2.0, 3.0]), torch.ones(3)
    _, vjp = torch.func.vjp(lambda x: f(x, c), x)
    {"x": x, "c": c}[written].mul_(10)   # (torch.func skips torch's check)
    with pytest.raises(RuntimeError) as e:
        vjp(torch.tensor(1.0))
    assert str(e.value) == (
        f"pycg.to_torch(weighted_square_sum): its input `{written}` was "
        f"modified by an inplace operation after weighted_square_sum ran "
        f"(its version is 1, 0 at the call), and its gradient needs the "
        f"value it had then, which is gone, as torch says of a tensor an "
        f"autograd.Function saved; change a clone (x.clone()) instead, or "
        f"call weighted_square_sum again after the change")


@TORCH
@pytest.mark.parametrize("on", ["torch"], indirect=True)
@pytest.mark.parametrize("create_graph", [False, True])
def test_to_torch_keeps_the_value_a_numpy_argument_had(on, create_graph):
    import torch
    f = pycg.to_torch(weighted_square_sum)
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    c = np.ones(3, "float32")   # (a constant to torch, reaching f as it is)
    y = f(x, c)
    c[...] = 10.0
    # (create_graph: the backward runs f again, on the arguments of the call)
    (g,) = torch.autograd.grad(y, x, create_graph=create_graph)
    # d/dx sum(x * x * c) = 2 x c, with c as it was at the call (ones)
    assert g.tolist() == [2.0, 4.0, 6.0]


# ---- pycg.to_jax: a NumPy array is copied where it reaches pycg ------------
TO_JAX_CALLS = {
    "argument": lambda f, x, c: jax_vjp(f, x, c),
    "in_a_dict": lambda f, x, c: jax_vjp(
        lambda d: f(d["x"], d["c"]), {"x": x, "c": c}),
    "beside_the_input": lambda f, x, c: jax_vjp(lambda x: f(x, c), x),
}


def jax_vjp(fn, *args):
    import jax
    out, vjp = jax.vjp(fn, *args)
    return vjp


def _gradient_of_x(g):
    return g["x"] if isinstance(g, dict) else g


@JAX
@pytest.mark.parametrize("on", ["jax"], indirect=True)
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("how", sorted(TO_JAX_CALLS))
def test_to_jax_keeps_the_value_a_numpy_input_had(on, n, how):
    import jax
    f = pycg.to_jax(weighted_square_sum)
    x, c = _original(n), np.ones(n, "float32")
    vjp = TO_JAX_CALLS[how](f, x, c)
    _overwrite(x)
    _overwrite(c)
    g = _gradient_of_x(vjp(jax.numpy.float32(1.0))[0])
    # d/dx sum(x * x * c) = 2 x c, at the values x and c had when f ran
    np.testing.assert_array_equal(np.asarray(g), 2 * _original(n))
