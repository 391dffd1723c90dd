"""The Python half of R's interop contracts that need no R: settings for a
Python that R started, R condition markers, and arity checks of R
functions (pycg/r/_hosted.py, pycg/r/interop.py)."""
import sys
import warnings

import pytest

import pycg
from pycg.r import _hosted, _session, interop
from pycg.custom.signature import make_signature


def test_settings_apply_only_when_r_started_this_python(monkeypatch):
    monkeypatch.delitem(sys.modules, "rpytools", raising=False)
    assert _hosted.apply() is False
    monkeypatch.setitem(sys.modules, "rpytools", object())
    monkeypatch.setattr(_session, "HOSTING_R", True)  # pycg.r embeds R
    assert _hosted.apply() is False
    assert pycg.config.floatx() == "float32"


def test_settings_when_r_started_this_python(monkeypatch):
    monkeypatch.setitem(sys.modules, "rpytools", object())
    monkeypatch.setattr(_session, "HOSTING_R", False)
    monkeypatch.setattr(warnings, "showwarning", warnings.showwarning)
    old = pycg.config.floatx()
    try:
        assert _hosted.apply() is True
        assert pycg.config.floatx() == "float64"

        @interop.guard
        def warns(x):
            warnings.warn(f"careful with {x}", stacklevel=1)
            return x

        out = warns(1.5)
        assert isinstance(out, interop.Warned)
        assert out.value == 1.5 and out.warnings == ["careful with 1.5"]
        assert warns(2.5).warnings == ["careful with 2.5"]
    finally:
        pycg.config.set_floatx(old)
        monkeypatch.setattr(_hosted, "active", False)


def test_r_condition_markers_raise():
    with pytest.raises(interop.RCallbackInterrupt,
                       match=r"^interrupted \(in the R function rule\)$"):
        interop._r_value({interop.CONDITION_KEY: "interrupt",
                          "message": "interrupted"}, "rule")
    with pytest.raises(interop.RCallbackInterrupt,
                       match=r"^interrupted \(in the gradient of f\)$"):
        interop._r_value({interop.CONDITION_KEY: "interrupt",
                          "message": "interrupted",
                          "where": "in the gradient of f"}, "f")
    with pytest.raises(interop.RCallbackError, match="boom"):
        interop._r_value({interop.CONDITION_KEY: "error", "message": "boom"},
                         "rule")
    assert interop._r_value({"a": 1}, "rule") == {"a": 1}


def test_an_r_interrupt_is_a_keyboard_interrupt_not_an_exception():
    assert issubclass(interop.RCallbackInterrupt, KeyboardInterrupt)
    assert not issubclass(interop.RCallbackInterrupt, Exception)

    @interop.guard
    def interrupted():
        raise interop.RCallbackInterrupt("interrupted while pycg was running R code")
    failure = interrupted()   # for R, which signals the interrupt again
    assert isinstance(failure, interop.Failure)
    assert failure.type == "RCallbackInterrupt"


def test_an_r_function_is_not_called_with_arguments_it_cannot_take():
    calls = []
    sig = make_signature([["dy", "positional"]], "test")
    fn = interop.RCallable(lambda *a, **k: calls.append(a) or a[0], sig,
                           "rule")
    assert fn(1.0) == 1.0
    with pytest.raises(TypeError,
                       match=r"R function\(dy\) cannot take 2 positional"):
        fn(1.0, 2.0)
    assert calls == [(1.0,)]
