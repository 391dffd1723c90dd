"""Kernel backends: switching at run time, PYCG_BACKEND at import, and
tensors made under one backend used under the other."""
import os
import re
import subprocess
import sys

import numpy as np
import pytest
import tensorflow as tf

import pycg
from conftest import BACKENDS
from pycg import backends, ops
from support import backend_switch


def _array_type(name):
    """The type of a backend's values."""
    if name == "jax":
        import jax
        return jax.Array
    if name == "torch":
        import torch
        return torch.Tensor
    return np.ndarray if name == "numpy" else tf.Tensor


def run_python(code, **env):
    environ = {k: v for k, v in os.environ.items() if k != "PYCG_BACKEND"}
    environ.update(env)
    return subprocess.run([sys.executable, "-c", code], env=environ,
                          capture_output=True, text=True, timeout=120)


# ---- choosing a backend -----------------------------------------------------
def test_set_backend_switches_the_kernels(backend):
    x = pycg.constant([1.0, 2.0])
    assert pycg.config.backend() == backend
    kind = _array_type(backend)
    assert isinstance(x._value, kind)
    assert isinstance((x * 2)._value, kind)


def test_set_backend_returns_the_name(backend):
    other = "numpy" if backend == "tensorflow" else "tensorflow"
    assert pycg.config.set_backend(other) == other
    assert pycg.config.backend() == other


def test_a_failed_switch_leaves_the_backend_as_it_was(backend):
    with pytest.raises(ValueError, match="unknown backend 'mxnet'"):
        pycg.config.set_backend("mxnet")
    assert pycg.config.backend() == backend


def test_pycg_backend_is_read_at_import():
    r = run_python("import pycg; print(pycg.config.backend())",
                   PYCG_BACKEND="numpy")
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["numpy"]


def test_the_numpy_backend_does_not_import_tensorflow():
    r = run_python("import sys, pycg; pycg.grad(lambda x: x * x)(3.0); "
                   "print(sorted(m for m in sys.modules if m == 'tensorflow'))",
                   PYCG_BACKEND="numpy")
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["[]"]


def test_import_pycg_loads_tensorflow_at_the_first_op():
    r = run_python(
        "import sys, pycg\n"
        "print('tensorflow' in sys.modules)\n"
        "y = pycg.grad(lambda x: pycg.ops.exp(x))(1.0)\n"
        "print('tensorflow' in sys.modules, pycg.config.backend(),\n"
        "      type(y._value).__module__.split('.')[0], float(y))")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "False"
    loaded, name, kind, value = lines[1].split()
    assert (loaded, name, kind) == ("True", "tensorflow", "tensorflow")
    assert abs(float(value) - np.e) < 1e-6


def test_tensorflow_already_imported_is_the_backend_at_once():
    r = run_python("import tensorflow, pycg; from pycg import backends\n"
                   "print(backends.active.__name__)")
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["pycg.backends.tensorflow"]


def test_an_unknown_pycg_backend_fails_the_import_clearly():
    r = run_python("import pycg", PYCG_BACKEND="mxnet")
    assert r.returncode != 0
    assert r.stderr.rstrip().endswith(
        "ValueError: pycg: the environment variable PYCG_BACKEND is 'mxnet'; "
        "expected one of 'tensorflow', 'numpy', 'jax', 'torch', or unset "
        "(then 'tensorflow' where TensorFlow imports, else 'numpy')")


@pytest.mark.parametrize("value", ["NumPy", "numpy ", "np", "tensorflow,jax"])
def test_a_bad_pycg_backend_is_named_when_the_default_is_chosen(
        monkeypatch, value):
    monkeypatch.setenv("PYCG_BACKEND", value)
    with pytest.raises(ValueError, match=(
            r"^pycg: the environment variable PYCG_BACKEND is "
            + re.escape(repr(value)) + r"; expected one of 'tensorflow', "
            r"'numpy', 'jax', 'torch', or unset \(then 'tensorflow' where "
            r"TensorFlow imports, else 'numpy'\)$")):
        backends.default_name()


def test_an_empty_pycg_backend_is_unset(monkeypatch):
    monkeypatch.setenv("PYCG_BACKEND", "")
    assert backends.default_name() == "tensorflow"


def test_the_tensorflow_backend_without_tensorflow_says_so():
    # (None in sys.modules: `import tensorflow` fails as if not installed)
    r = run_python(
        "import sys; sys.modules['tensorflow'] = None\n"
        "import pycg\n"
        "print(pycg.config.backend())\n"
        "try:\n"
        "    pycg.config.set_backend('tensorflow')\n"
        "except ModuleNotFoundError as e:\n"
        "    print(e)\n"
        "print(pycg.config.backend())")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == lines[2] == "numpy"   # the default, and unchanged
    assert lines[1].startswith(
        "pycg: the 'tensorflow' backend needs TensorFlow, which is not "
        "installed (")
    assert lines[1].endswith(
        "); pip install tensorflow-cpu (or tensorflow), or use the 'numpy' "
        "backend")
    r = run_python("import sys; sys.modules['tensorflow'] = None\n"
                   "import pycg", PYCG_BACKEND="tensorflow")
    assert r.returncode != 0
    assert "pycg: the 'tensorflow' backend needs TensorFlow" in r.stderr
    assert r.stderr.rstrip().endswith(
        "or use the 'numpy' backend (the environment variable PYCG_BACKEND "
        "is 'tensorflow')")


def test_default_is_tensorflow_when_it_imports(monkeypatch):
    monkeypatch.delenv("PYCG_BACKEND", raising=False)
    assert backends.default_name() == "tensorflow"
    monkeypatch.setenv("PYCG_BACKEND", "numpy")
    assert backends.default_name() == "numpy"


def test_default_is_numpy_without_tensorflow():
    r = run_python("import sys; sys.modules['tensorflow'] = None\n"
                   "import pycg; print(pycg.config.backend())\n"
                   "print(float(pycg.grad(lambda x: x * x)(3.0)))")
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["numpy", "6.0"]


# ---- tensors across a switch ------------------------------------------------
def _made_under(name, value):
    with backend_switch.on(name):
        return pycg.constant(np.array(value))


def _other(backend):
    return "numpy" if backend == "tensorflow" else "tensorflow"


def test_mixing_tensors_of_two_backends_converts(backend):
    a = _made_under(_other(backend), [1.0, 2.0])
    b = pycg.constant(np.array([10.0, 20.0]))
    for y in (a + b, b * a, ops.maximum(a, b), ops.stack([a, b])):
        assert isinstance(y._value, _array_type(backend))
    np.testing.assert_array_equal((a + b).numpy(), [11.0, 22.0])
    np.testing.assert_array_equal(ops.matmul(a, b).numpy(), 50.0)


def test_a_tensor_reads_back_after_a_switch(backend):
    a = _made_under(_other(backend), [1.5, 2.5])
    np.testing.assert_array_equal(a.numpy(), [1.5, 2.5])
    np.testing.assert_array_equal(np.asarray(a), [1.5, 2.5])


def test_gradient_flows_to_a_tensor_made_under_the_other_backend(backend):
    a = _made_under(_other(backend), [1.0, 3.0])
    with pycg.GradientTape() as tape:
        tape.watch(a)
        y = ops.sum(a * a)
    np.testing.assert_allclose(tape.gradient(y, a).numpy(), [2.0, 6.0])


def test_switching_between_watch_and_use_keeps_the_gradient(backend):
    x = pycg.constant(np.array([2.0]))
    with pycg.GradientTape() as tape:
        tape.watch(x)
        pycg.config.set_backend(_other(backend))
        y = x * x * x
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [12.0])


def test_a_variable_made_under_the_other_backend_is_still_watched(backend):
    previous = pycg.config.backend()
    pycg.config.set_backend(_other(backend))
    v = pycg.Variable(np.array([1.0, -2.0]))
    pycg.config.set_backend(previous)
    with pycg.GradientTape() as tape:
        y = ops.sum(v * v)
    assert tape.watched_variables() == (v,)
    np.testing.assert_allclose(tape.gradient(y, v).numpy(), [2.0, -4.0])


def test_every_backend_gives_the_same_gradient():
    def loss(w, x):
        h = ops.tanh(ops.matmul(x, w))
        return ops.mean(ops.logsumexp(h, axis=1)) + 0.1 * ops.sum(w * w)

    rng = np.random.default_rng(0)
    w, x = rng.standard_normal((3, 4)), rng.standard_normal((5, 3))
    grads = {}
    previous = pycg.config.backend()
    try:
        for name in {"numpy", *BACKENDS}:   # (numpy: the reference, even
            pycg.config.set_backend(name)   # where PYCG_TEST_BACKENDS
            grads[name] = pycg.grad(loss)(w, x).numpy()   # leaves it out)
    finally:
        pycg.config.set_backend(previous)
    for name in BACKENDS:
        np.testing.assert_allclose(grads[name], grads["numpy"], rtol=1e-12)
