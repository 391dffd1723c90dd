"""Shared fixtures: every behaviour is checked on each kernel backend
(numpy and tensorflow; jax and torch too where they are installed)."""
import importlib.util
import os

import pytest

import pycg

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


@pytest.fixture(params=BACKENDS)
def backend(request):
    """Run the test under each backend, restoring the previous one after."""
    previous = pycg.config.backend()
    pycg.config.set_backend(request.param)
    try:
        yield request.param
    finally:
        pycg.config.set_backend(previous)


@pytest.fixture
def tf_backend():
    """Run the test under the tensorflow backend, restoring the previous
    one after (for what only TensorFlow has: graphs, unknown dimensions)."""
    previous = pycg.config.backend()
    pycg.config.set_backend("tensorflow")
    try:
        yield
    finally:
        pycg.config.set_backend(previous)
