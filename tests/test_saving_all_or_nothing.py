"""load_variables assigns all or nothing: a value the active backend cannot
hold is refused before any variable is assigned, and an exception or a
KeyboardInterrupt while the variables are assigned leaves every variable
as it was (fault injection at each assignment)."""
import importlib.util

import numpy as np
import pytest

import pycg
from pycg.tensor import Variable

BEFORE = {"a": [1.0, 2.0], "b": [3.0], "c": [4.0, 5.0, 6.0]}
SAVED = {"a": [-1.0, -2.0], "b": [-3.0], "c": [-4.0, -5.0, -6.0]}


def _variables():
    return {n: pycg.Variable(np.array(v, "float32"), name=n)
            for n, v in BEFORE.items()}


def _saved(tmp_path):
    path = tmp_path / "ckpt.npz"
    pycg.save_variables(path, {n: pycg.Variable(np.array(v, "float32"))
                               for n, v in SAVED.items()})
    return path


def _values(variables):
    return {n: v.numpy().tolist() for n, v in variables.items()}


@pytest.mark.parametrize("fault", [RuntimeError, KeyboardInterrupt])
@pytest.mark.parametrize("at", [0, 1, 2])
def test_a_fault_at_any_assignment_leaves_every_variable_as_it_was(
        tmp_path, backend, monkeypatch, fault, at):
    path, variables = _saved(tmp_path), _variables()
    assign, calls = Variable.assign, []

    def faulty(self, value):
        calls.append(self.name)
        if len(calls) == at + 1:
            raise fault("injected")
        return assign(self, value)

    monkeypatch.setattr(Variable, "assign", faulty)
    with pytest.raises(fault, match="^injected$"):
        pycg.load_variables(path, variables)
    monkeypatch.undo()
    assert _values(variables) == BEFORE


def test_a_fault_after_an_assignment_has_stored_is_undone(
        tmp_path, backend, monkeypatch):
    path, variables = _saved(tmp_path), _variables()
    assign = Variable.assign

    def stores_then_fails(self, value):
        assign(self, value)
        if self.name == "b" and value is not None and \
                np.asarray(value).tolist() == SAVED["b"]:
            raise KeyboardInterrupt
        return self

    monkeypatch.setattr(Variable, "assign", stores_then_fails)
    with pytest.raises(KeyboardInterrupt):
        pycg.load_variables(path, variables)
    monkeypatch.undo()
    assert _values(variables) == BEFORE


def test_without_a_fault_every_variable_is_assigned(tmp_path, backend):
    path, variables = _saved(tmp_path), _variables()
    pycg.load_variables(path, variables)
    assert _values(variables) == SAVED


@pytest.mark.skipif(importlib.util.find_spec("jax") is None,
                    reason="JAX is not installed")
def test_a_dtype_the_backend_cannot_hold_is_refused_before_any_assignment(
        tmp_path):
    import jax
    previous = pycg.config.backend()
    pycg.config.set_backend("numpy")
    path = tmp_path / "ab.npz"
    a = pycg.Variable(np.float32([1, 2]), name="a")
    b = pycg.Variable(np.float64([3, 4]), name="b")
    pycg.save_variables(path, [pycg.Variable(np.float32([-1, -2]), name="a"),
                               pycg.Variable(np.float64([-3, -4]), name="b")])
    try:
        with jax.enable_x64(False):
            pycg.config.set_backend("jax")
            with pytest.raises(TypeError, match=r"^pycg\.load_variables: 'b' "
                               r"cannot be assigned its saved value on this "
                               r"backend \(.*float64 needs JAX's 64-bit "
                               r"mode.*\); no variable was assigned$"):
                pycg.load_variables(path, [a, b])
            pycg.config.set_backend("numpy")
    finally:
        pycg.config.set_backend(previous)
    assert a.numpy().tolist() == [1.0, 2.0]
    assert b.numpy().tolist() == [3.0, 4.0]
