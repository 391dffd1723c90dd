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
