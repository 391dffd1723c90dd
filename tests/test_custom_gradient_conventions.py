"""Each grad_fn convention, structures, keywords and variables, on both
backends. The rules below scale the true gradient by a marker factor, so a
test can only pass if pycg really called the custom rule."""
import re

import numpy as np
import pytest

import pycg
from pycg import ops

MARK = 10.0  # the custom rules return MARK times the true derivative


def grad_of(f, *args):
    xs = [pycg.constant(a) for a in args]
    with pycg.GradientTape() as tape:
        tape.watch(xs)
        y = f(*xs)
    return [None if g is None else g.numpy()
            for g in tape.gradient(y, xs)]


# ---- the conventions, one rule: d(x*y) = (y, x), marked ------------------------
def tf_style(x, y):
    return x * y, lambda dz: (MARK * dz * y, MARK * dz * x)


def keras_style(x, y):
    def grad(*args, upstream=None):
        if upstream is None:
            (upstream,) = args
        return MARK * upstream * y, MARK * upstream * x
    return x * y, grad


def torch_style(x, y):
    def grad(*args, upstream):
        a, b = args
        return MARK * upstream * b, MARK * upstream * a
    return x * y, grad


def named_style(x, y):
    def grad(x, y, upstream):  # R's function(x, y, upstream)
        return MARK * upstream * y, MARK * upstream * x
    return x * y, grad


def jax_list_style(x, y):
    return x * y, lambda g: [MARK * g * y, MARK * g * x]


def dict_style(x, y):
    return x * y, lambda g: {"y": MARK * g * x, "x": MARK * g * y}


@pytest.mark.parametrize("style", [tf_style, keras_style, torch_style,
                                   named_style, jax_list_style, dict_style],
                         ids=lambda f: f.__name__)
def test_each_convention_gives_the_custom_rule(backend, style):
    f = pycg.custom_gradient(style)
    gx, gy = grad_of(f, 2.0, 3.0)
    assert (gx, gy) == (MARK * 3.0, MARK * 2.0)


def test_the_same_grad_fn_gets_the_same_convention_every_call(backend):
    seen = []

    def grad_a(*args, upstream=None):
        seen.append(upstream is not None)
        return upstream if upstream is not None else args[0]

    @pycg.custom_gradient
    def f(x):
        return x * 1.0, grad_a

    grad_of(f, 1.0)
    grad_of(f, 2.0)
    assert seen == [True, True]


@pycg.custom_gradient
def _changes_style(x):
    # grad(dy) at x > 0, grad(*args, upstream=None) elsewhere: each grad
    # function is called in its own convention
    if float(x.numpy()) > 0:
        return x * 2.0, lambda dy: MARK * dy * 2.0

    def grad(*args, upstream=None):
        assert len(args) == 1 and upstream is not None
        return -MARK * upstream * 2.0
    return x * 2.0, grad


@pycg.custom_gradient
def _changes_style_two(x, y):
    if float(x.numpy()) > 0:
        return x * y, lambda dz: (MARK * dz * y, MARK * dz * x)

    def grad(x_, y_, upstream):
        return -MARK * upstream * y_, -MARK * upstream * x_
    return x * y, grad


@pytest.mark.parametrize("order", [(1.0, -1.0), (-1.0, 1.0)])
def test_convention_is_decided_per_grad_function(backend, order):
    for x in order + order:
        assert grad_of(_changes_style, x) == [np.sign(x) * MARK * 2.0]
        assert grad_of(_changes_style_two, x, 3.0) == [
            np.sign(x) * MARK * 3.0, np.sign(x) * MARK * x]


def test_kwargs_catch_all_is_not_taken_for_variables(backend):
    v = pycg.Variable(2.0, name="v")

    @pycg.custom_gradient
    def f(x):
        def grad(*args, **kwargs):  # an R closure as reticulate shows it
            assert "variables" not in kwargs
            return {"x": MARK * args[0] * v, v: MARK * args[0] * x}
        return x * v, grad

    x = pycg.constant(3.0)
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    gx, gv = tape.gradient(y, [x, v])
    assert (gx.numpy(), gv.numpy()) == (MARK * 2.0, MARK * 3.0)


# ---- structures ---------------------------------------------------------------
def test_nested_inputs_and_outputs_flat_gradients(backend):
    @pycg.custom_gradient
    def f(pair, scale):
        a, b = pair
        out = {"sum": (a + b) * scale, "prod": a * b}

        def grad(d_prod, d_sum):  # upstreams in the flattened output order
            return (MARK * (d_sum * scale + d_prod * b),
                    MARK * (d_sum * scale + d_prod * a),
                    MARK * d_sum * (a + b))
        return out, grad

    a, b, s = (pycg.constant(v) for v in (2.0, 3.0, 4.0))
    with pycg.GradientTape() as tape:
        tape.watch([a, b, s])
        out = f((a, b), s)
        y = out["sum"] + out["prod"]
    ga, gb, gs = tape.gradient(y, [a, b, s])
    assert (ga.numpy(), gb.numpy(), gs.numpy()) == (
        MARK * (4 + 3), MARK * (4 + 2), MARK * 5)


def test_gradients_returned_in_the_inputs_structure(backend):
    @pycg.custom_gradient
    def f(pair, scale):
        a, b = pair
        return (a + b) * scale, lambda g: ((MARK * g * scale,
                                            MARK * g * scale),
                                           MARK * g * (a + b))

    ga, gb, gs = grad_of(lambda a, b, s: f((a, b), s), 2.0, 3.0, 4.0)
    assert (ga, gb, gs) == (MARK * 4, MARK * 4, MARK * 5)


def test_unused_output_gets_zero_upstream(backend):
    got = []

    @pycg.custom_gradient
    def f(x):
        def grad(d1, d2):
            got.append((d1.numpy(), d2.numpy()))
            return MARK * (d1 * 2 + d2 * 3)
        return (x * 2, x * 3), grad

    (g,) = grad_of(lambda x: f(x)[0], 1.0)
    assert got == [(1.0, 0.0)]
    assert g == MARK * 2


def test_none_means_no_gradient(backend):
    @pycg.custom_gradient
    def f(x, y):
        return x * y, lambda g: (MARK * g * y, None)

    gx, gy = grad_of(f, 2.0, 3.0)
    assert gx == MARK * 3 and gy is None


def test_non_tensor_arguments_pass_through(backend):
    @pycg.custom_gradient
    def f(x, mode, power):
        assert mode == "double" and power == 2 and isinstance(power, int)
        return x ** power * 2, lambda g: (MARK * g * 4 * x, None, None)

    @pycg.custom_gradient
    def left_out(x, mode, power):
        return x ** power * 2, lambda g: MARK * g * 4 * x

    (g,) = grad_of(lambda x: f(x, "double", 2), 3.0)
    (h,) = grad_of(lambda x: left_out(x, "double", 2), 3.0)
    assert g == h == MARK * 12


def test_numbers_and_numpy_arrays_as_inputs(backend):
    @pycg.custom_gradient
    def f(x):
        return ops.sum(x * x), lambda g: MARK * 2 * g * x

    assert pycg.grad(f)(np.array([1.0, 2.0])).numpy().tolist() == [
        MARK * 2, MARK * 4]
    assert float(pycg.grad(f)(3.0)) == MARK * 6


def test_number_gradient_is_converted_to_the_input_dtype(backend):
    @pycg.custom_gradient
    def f(x):
        return x * 2.0, lambda g: 7

    g = pycg.grad(f)(np.float64(1.5))
    assert float(g) == 7 and g.dtype == np.float64


# ---- keyword arguments ----------------------------------------------------------
def test_call_entirely_with_keywords_keeps_the_rule(backend):
    f = pycg.custom_gradient(tf_style)
    gx, gy = grad_of(lambda a, b: f(y=b, x=a), 2.0, 3.0)
    assert (gx, gy) == (MARK * 3.0, MARK * 2.0)


def test_tensor_passed_by_keyword_is_an_input(backend):
    f = pycg.custom_gradient(named_style)
    gx, gy = grad_of(lambda a, b: f(a, y=b), 2.0, 3.0)
    assert (gx, gy) == (MARK * 3.0, MARK * 2.0)


def test_keyword_only_parameter_and_dict_gradients(backend):
    @pycg.custom_gradient
    def f(x, *, w):
        return x * w, lambda g: {"x": MARK * g * w, "w": MARK * g * x}

    gx, gw = grad_of(lambda a, b: f(a, w=b), 2.0, 3.0)
    assert (gx, gw) == (MARK * 3.0, MARK * 2.0)


def _scaled_square(n_gradients, convention):
    """f(x, scale=2.0) = x * x * scale whose grad_fn, in `convention`,
    returns n_gradients: (2 x scale, x * x) * upstream, or the first."""
    def rule(x, scale, up):
        both = (up * 2 * x * scale, up * x * x)
        return both[0] if n_gradients == 1 else both[:n_gradients] + (
            (up,) * (n_gradients - 2))

    def f(x, scale=2.0):
        if convention == "tensorflow":
            return x * x * scale, lambda dy: rule(x, scale, dy)
        if convention == "keras":
            return x * x * scale, lambda *args, upstream=None: rule(
                x, scale, upstream)
        return x * x * scale, lambda a, b, upstream: rule(a, b, upstream)
    return f


def _tf_gradients(call, *args):
    tf = pytest.importorskip("tensorflow")
    xs = [tf.constant(a) for a in args]
    with tf.GradientTape() as tape:
        tape.watch(xs)
        y = call(*xs)
    return [None if g is None else float(g) for g in tape.gradient(y, xs)]


@pytest.mark.parametrize("convention", ["tensorflow", "keras", "r"])
def test_keywords_are_constants_where_grad_fn_gives_the_positional_ones(
        backend, convention):
    # tf.custom_gradient passes keyword arguments to f but does not
    # differentiate them: for one gradient, d/dx = 2 x scale, scale gets None
    tf = pytest.importorskip("tensorflow")
    want = _tf_gradients(lambda x, s: tf.custom_gradient(
        _scaled_square(1, "tensorflow"))(x, scale=s), 3.5, 2.0)
    assert want == [14.0, None]
    f = pycg.custom_gradient(_scaled_square(1, convention))
    got = grad_of(lambda x, s: f(x, scale=s), 3.5, 2.0)
    assert [None if g is None else float(g) for g in got] == want
    assert float(pycg.grad(lambda x: f(x, scale=2.0))(3.5)) == 14.0


@pytest.mark.parametrize("convention", ["tensorflow", "keras", "r"])
def test_keywords_are_inputs_where_grad_fn_gives_one_each(backend,
                                                          convention):
    # (JAX's custom_vjp resolves keywords to positions: d/dscale = x * x)
    f = pycg.custom_gradient(_scaled_square(2, convention))
    gx, gs = grad_of(lambda x, s: f(x, scale=s), 3.5, 2.0)
    assert (float(gx), float(gs)) == (14.0, 12.25)


def test_another_count_of_gradients_names_both_readings(backend):
    f = pycg.custom_gradient(_scaled_square(3, "tensorflow"))
    with pytest.raises(ValueError, match=re.escape(
            "f: grad_fn returned 3 gradients, expected 2 (one per input: "
            "'x', 'scale'), or 1 (one per positional input: 'x'; the keyword "
            "arguments are then constants, as in TensorFlow)")):
        grad_of(lambda x, s: f(x, scale=s), 3.5, 2.0)


# ---- variables --------------------------------------------------------------------
def test_variables_gradient_through_variables_form(backend):
    w = pycg.Variable(np.array([1.0, 2.0]), name="w")

    @pycg.custom_gradient
    def f(x):
        def grad(dy, variables=None):
            assert variables == [w] or variables[0] is w
            return MARK * dy * ops.sum(w), [MARK * dy * x * ops.ones_like(w)]
        return x * ops.sum(w), grad

    x = pycg.constant(3.0)
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    gx, gw = tape.gradient(y, [x, w])
    assert gx.numpy() == MARK * 3 and gw.numpy().tolist() == [MARK * 3] * 2


def test_variables_passed_as_inputs_are_plain_inputs(backend):
    w = pycg.Variable(2.0)

    @pycg.custom_gradient
    def f(x, w):
        return x * w, lambda g: (MARK * g * w, MARK * g * x)

    x = pycg.constant(3.0)
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = f(x, w)
    assert [g.numpy() for g in tape.gradient(y, [x, w])] == [MARK * 2,
                                                              MARK * 3]


def test_custom_gradient_under_every_functional_entry_point(backend):
    f = pycg.custom_gradient(tf_style)
    assert float(pycg.grad(f)(2.0, 3.0)) == MARK * 3
    value, g = pycg.value_and_grad(f, argnums=1)(2.0, 3.0)
    assert (float(value), float(g)) == (6.0, MARK * 2)
    out, vjp_fn = pycg.vjp(f, 2.0, 3.0)
    assert [float(v) for v in vjp_fn(pycg.constant(1.0))] == [MARK * 3,
                                                             MARK * 2]
    jac = pycg.jacobian(lambda x: f(x, pycg.constant([1.0, 2.0])))(
        np.array([5.0, 6.0]))
    assert jac.numpy().tolist() == [[MARK * 1, 0], [0, MARK * 2]]
