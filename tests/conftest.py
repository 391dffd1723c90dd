"""Shared fixtures: every behaviour is checked on both kernel backends."""
import pytest

import pycg

BACKENDS = ("numpy", "tensorflow")


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
