"""A pycg backend for the length of a test, the one before it put back
after: `on(name)` as a context manager, `fixture(name)` the pytest fixture
(`<name>_backend`) made from it, `params_fixture(names, fixture_name)` one
fixture run under each backend of `names` (yielding the name)."""
import contextlib

import pytest

import pycg


@contextlib.contextmanager
def on(name):
    previous = pycg.config.backend()
    pycg.config.set_backend(name)
    try:
        yield name
    finally:
        pycg.config.set_backend(previous)


def fixture(backend, autouse=False, name=None):
    """The fixture `name` (by default `<backend>_backend`) that runs the
    test under `backend` (autouse: every test of the module that binds it)."""
    @pytest.fixture(autouse=autouse, name=name or f"{backend}_backend")
    def switched():
        with on(backend):
            yield
    return switched


def params_fixture(names, name, importorskip=()):
    """The fixture `name`, run once under each backend of `names` (the
    ones in `importorskip` skip where their framework is not installed)."""
    @pytest.fixture(params=list(names), name=name)
    def switched(request):
        if request.param in importorskip:
            pytest.importorskip(request.param)
        with on(request.param) as chosen:
            yield chosen
    return switched
