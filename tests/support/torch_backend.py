"""The torch backend for every test of a module that imports this fixture
(pycg.to_torch's test files): set before each test, the one before it put
back after."""
import pytest

import pycg


@pytest.fixture(autouse=True)
def torch_backend():
    previous = pycg.config.backend()
    pycg.config.set_backend("torch")
    try:
        yield
    finally:
        pycg.config.set_backend(previous)
