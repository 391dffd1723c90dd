"""The torch backend for every test of a module that imports this fixture
(pycg.to_torch's test files): set before each test, the one before it put
back after."""
from support import backend_switch

torch_backend = backend_switch.fixture("torch", autouse=True)
