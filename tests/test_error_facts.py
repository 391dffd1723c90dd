"""pycg._errors: a message is a template over typed facts, rendered in
Python's terms, with the template and facts kept for the R side."""
import pytest

from pycg._errors import (Api, Arg, Array, Axis, Dtype, Op, Position, Shape,
                          TypeOf, Value, facts_of, user_error)


def test_a_user_error_renders_its_facts_in_python_terms():
    exc = user_error(ValueError, "{op}: {arg} {axis} out of range (rank "
                     "{rank}), shape {shape}, got {got} {value}, {api}, "
                     "{dtype}, at {pos}", op=Op("sum"), arg=Arg("axis"),
                     axis=Axis(3), rank=2, shape=Shape((2, 3)),
                     got=TypeOf("a"), value=Value("a"), api=Api("grad"),
                     dtype=Dtype("float32"), pos=Position(0))
    assert isinstance(exc, ValueError)
    assert str(exc) == ("pycg.ops.sum: `axis` 3 out of range (rank 2), shape "
                        "(2, 3), got str 'a', pycg.grad, float32, at 0")


def test_a_user_error_keeps_its_template_and_facts_as_plain_data():
    exc = user_error(TypeError, "{op}: {shape}", op=Op("add"),
                     shape=Shape((None, 4)))
    template, facts = facts_of(exc)
    assert template == "{op}: {shape}"
    assert facts == {"op": ("op", "add"), "shape": ("shape", [None, 4])}


def test_an_array_is_printed_by_numpy_and_carried_row_major():
    import numpy as np
    exc = user_error(AssertionError, "got:\n{a}",
                     a=Array(np.array([[1.0, 2.0], [3.0, np.nan]])))
    assert str(exc) == "got:\n    [[ 1.  2.]\n     [ 3. nan]]"
    _, facts = facts_of(exc)
    kind, (shape, values) = facts["a"]
    assert (kind, shape, values[:3]) == ("array", [2, 2], [1.0, 2.0, 3.0])
    assert np.isnan(values[3])


def test_an_ordinary_exception_has_no_facts():
    assert facts_of(ValueError("x")) is None


def test_a_type_outside_builtins_is_named_with_its_module():
    import numpy as np
    exc = user_error(TypeError, "{t}", t=TypeOf(np.float32(1)))
    assert str(exc) == "numpy.float32"


def test_a_missing_fact_is_a_key_error_at_the_raise_site():
    with pytest.raises(KeyError):
        user_error(ValueError, "{op}: {missing}", op=Op("sum"))
