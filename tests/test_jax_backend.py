"""What only the jax backend has: JAX's 64-bit mode left as the user set
it, JAX missing, PYCG_BACKEND=jax, JAX's tracers meeting pycg."""
import contextlib
import os
import subprocess
import sys

import numpy as np
import pytest

import pycg
from pycg import ops

jax = pytest.importorskip("jax")   # (the whole file is about JAX)


def run_python(code, **env):
    environ = {k: v for k, v in os.environ.items()
               if k not in ("PYCG_BACKEND", "JAX_ENABLE_X64")}
    environ.update(env)
    return subprocess.run([sys.executable, "-c", code], env=environ,
                          capture_output=True, text=True, timeout=120)


@pytest.fixture
def jax_backend():
    previous = pycg.config.backend()
    pycg.config.set_backend("jax")
    try:
        yield
    finally:
        pycg.config.set_backend(previous)


X64_OFF = "needs JAX's 64-bit mode, which is off"


@pytest.mark.parametrize("make", [
    lambda: pycg.constant(np.array([1.0, 2.0])),
    lambda: pycg.constant([1.0, 2.0], dtype="float64"),
    lambda: pycg.constant(np.arange(3)),
    lambda: ops.cast(pycg.constant([1.0]), "float64"),
    lambda: ops.zeros((2,), dtype="float64"),
    lambda: pycg.Variable(np.float64(1.5)),
], ids=["float64 array", "float64 dtype", "int64 array", "cast", "zeros",
        "variable"])
def test_a_64_bit_dtype_without_x64_is_an_error_not_a_truncation(
        jax_backend, make):
    with jax.enable_x64(False):
        with pytest.raises(TypeError, match=X64_OFF) as info:
            make()
    assert "jax.config.update('jax_enable_x64', True)" in str(info.value)


def test_a_64_bit_numpy_array_casts_to_32_bits_without_x64(jax_backend):
    # (the cast to 32 bits is the one way out of the 64-bit refusal; Keras'
    # cast on its JAX backend answers the same)
    with jax.enable_x64(False):
        got = ops.cast(np.array([1.1, 2.0]), "float32")
        ints = ops.cast(np.array([3, -4], np.int64), "int32")
        with pytest.raises(TypeError, match=X64_OFF):
            ops.exp(np.array([1.1, 2.0]))
    assert got.dtype == np.float32 and ints.dtype == np.int32
    np.testing.assert_array_equal(got.numpy(), np.float32([1.1, 2.0]))
    np.testing.assert_array_equal(ints.numpy(), [3, -4])


def test_float32_works_without_x64_and_pycg_leaves_the_mode_alone(
        jax_backend):
    with jax.enable_x64(False):
        x = pycg.constant([0.5, 2.0])
        g = pycg.grad(lambda x: ops.sum(ops.exp(x) * x))(x)
        assert not jax.config.jax_enable_x64
    assert g.dtype == np.float32
    x = np.array([0.5, 2.0])
    np.testing.assert_allclose(g.numpy(), np.exp(x) * (x + 1), rtol=1e-6)


def test_pycg_never_switches_on_jax_64_bit_mode():
    r = run_python("import jax, pycg\n"
                   "pycg.config.set_backend('jax')\n"
                   "pycg.grad(lambda x: x * x)(3.0)\n"
                   "print(jax.config.jax_enable_x64)")
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["False"]


def test_pycg_backend_jax_is_read_at_import():
    r = run_python("import pycg; print(pycg.config.backend()); "
                   "print(type(pycg.constant(1.0)._value).__module__)",
                   PYCG_BACKEND="jax")
    assert r.returncode == 0, r.stderr
    assert r.stdout.split()[0] == "jax"
    assert r.stdout.split()[1].startswith("jax")


def test_the_numpy_backend_does_not_import_jax():
    r = run_python("import sys, pycg; pycg.grad(lambda x: x * x)(3.0); "
                   "print(sorted(m for m in sys.modules if m == 'jax'))",
                   PYCG_BACKEND="numpy")
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["[]"]


def test_the_jax_backend_without_jax_says_what_to_install():
    # (None in sys.modules: `import jax` fails as if not installed)
    r = run_python(
        "import sys; sys.modules['jax'] = None\n"
        "import pycg\n"
        "try:\n"
        "    pycg.config.set_backend('jax')\n"
        "except ModuleNotFoundError as e:\n"
        "    print(e)\n"
        "print(pycg.config.backend())", PYCG_BACKEND="numpy")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("pycg: the 'jax' backend needs JAX, which is "
                               "not installed (")
    assert lines[0].endswith(
        "); pip install 'pycg-autodiff[jax]' (or jax), or use the 'numpy' "
        "backend")
    assert lines[1] == "numpy"


def test_jax_arrays_are_immutable_so_a_variable_update_replaces_its_array(
        jax_backend):
    v = pycg.Variable([1.0, 2.0])
    before = v._value
    v.assign_add([1.0, 1.0])
    np.testing.assert_array_equal(np.asarray(before), [1.0, 2.0])
    np.testing.assert_array_equal(v.numpy(), [2.0, 3.0])
    with pycg.GradientTape() as tape:
        y = ops.sum(v * v)
    np.testing.assert_array_equal(tape.gradient(y, v).numpy(), [4.0, 6.0])


def test_a_jax_array_converts_on_every_backend(backend):
    t = pycg.constant(jax.numpy.asarray([1.0, 2.0], dtype="float32"))
    assert t.dtype == np.float32
    np.testing.assert_array_equal((t * 2).numpy(), [2.0, 4.0])


@pytest.mark.parametrize("name", ["numpy", "tensorflow"])
def test_a_jax_tracer_on_another_backend_is_a_clear_error(name):
    previous = pycg.config.backend()
    pycg.config.set_backend(name)
    try:
        with pytest.raises(TypeError, match=(
                f"pycg.ops.sin: a JAX tracer .* reached pycg's '{name}' "
                f"backend, which cannot hold it; convert the pycg function "
                f"with pycg.to_jax")):
            jax.grad(lambda x: ops.sin(x))(1.0)
    finally:
        pycg.config.set_backend(previous)


FORWARDS = []


@pycg.custom_gradient
def tripled(x, y=1.0):
    FORWARDS.append(1)

    def grad(upstream):
        return 3 * upstream, None
    return x * y, grad


CALLED_ON_A_TRACER = (
    "tripled: this pycg.custom_gradient function was called on a JAX tracer "
    r"\(inside jax.grad, jax.jit or jax.vmap\), where JAX would "
    r"differentiate its forward, not its rule; convert it with "
    r"pycg.to_jax\(tripled\)")


@pytest.mark.parametrize("name", ["numpy", "tensorflow", "jax"])
@pytest.mark.parametrize("recording", [False, True])
@pytest.mark.parametrize("transform, x", [
    (lambda f: jax.grad(f), 2.0),
    (lambda f: jax.jit(f), 2.0),
    (lambda f: jax.vmap(f), [2.0, 3.0]),
    (lambda f: jax.grad(lambda x: f(x, y=2.0)), 2.0),   # (a keyword call)
    (lambda f: jax.grad(lambda x: f(1.0, x)), 2.0),     # (the tracer second)
], ids=["grad", "jit", "vmap", "keyword", "second"])
def test_a_custom_gradient_called_on_jax_tracers_is_a_clear_error(
        name, recording, transform, x):
    """Without pycg.to_jax, JAX would differentiate the forward (x * y:
    gradient y) and never call the rule (3): a silent wrong answer. The
    error comes before the forward runs (nothing on a pycg tape)."""
    previous = pycg.config.backend()
    pycg.config.set_backend(name)
    other = "" if name == "jax" else (
        r" and use the jax backend \(pycg.config.set_backend\('jax'\)\)")
    FORWARDS.clear()
    try:
        with pycg.GradientTape() if recording else contextlib.nullcontext():
            with pytest.raises(TypeError, match=CALLED_ON_A_TRACER + other):
                transform(tripled)(jax.numpy.asarray(x, dtype="float32"))
        assert FORWARDS == []
    finally:
        pycg.config.set_backend(previous)


def test_the_same_function_through_to_jax_uses_its_rule(jax_backend):
    g = jax.grad(pycg.to_jax(lambda x: tripled(x, 1.0)))(
        jax.numpy.float32(2.0))
    assert float(g) == 3.0   # (the rule; JAX's own derivative of x * 1 is 1)


def test_a_pycg_result_under_jax_grad_says_to_use_to_jax(jax_backend):
    with pytest.raises(TypeError, match=(
            r"this tensor is traced by JAX .* and has no value yet; use pycg "
            r"ops on it instead of converting it to NumPy, and call a pycg "
            r"function under jax.grad, jax.jit or jax.vmap through "
            r"pycg.to_jax\(f\)")):
        jax.grad(lambda x: ops.sin(x))(1.0)


def test_every_conv_and_pool_configuration_on_jax():
    """tests/test_cpu_portability.py's configurations (values and
    gradients against the NumPy reference) on the jax backend."""
    import json
    import pathlib
    here = pathlib.Path(__file__).parent
    run = subprocess.run(
        [sys.executable, str(here / "support" / "conv_configurations.py"),
         "jax"], env=dict(os.environ, PYTHONPATH=str(here.parent)),
        capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert report["failures"] == []
    from test_cpu_portability import EXPECTED
    assert report["checked"] == EXPECTED // 2   # (one backend of two)


def test_to_jax_without_jax_says_what_to_install():
    r = run_python("import sys; sys.modules['jax'] = None\n"
                   "import pycg\n"
                   "def step(x):\n"
                   "    return x\n"
                   "try:\n"
                   "    pycg.to_jax(step)\n"
                   "except ImportError as e:\n"
                   "    print(e)", PYCG_BACKEND="numpy")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("pycg.to_jax(step): JAX is not installed (")
    assert r.stdout.rstrip().endswith("); pip install 'pycg-autodiff[jax]' "
                                      "(or jax)")
