"""A custom gradient whose input is a dict may return its gradient in that
dict's structure, as TensorFlow's nest rules allow (issue 13 item 3); a
dict keyed by parameter name still works; a dict that reads both ways is an
error. Oracle: TensorFlow's tf.custom_gradient on the same function."""
import numpy as np
import pytest

import pycg
from pycg import ops


def _tape_grad(f, args, sources):
    with pycg.GradientTape() as t:
        t.watch(sources)
        y = f(*args)
    return [float(g) for g in t.gradient(y, sources)]


def test_a_dict_input_may_take_its_gradient_as_a_dict(backend):
    @pycg.custom_gradient
    def f(inputs):
        a, b = inputs["a"], inputs["b"]
        return a * b, lambda g: {"a": g * b, "b": g * a}
    a, b = pycg.constant(2.0), pycg.constant(3.0)
    assert _tape_grad(f, [{"a": a, "b": b}], [a, b]) == [3.0, 2.0]


def test_the_dict_gradient_agrees_with_tensorflow(backend):
    tf = pytest.importorskip("tensorflow")

    @tf.custom_gradient
    def tf_f(inputs):
        a, b = inputs["a"], inputs["b"]
        return a * tf.sin(b), lambda g: {"a": g * tf.sin(b),
                                         "b": g * a * tf.cos(b)}
    at, bt = tf.constant(2.0), tf.constant(0.5)
    with tf.GradientTape() as t:
        t.watch([at, bt])
        y = tf_f({"a": at, "b": bt})
    expected = [float(g) for g in t.gradient(y, [at, bt])]

    @pycg.custom_gradient
    def f(inputs):
        a, b = inputs["a"], inputs["b"]
        return a * ops.sin(b), lambda g: {"a": g * ops.sin(b),
                                          "b": g * a * ops.cos(b)}
    a, b = pycg.constant(2.0), pycg.constant(0.5)
    np.testing.assert_allclose(_tape_grad(f, [{"a": a, "b": b}], [a, b]),
                               expected, rtol=1e-6)


def test_a_nested_dict_gradient_in_the_input_structure(backend):
    @pycg.custom_gradient
    def f(inputs):
        x, y = inputs["p"]["x"], inputs["q"]
        return x * y, lambda g: {"p": {"x": g * y}, "q": g * x}
    x, y = pycg.constant(2.0), pycg.constant(5.0)
    assert _tape_grad(f, [{"p": {"x": x}, "q": y}], [x, y]) == [5.0, 2.0]


def test_a_dict_keyed_by_parameter_name_still_works(backend):
    @pycg.custom_gradient
    def f(x, y):
        return x * y, lambda g: {"x": g * y, "y": g * x}
    x, y = pycg.constant(2.0), pycg.constant(5.0)
    assert _tape_grad(f, [x, y], [x, y]) == [5.0, 2.0]


def test_a_dict_input_named_like_its_key_reads_by_structure(backend):
    @pycg.custom_gradient
    def f(a):
        return a["a"] * 3.0, lambda g: {"a": g * 3.0}
    x = pycg.constant(2.0)
    assert _tape_grad(f, [{"a": x}], [x]) == [3.0]


def test_a_dict_that_reads_both_ways_is_an_error(backend):
    @pycg.custom_gradient
    def f(inputs, a, b):   # a and b are flags, not tensors
        x, y = inputs["a"], inputs["b"]
        return x * y, lambda g: {"a": g * y, "b": g * x}
    x, y = pycg.constant(2.0), pycg.constant(5.0)
    with pytest.raises(ValueError, match=r"f: grad_fn returned a dict that "
                       r"reads two ways: keyed by parameter name, and in "
                       r"the structure of input 'inputs'; return a tuple"):
        _tape_grad(f, [{"a": x, "b": y}, None, None], [x, y])


def test_a_dict_of_neither_kind_names_both_options(backend):
    @pycg.custom_gradient
    def f(inputs):
        x = inputs["a"]
        return x * 2.0, lambda g: {"z": g}
    x = pycg.constant(2.0)
    with pytest.raises(ValueError, match=r"f: grad_fn returned a gradient "
                       r"for 'z', which is not a parameter; the parameters "
                       r"are 'inputs', nor a dict in the structure of input "
                       r"'inputs' \(a dict with keys 'a'\)"):
        _tape_grad(f, [{"a": x}], [x])


def test_the_module_docstring_documents_the_rule():
    doc = pycg.custom_gradient.__module__
    import sys
    text = sys.modules[doc].__doc__
    assert "a dict in the structure of the one" in text
    assert "a dict that reads both ways" in text


def test_an_output_made_before_the_call_is_not_made_a_function_of_x(backend):
    """The one-tensor path records f's own new output as it is; a tensor f
    returns that existed before the call (a closure constant, or x itself)
    gets a fresh identity, so its other uses stay independent of x."""
    c = pycg.constant(2.0)

    @pycg.custom_gradient
    def returns_c(x):
        return c, lambda up: up * 3.0

    @pycg.custom_gradient
    def returns_x(x):
        return x, lambda up: up * 5.0

    x = pycg.constant(1.5)
    for _ in range(2):   # (the first call decides the convention)
        with pycg.GradientTape(persistent=True) as t:
            t.watch(x)
            y, z, w = returns_c(x), c * 4.0, returns_x(x)
        assert float(t.gradient(y, x)) == 3.0
        assert t.gradient(z, x) is None
        assert float(t.gradient(w, x)) == 5.0
        assert y is not c and w is not x


def test_a_keyword_after_a_skipped_default_binds_its_own_parameter(backend):
    # f(x, b=5) must leave `a` at its default (f is called with the
    # arguments as they came, not re-laid positionally)
    @pycg.custom_gradient
    def f(x, a=2.0, b=3.0):
        def grad(upstream):
            return upstream * a
        return x * a + b, grad

    x = pycg.constant([1.0, -2.0])
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = f(x, b=5)
    np.testing.assert_allclose(y.numpy(), [1.0 * 2 + 5, -2.0 * 2 + 5])
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [2.0, 2.0])
    np.testing.assert_allclose(f(x, b=5).numpy(), [7.0, 1.0])


def test_every_way_of_calling_gives_the_positional_calls_bits(backend):
    @pycg.custom_gradient
    def f(x, y):
        def grad(upstream):
            return upstream * y * 3.0, upstream * x
        return x * y, grad

    x, y = pycg.constant([0.3, -1.1]), pycg.constant([1.2, 0.7])
    got = []
    for call in (lambda: f(x, y), lambda: f(x, y=y), lambda: f(y=y, x=x)):
        with pycg.GradientTape() as tape:
            tape.watch([x, y])
            out = call()
        got.append([out.numpy()] + [g.numpy() for g in
                                    tape.gradient(out, [x, y])])
    want = [x.numpy() * y.numpy(), y.numpy() * 3.0, x.numpy()]
    for values in got:
        for g, w in zip(values, want):
            np.testing.assert_allclose(g, w, rtol=1e-6)
        for g, first in zip(values, got[0]):
            np.testing.assert_array_equal(g, first)
