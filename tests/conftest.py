"""Shared fixtures: every behaviour is checked on each kernel backend
(numpy and tensorflow; jax and torch too where they are installed)."""
import importlib.util
import os

from support import backend_switch

# The scripts other tests run in a fresh interpreter (tests/support/
# *_script.py: two JAX devices, a Keras fit, torch DDP) are not test
# modules: --doctest-modules would import them, which runs them here, in
# this process's devices and backends.
collect_ignore_glob = ["support/*_script.py"]

# PYCG_TEST_BACKENDS (comma-separated) narrows the backends the fixture
# runs on, e.g. "numpy,tensorflow" to leave jax to a longer run
_ONLY = [b for b in os.environ.get("PYCG_TEST_BACKENDS", "").split(",") if b]
BACKENDS = ("numpy", "tensorflow")
if importlib.util.find_spec("jax") is not None:
    # The op matrix checks in float64 (finite differences, TensorFlow's
    # tape), which JAX keeps only in its 64-bit mode: on for the test
    # process (pycg itself never sets it; test_jax_backend.py checks the
    # backend with it off).
    import jax
    jax.config.update("jax_enable_x64", True)
    BACKENDS += ("jax",)
if importlib.util.find_spec("torch") is not None:
    BACKENDS += ("torch",)
if _ONLY:
    BACKENDS = tuple(b for b in BACKENDS if b in _ONLY)


# `backend`: the test under each backend, the previous one restored after
backend = backend_switch.params_fixture(BACKENDS, "backend")
# `tf_backend`: under the tensorflow backend (for what only TensorFlow has:
# graphs, unknown dimensions)
tf_backend = backend_switch.fixture("tensorflow", name="tf_backend")
