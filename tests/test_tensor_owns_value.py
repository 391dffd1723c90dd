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


@pytest.mark.skipif(importlib.util.find_spec("torch") is None,
                    reason="torch is not installed")
def test_to_torch_refuses_an_input_written_after_the_forward():
    import torch
    previous = pycg.config.backend()
    pycg.config.set_backend("torch")
    try:
        f = pycg.to_torch(lambda x: ops.sum(x * x))
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = f(x)
        with torch.no_grad():
            x.mul_(10)
        with pytest.raises(RuntimeError, match="modified by an inplace"):
            y.backward()
    finally:
        pycg.config.set_backend(previous)


@pytest.mark.skipif(importlib.util.find_spec("jax") is None,
                    reason="JAX is not installed")
@pytest.mark.parametrize("n", SIZES)
def test_to_jax_keeps_the_value_a_numpy_input_had(n):
    import jax
    previous = pycg.config.backend()
    pycg.config.set_backend("jax")
    try:
        f = pycg.to_jax(lambda x: ops.sum(x * x))
        buf = _original(n)
        y, vjp = jax.vjp(f, buf)
        _overwrite(buf)
        (g,) = vjp(jax.numpy.float32(1.0))
    finally:
        pycg.config.set_backend(previous)
    # d/dx sum(x * x) = 2 x, at the value x had when f ran
    np.testing.assert_array_equal(np.asarray(g), 2 * _original(n))
