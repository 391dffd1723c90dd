"""pycg.to_torch, to_jax and to_tensorflow run f on their own backend for
the call (forward and backward), whatever the backend set, and for the
calling thread only: another thread keeps the global backend meanwhile,
and the global backend is the same after. A pycg.Variable made on another
backend that f closes over is read (a copy) and updated in its own
storage."""
import threading

import numpy as np
import pytest

import pycg
from pycg import ops
from support import backend_switch


numpy_backend = backend_switch.fixture("numpy", autouse=True)


@pycg.custom_gradient
def softplus(x):
    e = ops.exp(x)
    return ops.log(1 + e), lambda upstream: upstream * (1 - 1 / (1 + e))


def _torch_grad(f, x):
    torch = pytest.importorskip("torch")
    t = torch.tensor(x, dtype=torch.float64, requires_grad=True)
    f(t).sum().backward()
    return t.grad.tolist()


def _jax_grad(f, x):
    jax = pytest.importorskip("jax")
    return jax.grad(lambda t: f(t).sum())(jax.numpy.asarray(x)).tolist()


def _tensorflow_grad(f, x):
    tf = pytest.importorskip("tensorflow")
    t = tf.constant(x, dtype=tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(t)
        y = tf.reduce_sum(f(t))
    return tape.gradient(y, t).numpy().tolist()


BRIDGES = {"torch": (pycg.to_torch, _torch_grad),
           "jax": (pycg.to_jax, _jax_grad),
           "tensorflow": (pycg.to_tensorflow, _tensorflow_grad)}


def _sigmoid(x):
    return [1 / (1 + np.exp(-v)) for v in x]


@pytest.mark.parametrize("name", BRIDGES)
def test_a_bridge_runs_f_on_its_backend_whatever_the_global_one(name):
    bridge, grad = BRIDGES[name]
    seen = []

    def f(x):
        seen.append(pycg.config.backend())
        return softplus(x)

    got = grad(bridge(f), [-1.0, 0.5])
    assert np.allclose(got, _sigmoid([-1.0, 0.5]), rtol=1e-12)
    assert set(seen) == {name}
    assert pycg.config.backend() == "numpy"


@pytest.mark.parametrize("name", BRIDGES)
def test_another_thread_keeps_the_global_backend_meanwhile(name):
    bridge, grad = BRIDGES[name]
    inside, checked, other = threading.Event(), threading.Event(), []

    def f(x):
        inside.set()
        assert checked.wait(30)
        return softplus(x)

    def watch():
        assert inside.wait(30)
        other.append(pycg.config.backend())
        other.append(float(ops.sum(ops.ones(2))))   # (ops work there)
        checked.set()

    thread = threading.Thread(target=watch)
    thread.start()
    grad(bridge(f), [0.5])
    thread.join()
    assert other == ["numpy", 2.0]


def test_a_closed_over_variable_of_another_backend_is_read_and_updated():
    torch = pytest.importorskip("torch")
    v = pycg.Variable([1.0, 2.0])   # (a NumPy array's storage)

    def f(x):
        v.assign_add(ops.ones(2))
        return x * v

    x = torch.ones(2, requires_grad=True)
    y = pycg.to_torch(f)(x)
    y.sum().backward()
    assert y.tolist() == [2.0, 3.0] and x.grad.tolist() == [2.0, 3.0]
    assert isinstance(v.numpy(), np.ndarray) and v.numpy().tolist() == [2, 3]
