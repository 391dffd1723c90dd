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
from support import backend_switch

jax = pytest.importorskip("jax")   # (the whole file is about JAX)


def run_python(code, **env):
    environ = {k: v for k, v in os.environ.items()
               if k not in ("PYCG_BACKEND", "JAX_ENABLE_X64")}
    environ.update(env)
    return subprocess.run([sys.executable, "-c", code], env=environ,
                          capture_output=True, text=True, timeout=120)


jax_backend = backend_switch.fixture("jax")


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
    with backend_switch.on(name):
        with pytest.raises(TypeError, match=(
                f"pycg.ops.sin: a JAX tracer .* reached pycg's '{name}' "
                f"backend, which cannot hold it; convert the pycg function "
                f"with pycg.to_jax")):
            jax.grad(lambda x: ops.sin(x))(1.0)


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
            r"this tensor is traced by JAX and was handed to JAX .*JAX "
            r"would not see pycg's gradient rules. Call a pycg function "
            r"under jax.grad, jax.jit or jax.vmap through "
            r"pycg.to_jax\(f\)")):
        jax.grad(lambda x: ops.sin(x))(1.0)


@pytest.mark.parametrize("wrap", ["grad", "jit_grad"])
@pytest.mark.parametrize("jnp_call", ["sum", "asarray"])
def test_a_jax_numpy_function_on_a_pycg_tensor_inside_to_jax_is_an_error(
        jax_backend, wrap, jnp_call):
    """Inside pycg.to_jax(f), JAX's functions are outside pycg's tape (the
    gradient is pycg's), so handing them a pycg tensor would lose its
    gradient: pycg's error naming f and pycg ops, under jax.grad and under
    jax.jit(jax.grad) (where JAX's jit would replace the message)."""
    import jax.numpy as jnp

    def loss(x):
        y = ops.sin(x) ** 2
        return jnp.sum(y) if jnp_call == "sum" else ops.sum(jnp.asarray(y))
    g = jax.grad(pycg.to_jax(loss))
    g = jax.jit(g) if wrap == "jit_grad" else g
    with pytest.raises(TypeError, match=(
            r"pycg.to_jax\(loss\): a pycg tensor was handed to a JAX "
            r"function inside it .*use pycg ops inside f")):
        g(jnp.ones(2))
    # pycg ops inside f: JAX's gradient of sum(sin(x)^2) is sin(2x)
    got = jax.grad(pycg.to_jax(lambda x: ops.sum(ops.sin(x) ** 2)))(
        jnp.array([0.3, 1.1]))
    np.testing.assert_allclose(np.asarray(got), np.sin(2 * np.array(
        [0.3, 1.1])), rtol=1e-6)


def test_a_pycg_tensor_with_a_value_still_converts_by_jnp_asarray(
        jax_backend):
    """Outside pycg.to_jax a tensor with a value converts as any object
    with __array__ (the property above is no attribute there)."""
    import jax.numpy as jnp
    np.testing.assert_array_equal(
        np.asarray(jnp.asarray(pycg.constant([1., 2.]))), [1., 2.])
    assert not hasattr(pycg.constant([1., 2.]), "__jax_array__")


def test_every_conv_and_pool_configuration_on_jax():
    """tests/test_cpu_portability.py's configurations (values and
    gradients against the NumPy reference) on the jax backend: every seventh
    in `make test` (jax dispatches and compiles per shape, about 1 s a
    case), all of them in `make soak` (tests/support/grids.py)."""
    import json
    import pathlib

    from support import conv_configurations, grids
    every = 1 if grids.FULL else 7
    here = pathlib.Path(__file__).parent
    run = subprocess.run(
        [sys.executable, str(here / "support" / "conv_configurations.py"),
         "jax", "--every", str(every)],
        env=dict(os.environ, PYTHONPATH=str(here.parent)),
        capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert report["failures"] == []
    planned = conv_configurations.planned(every)
    assert report["checked"] == len(planned)
    kinds = {conv_configurations.cases()[i][0] for i, _ in planned}
    assert kinds == {c[0] for c in conv_configurations.cases()}


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
                                      "(or jax) (installing it: "
                                      "docs/troubleshooting.md)")


X64_OFF_STATE = r"""
import json, numpy as np, jax, pycg
from pycg import ops
pycg.config.set_backend("jax")
out = {"x64_before": jax.config.jax_enable_x64}
out["normal"] = pycg.random.normal((3,), seed=5).numpy().tolist()
g = pycg.random.SeedGenerator(11)
out["gen"] = [pycg.random.uniform((2,), seed=g).numpy().tolist()
              for _ in range(2)]
out["state"] = [g.state.dtype.name] + g.state.numpy().tolist()
out["dropout"] = pycg.random.dropout(ops.ones((6,)), 0.5, seed=3).numpy(
    ).tolist()
out["shuffle"] = pycg.random.shuffle(pycg.constant([1., 2., 3., 4.]),
                                     seed=2).numpy().tolist()
out["unseeded"] = pycg.random.normal((2,)).shape
h = pycg.random.SeedGenerator(4)
draw = pycg.function(lambda a: a + pycg.random.normal((1,), seed=h))
out["compiled"] = [float(draw(pycg.constant([0.]))[0]) for _ in range(2)]
for make in ("SGD", "Adam"):
    w = pycg.Variable([1., -2.])
    opt = getattr(pycg.optimizers, make)(learning_rate=0.1)
    for _ in range(3):
        opt.apply([2 * w.read()], [w])
    out[make] = w.numpy().tolist()
    out[make + "_iterations"] = [opt.iterations.dtype.name,
                                 int(opt.iterations.numpy())]
try:
    pycg.random.SeedGenerator(2 ** 40)
except ValueError as e:
    out["wide_seed"] = str(e)
out["x64_after"] = jax.config.jax_enable_x64
print(json.dumps(out))
"""


def test_optimizers_and_random_work_with_x64_off_as_with_x64():
    """JAX's default (64-bit mode off) in a fresh interpreter: seeds,
    seed generators (eager and compiled), dropout, shuffle and the
    optimizers' step counters work in int32, as Keras' on JAX, without
    pycg turning the mode on; the numbers are those of the int64 state
    (the numpy backend's), the optimizers' steps their closed forms."""
    import json
    r = run_python(X64_OFF_STATE)
    assert r.returncode == 0, r.stderr[-3000:]
    got = json.loads(r.stdout.strip().splitlines()[-1])
    assert got["x64_before"] is False and got["x64_after"] is False
    with backend_switch.on("numpy"):   # (int64 state: the reference)
        g = pycg.random.SeedGenerator(11)
        h = pycg.random.SeedGenerator(4)
        want = {
            "normal": pycg.random.normal((3,), seed=5).numpy().tolist(),
            "gen": [pycg.random.uniform((2,), seed=g).numpy().tolist()
                    for _ in range(2)],
            "dropout": pycg.random.dropout(ops.ones((6,)), 0.5, seed=3
                                           ).numpy().tolist(),
            "shuffle": pycg.random.shuffle(pycg.constant([1., 2., 3., 4.]),
                                           seed=2).numpy().tolist(),
            "compiled": [float(pycg.random.normal((1,), seed=h)[0])
                         for _ in range(2)]}
    for k, v in want.items():
        np.testing.assert_allclose(got[k], v, rtol=1e-6, err_msg=k)
    assert got["state"] == ["int32", 11, 2]
    assert got["unseeded"] == [2]
    # SGD on sum(w^2): w (1 - 2 lr)^3; Adam: each step moves by ~lr (the
    # gradient's sign is constant), by its formula with bias correction
    w0 = np.array([1., -2.])
    np.testing.assert_allclose(got["SGD"], w0 * 0.8 ** 3, rtol=1e-6)
    w, m, v = w0.copy(), 0., 0.
    for t in range(1, 4):
        gr = 2 * w
        m, v = 0.9 * m + 0.1 * gr, 0.999 * v + 0.001 * gr ** 2
        lr = 0.1 * np.sqrt(1 - 0.999 ** t) / (1 - 0.9 ** t)
        w = w - lr * m / (np.sqrt(v) + 1e-7)
    np.testing.assert_allclose(got["Adam"], w, rtol=1e-5)
    assert got["SGD_iterations"] == got["Adam_iterations"] == ["int32", 3]
    assert got["wide_seed"] == (
        "pycg.random.SeedGenerator: seed 1099511627776 does not fit in "
        "int32 (JAX's 64-bit mode is off)")


def test_the_backend_first_loaded_inside_a_trace_keeps_no_tracer():
    # pycg.to_jax loads the jax backend where JAX first runs f: inside
    # jax.jit / jax.grad's trace. What the backend computes as it loads (the
    # type of its arrays) must be the compile-time value, or its scalar cache
    # keeps the trace's tracers and a later compile fails ("No constant
    # handler for type: DynamicJaxprTracer").
    run = run_python(
        "import numpy as np, jax, jax.numpy as jnp, pycg\n"
        "from pycg import ops\n"
        "@pycg.custom_gradient\n"
        "def log1pexp(x):\n"
        "    e = ops.exp(x)\n"
        "    return ops.log(1 + e), lambda g: g * (1 - 1 / (1 + e))\n"
        "f = pycg.to_jax(log1pexp)\n"
        "x = jnp.asarray(np.linspace(-3, 3, 8, dtype=np.float32))\n"
        "g = jax.jit(jax.grad(lambda v: f(v).sum()))(x)\n"
        "import pycg.backends.jax.core as core\n"
        "assert all(type(c) in core.types for c in core._scalars.values())\n"
        "assert 'Tracer' not in repr(core.types)\n"
        "print(repr(np.asarray(g).tolist()))\n")
    assert run.returncode == 0, run.stderr[-2000:]
    x = np.linspace(-3, 3, 8, dtype=np.float32).astype(np.float64)
    np.testing.assert_allclose(eval(run.stdout.strip().splitlines()[-1]),
                               1 / (1 + np.exp(-x)), rtol=1e-6)
