"""Every error a user can cause with custom_gradient names their function
and says what was expected and what arrived; the tape stays usable."""
import re

import numpy as np
import pytest

import pycg
from pycg import ops


def run_grad(f, *args):
    xs = [pycg.constant(a) for a in args]
    with pycg.GradientTape() as tape:
        tape.watch(xs)
        y = f(*xs)
    return tape.gradient(y, xs)


def test_f_must_return_a_pair(backend):
    @pycg.custom_gradient
    def lonely(x):
        return x * 2

    with pytest.raises(TypeError, match=r"lonely: .* must return a pair "
                       r"\(output, grad_fn\), got a Tensor"):
        run_grad(lonely, 1.0)


def test_grad_fn_must_be_callable(backend):
    @pycg.custom_gradient
    def notfn(x):
        return x * 2, "gradient"

    with pytest.raises(TypeError, match=r"notfn: the second element .* "
                       r"callable; got str"):
        run_grad(notfn, 1.0)


def _forgets_return(dy):
    dy * 2.0


def _forgets_return_keras(*args, upstream=None):
    upstream * 2.0


@pytest.mark.parametrize("n_inputs", [1, 2])
@pytest.mark.parametrize("grad_fn", [_forgets_return, _forgets_return_keras])
def test_grad_fn_returning_none_raises_naming_it(backend, n_inputs, grad_fn):
    @pycg.custom_gradient
    def doubled(*xs):
        return ops.sum(ops.stack(xs)) * 2.0, grad_fn

    with pytest.raises(TypeError, match=(
            r"doubled: its gradient function '" + grad_fn.__name__ +
            r"' returned None; did you forget `return`\?")):
        run_grad(doubled, *[1.0] * n_inputs)


def test_grad_fn_returning_none_raises_on_the_one_tensor_path(backend):
    @pycg.custom_gradient
    def doubled(x):
        return x * 2.0, _forgets_return

    x = pycg.constant(1.0)
    for _ in range(2):   # (the second call takes the lean path)
        with pycg.GradientTape() as tape:
            tape.watch(x)
            y = doubled(x)
        with pytest.raises(TypeError, match=r"doubled: .*'_forgets_return' "
                           r"returned None; did you forget `return`"):
            tape.gradient(y, x)


def test_none_inside_a_tuple_still_means_no_gradient(backend):
    @pycg.custom_gradient
    def first_only(x, y):
        return x * y, lambda dz: (dz * y, None)

    gx, gy = run_grad(first_only, 2.0, 3.0)
    assert float(gx.numpy()) == 3.0 and gy is None


def test_wrong_number_of_gradients(backend):
    @pycg.custom_gradient
    def two_in(x, y):
        return x * y, lambda g: (g, g, g)

    with pytest.raises(ValueError, match=r"two_in: grad_fn returned 3 "
                       r"gradients, expected 2 \(one per input: 'x', 'y'\)"):
        run_grad(two_in, 1.0, 2.0)


def test_wrong_shape_names_parameter_and_both_shapes(backend):
    @pycg.custom_gradient
    def log1pexp(x):
        return ops.log(1 + ops.exp(x)), lambda g: ops.ones((3,))

    with pytest.raises(ValueError, match=r"log1pexp: gradient for 'x' has "
                       r"shape \(3,\) but 'x' has shape \(\)"):
        run_grad(log1pexp, 1.0)


def test_broadcastable_wrong_shape_is_still_an_error(backend):
    @pycg.custom_gradient
    def f(x):
        return x * 2, lambda g: ops.ones((1,))

    with pytest.raises(ValueError, match=r"f: gradient for 'x' has shape "
                       r"\(1,\) but 'x' has shape \(3,\)"):
        run_grad(f, np.ones(3))


def test_grad_fn_returning_a_string(backend):
    @pycg.custom_gradient
    def f(x):
        return x * 2, lambda g: "two"

    with pytest.raises(TypeError, match=r"f: gradient for 'x' is a str; "
                       r"expected a tensor, a number or None"):
        run_grad(f, 1.0)


def test_grad_fn_that_raises_is_chained_and_named(backend):
    @pycg.custom_gradient
    def fragile(x):
        def grad(g):
            raise KeyError("boom")
        return x * 2, grad

    with pytest.raises(KeyError, match=r"fragile: its gradient function "
                       r"raised KeyError") as info:
        run_grad(fragile, 1.0)
    assert isinstance(info.value.__cause__, KeyError)


def test_variables_form_with_wrong_structure(backend):
    v = pycg.Variable(2.0)

    @pycg.custom_gradient
    def f(x):
        def grad(dy, variables=None):
            return dy * v  # not (grad_inputs, grad_variables)
        return x * v, grad

    with pytest.raises(TypeError, match=r"f: grad_fn takes `variables`, so "
                       r"it must return a pair \(grad_inputs, "
                       r"grad_variables\)"):
        run_grad(f, 1.0)


def test_variables_form_with_wrong_count(backend):
    v = pycg.Variable(2.0)

    @pycg.custom_gradient
    def f(x):
        return x * v, lambda dy, variables=None: (dy * v, [dy, dy])

    with pytest.raises(ValueError, match=r"f: grad_fn returned 2 variable "
                       r"gradients for 1 variables"):
        run_grad(f, 1.0)


def test_unmentioned_variables_name_them_and_both_fixes(backend):
    v = pycg.Variable(2.0, name="scale")

    @pycg.custom_gradient
    def f(x):
        return x * v, lambda dy: dy * v

    with pytest.raises(ValueError, match=r"f: it reads trainable variable\(s"
                       r"\) scale .* `variables` parameter.* dict with an "
                       r"entry keyed by each Variable"):
        run_grad(f, 1.0)


def test_dict_with_an_unknown_parameter(backend):
    @pycg.custom_gradient
    def f(x):
        return x * 2, lambda g: {"z": g}

    with pytest.raises(ValueError, match=r"f: grad_fn returned a gradient "
                       r"for 'z', which is not a parameter; the parameters "
                       r"are 'x'"):
        run_grad(f, 1.0)


def test_dict_with_none_for_a_parameter_not_given(backend):
    @pycg.custom_gradient
    def f(x, bias=None):
        return x * 3, lambda g: {"x": g * 3, "bias": None}

    np.testing.assert_allclose(np.asarray(run_grad(f, 2.0)), 3.0)


def test_wrong_structure_for_a_nested_input(backend):
    @pycg.custom_gradient
    def f(pair):
        a, b = pair
        return a * b, lambda g: {"pair": [g]}

    with pytest.raises(ValueError, match=r"f: gradient for 'pair' must have "
                       r"the structure of 'pair'"):
        run_grad(lambda a, b: f([a, b]), 1.0, 2.0)


def test_forward_that_raises_midway_leaves_nothing_recorded(backend):
    @pycg.custom_gradient
    def broken(x):
        ops.exp(x)
        ops.sin(x)
        raise RuntimeError("forward failed")

    x = pycg.constant(1.0)
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = x * 3
        n = len(tape._rec.entries)
        with pytest.raises(RuntimeError, match="forward failed"):
            broken(x)
        assert len(tape._rec.entries) == n
        z = y * 2
    assert float(tape.gradient(z, x)) == 6.0


def test_tape_stays_usable_after_grad_fn_error(backend):
    @pycg.custom_gradient
    def fragile(x):
        def grad(g):
            raise ValueError("no")
        return x * 2, grad

    x = pycg.constant(1.0)
    with pycg.GradientTape(persistent=True) as tape:
        tape.watch(x)
        bad = fragile(x)
        good = x * 5
    with pytest.raises(ValueError):
        tape.gradient(bad, x)
    assert float(tape.gradient(good, x)) == 5.0


def test_not_a_function():
    with pytest.raises(TypeError, match="pycg.custom_gradient: expected a "
                       "function, got int"):
        pycg.custom_gradient(3)


@pytest.mark.parametrize("n_inputs", [1, 2])
def test_a_complex_gradient_for_a_real_input_raises_naming_the_rule(
        backend, n_inputs):
    @pycg.custom_gradient
    def twisted(*xs):
        def grad(g):
            twist = ops.cast(g, "complex64") * ops.cast(1j, "complex64")
            return twist if n_inputs == 1 else (g, twist)
        return ops.sum(ops.stack(xs)) * 2.0, grad

    label = "xs[0]" if n_inputs == 1 else "xs[1]"
    with pytest.raises(TypeError, match=(
            r"twisted: gradient for '" + re.escape(label) + r"' has complex "
            r"dtype complex64, but '" + re.escape(label) + r"' is real "
            r"\(float32\); return a real gradient")):
        run_grad(twisted, *[1.0] * n_inputs)
