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


def test_several_axes_or_positions_are_one_fact_written_as_python_does():
    exc = user_error(ValueError, "axes {a} at {p}", a=Axis([1, -1]),
                     p=Position((0, 2)))
    assert str(exc) == "axes [1, -1] at (0, 2)"
    assert facts_of(exc)[1] == {"a": ("axis", [1, -1]),
                                "p": ("position", [0, 2])}


def _raised(call):
    try:
        call()
    except (ValueError, IndexError) as e:
        return e
    raise AssertionError("no error")


# Ops' shape, axis and position messages carry their facts, so that R writes
# them in its own terms (R/messages.R) instead of rewriting Python's text.
@pytest.mark.parametrize("call, facts", [
    (lambda o, a, b: o.squeeze(a, 0),
     {"axis": ("axis", 0), "shape": ("shape", [2, 3])}),
    (lambda o, a, b: o.broadcast_to(a, (3, 3)),
     {"shape": ("shape", [2, 3]), "new": ("shape", [3, 3])}),
    (lambda o, a, b: o.concatenate([a, b]),
     {"y": ("shape", [4, 2]), "axis": ("axis", 0)}),
    (lambda o, a, b: o.stack([a, b]), {"y": ("shape", [4, 2])}),
    (lambda o, a, b: o.matmul(o.ones(()), a),
     {"x": ("shape", []), "y": ("shape", [2, 3])}),
    (lambda o, a, b: o.matmul(o.ones((2, 2, 3)), o.ones((3, 3, 2))),
     {"x": ("shape", [2, 2, 3])}),
    (lambda o, a, b: o.dot(a, b), {"k": ("value", 3), "n": ("value", 4)}),
    (lambda o, a, b: o.tensordot(a, b, 1),
     {"ax_x": ("axis", [1]), "ax_y": ("axis", [0])}),
    (lambda o, a, b: o.slice_update(a, [1, 1], o.ones((2, 2))),
     {"at": ("position", [1, 1]), "shape": ("shape", [2, 3])}),
])
def test_ops_shape_messages_carry_their_facts(backend, call, facts):
    import numpy as np
    from pycg import ops
    a = ops.convert_to_tensor(np.ones((2, 3)))
    b = ops.convert_to_tensor(np.ones((4, 2)))
    got = facts_of(_raised(lambda: call(ops, a, b)))
    assert got is not None
    assert {k: got[1][k] for k in facts} == facts
