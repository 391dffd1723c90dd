"""A Tensor or Variable where a training loop uses a number: format, round,
item, tolist, copy and pickle behave as NumPy's scalars and arrays do (the
expected values are NumPy's, on the same float32 number)."""
import copy
import pickle

import numpy as np
import pytest

import pycg
from pycg import ops

X = np.float32(1.23456)


def _both(value, dtype="float32"):
    return [pycg.constant(value, dtype), pycg.Variable(value, dtype=dtype)]


def test_format_spec_formats_the_value(backend):
    for t in _both(X):
        assert f"{t:.4f}" == f"{X:.4f}" == "1.2346"
        assert f"{t:>10.2e}" == f"{X:>10.2e}"


def test_format_spec_of_bfloat16_formats_its_value(backend):
    t = ops.cast(pycg.constant(1.5), "bfloat16")
    assert f"{t:.3f}" == "1.500"


def test_format_spec_of_a_vector_names_the_shape(backend):
    with pytest.raises(TypeError, match=r"pycg.Tensor: format spec '.4f' "
                       r"needs a 0-d tensor, got shape \(2,\)"):
        f"{pycg.constant([1.0, 2.0]):.4f}"


def test_round_is_numpys_round_of_the_scalar(backend):
    for t in _both(X):
        r = round(t, 2)
        assert r == round(X, 2) and type(r) is type(round(X, 2))
        assert round(t) == round(X) == 1 and type(round(t)) is int


def test_round_of_a_vector_says_use_ops_round(backend):
    with pytest.raises(TypeError, match=r"round\(\) needs a 0-d tensor.*"
                       r"ops.round"):
        round(pycg.Variable([1.0, 2.0]), 1)


def test_item_and_tolist_give_python_numbers(backend):
    for t in _both(X):
        assert t.item() == X.item() and type(t.item()) is float
        assert t.tolist() == X.tolist()
    m = np.array([[1, 2], [3, 4]], "int32")
    assert pycg.constant(m).tolist() == m.tolist()
    assert pycg.constant([7], "int32").item() == 7


def test_item_of_several_values_names_the_shape(backend):
    with pytest.raises(ValueError, match=r"pycg.Variable.item: expected a "
                       r"tensor with one value, got shape \(2,\) \(2 values"):
        pycg.Variable([1.0, 2.0]).item()


def test_item_of_a_traced_tensor_says_it_is_traced(tf_backend):
    @pycg.function
    def f(x):
        return x.item()
    with pytest.raises(TypeError, match=r"traced tensor was used as item"):
        f(pycg.constant(1.0))


@pytest.mark.parametrize("how", ["copy", "deepcopy", "pickle"])
def test_a_copied_tensor_keeps_value_and_dtype(backend, how):
    t = pycg.constant([1.5, -2.0], "float64")
    c = {"copy": copy.copy, "deepcopy": copy.deepcopy,
         "pickle": lambda t: pickle.loads(pickle.dumps(t))}[how](t)
    assert type(c) is pycg.Tensor and c.dtype == np.float64
    np.testing.assert_array_equal(c.numpy(), [1.5, -2.0])


@pytest.mark.parametrize("how", ["copy", "deepcopy", "pickle"])
def test_a_copied_variable_is_a_new_variable_with_the_value(backend, how):
    v = pycg.Variable([1.5, -2.0], name="w", dtype="float64")
    c = {"copy": copy.copy, "deepcopy": copy.deepcopy,
         "pickle": lambda t: pickle.loads(pickle.dumps(t))}[how](v)
    assert type(c) is pycg.Variable and c.dtype == np.float64
    assert (c.name, c.trainable) == ("w", True)
    v.assign([0.0, 0.0])   # the copy has its own storage
    np.testing.assert_array_equal(c.numpy(), [1.5, -2.0])
    with pycg.GradientTape() as tape:
        y = ops.sum(c * c)
    np.testing.assert_array_equal(tape.gradient(y, c).numpy(), [3.0, -4.0])


def test_a_deepcopied_structure_keeps_its_variables_untrainable_flag(backend):
    params = {"w": pycg.Variable(2.0), "step": pycg.Variable(
        3, trainable=False, dtype="int32")}
    c = copy.deepcopy(params)
    assert c["step"].trainable is False and c["step"].item() == 3
    assert c["w"].item() == 2.0
