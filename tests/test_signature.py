"""pycg.with_signature: a signature given as data, read by custom_gradient
the way it reads a Python function's own."""
import inspect

import numpy as np
import pytest

import pycg
from pycg import ops


def _anything(*args, **kwargs):
    return args, kwargs


@pytest.mark.parametrize("params, expected", [
    ([("x", "positional"), ("args", "var_positional"),
      ("upstream", "keyword", None)], "(x, *args, upstream=None)"),
    ([("upstream", "positional")], "(upstream)"),
    ([("x", "positional_only"), ("y", "positional", 2)], "(x, /, y=2)"),
    ([("args", "var_positional"), ("kwargs", "var_keyword")],
     "(*args, **kwargs)"),
    ([("a", "keyword"), ("b", "keyword", None)], "(*, a, b=None)"),
    ([], "()"),
])
def test_the_data_becomes_that_signature(params, expected):
    proxy = pycg.with_signature(_anything, params)
    assert str(inspect.signature(proxy)) == expected


def test_the_proxy_calls_the_function_with_every_argument():
    proxy = pycg.with_signature(_anything, [("x", "positional"),
                                            ("args", "var_positional")])
    assert proxy(1, 2, k=3) == ((1, 2), {"k": 3})
    assert proxy.__name__ == "_anything"


def test_entries_may_be_lists_as_a_bridge_sends_them():
    proxy = pycg.with_signature(_anything, [["x", "positional"],
                                            ["upstream", "keyword", None]])
    assert str(inspect.signature(proxy)) == "(x, *, upstream=None)"


def test_a_keras_style_grad_given_as_data_gets_the_inputs_and_upstream(
        backend):
    seen = {}

    def grad_body(*args, **kwargs):
        seen["args"], seen["kwargs"] = len(args), sorted(kwargs)
        return kwargs["upstream"] * 3 * args[0] ** 2

    @pycg.custom_gradient
    def cube(x):
        return x ** 3, pycg.with_signature(grad_body, [
            ("args", "var_positional"), ("upstream", "keyword", None)])

    g = pycg.grad(cube)(pycg.constant(2.0, "float64"))
    assert float(g) == 12.0  # d/dx x^3 = 3 x^2 at 2
    assert seen == {"args": 1, "kwargs": ["upstream"]}


def test_a_tensorflow_style_grad_given_as_data_gets_upstream_only(backend):
    @pycg.custom_gradient
    def double(x):
        return x * 2, pycg.with_signature(
            lambda *a: a[0] * 2, [("dy", "positional")])

    x = pycg.constant(np.array([1.0, -1.0]))
    np.testing.assert_array_equal(
        pycg.grad(lambda v: ops.sum(double(v)))(x).numpy(), [2.0, 2.0])


def test_an_unknown_kind_names_with_signature_the_entry_and_the_kinds():
    with pytest.raises(ValueError, match=r"pycg.with_signature: entry 1 "
                       r"\('args', 'var'\) has kind 'var'; expected one of "
                       r"positional_only, positional, var_positional, "
                       r"keyword, var_keyword"):
        pycg.with_signature(_anything, [("x", "positional"),
                                        ("args", "var")])


def test_a_name_that_python_cannot_use_is_refused_with_the_entry():
    with pytest.raises(ValueError, match=r"pycg.with_signature: entry 0 "
                       r"\('na.rm', 'positional'\) has name 'na.rm', which "
                       r"is not a Python parameter name"):
        pycg.with_signature(_anything, [("na.rm", "positional")])
    with pytest.raises(ValueError, match="'if', which is not a Python"):
        pycg.with_signature(_anything, [("if", "keyword")])


def test_an_entry_of_the_wrong_shape_is_refused():
    with pytest.raises(TypeError, match=r"pycg.with_signature: entry 0 "
                       r"must be \(name, kind\) or \(name, kind, default\), "
                       r"got 'x'"):
        pycg.with_signature(_anything, ["x"])
    with pytest.raises(TypeError, match="entry 0 must be"):
        pycg.with_signature(_anything, [("x", "positional", None, 1)])


def test_a_string_signature_is_refused_with_the_data_form_named():
    with pytest.raises(TypeError, match=r"pycg.with_signature: expected a "
                       r"list of \(name, kind\) or \(name, kind, default\) "
                       r"entries, got str '\(\*args, upstream=None\)'"):
        pycg.with_signature(_anything, "(*args, upstream=None)")


def test_a_default_on_a_star_parameter_is_refused():
    with pytest.raises(ValueError, match=r"entry 0 \('args', "
                       r"'var_positional', None\) gives a default to a "
                       r"var_positional parameter"):
        pycg.with_signature(_anything, [("args", "var_positional", None)])


@pytest.mark.parametrize("params, why", [
    ([("args", "positional"), ("args", "var_positional")],
     "duplicate parameter name: 'args'"),
    ([("x", "positional", None), ("y", "positional")],
     "(non-default argument|parameter without a default) follows"),
    ([("k", "keyword"), ("x", "positional")], "wrong parameter order"),
])
def test_entries_that_make_no_signature_are_refused_with_why(params, why):
    with pytest.raises(ValueError, match=r"pycg.with_signature: the entries "
                       r"\[.*\] do not make a Python signature: " + why):
        pycg.with_signature(_anything, params)
