"""Every example of the five reference documents, written against pycg and
run on both backends. Oracles are closed forms."""
import numpy as np
import pytest

import pycg
from pycg import ops


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


# ---- tf.custom_gradient (r2.4 and v1 texts) ---------------------------------
def test_tf_log1pexp_naive_gradient_is_nan_at_100(backend):
    def log1pexp(x):
        return ops.log(1 + ops.exp(x))
    x = pycg.constant(100.0)
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = log1pexp(x)
    with np.errstate(all="ignore"):
        assert np.isnan(tape.gradient(y, x).numpy())


def test_tf_log1pexp_custom_gradient_is_one_at_100(backend):
    @pycg.custom_gradient
    def log1pexp(x):
        e = ops.exp(x)

        def grad(dy):
            return dy * (1 - 1 / (1 + e))
        return ops.log(1 + e), grad

    x = pycg.constant(100.0)
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = log1pexp(x)
    assert tape.gradient(y, x).numpy() == 1.0


def test_tf_bar_two_inputs_persistent_tape(backend):
    @pycg.custom_gradient
    def bar(x, y):
        def grad(upstream):
            dz_dx = y
            dz_dy = x
            return upstream * dz_dx, upstream * dz_dy
        z = x * y
        return z, grad

    x = pycg.constant(2.0, dtype="float32")
    y = pycg.constant(3.0, dtype="float32")
    with pycg.GradientTape(persistent=True) as tape:
        tape.watch(x)
        tape.watch(y)
        z = bar(x, y)
    assert z.numpy() == 6.0
    assert tape.gradient(z, x).numpy() == 3.0
    assert tape.gradient(z, y).numpy() == 2.0


def test_tf_variables_form(backend):
    v = pycg.Variable(3.0, name="v")

    @pycg.custom_gradient
    def scale(x):
        def grad(dy, variables=None):
            return dy * v, [dy * x]
        return x * v, grad

    x = pycg.constant(2.0)
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = scale(x)
    gx, gv = tape.gradient(y, [x, v])
    assert (gx.numpy(), gv.numpy()) == (3.0, 2.0)


# ---- keras.ops.custom_gradient (Keras 3, three examples) ----------------------
def _keras_check(log1pexp):
    x = pycg.constant(100.0)
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = log1pexp(x)
    assert tape.gradient(y, x).numpy() == 1.0
    assert pycg.grad(log1pexp)(0.5).numpy() == pytest.approx(sigmoid(0.5))


def test_keras_backend_agnostic_example(backend):
    @ops.custom_gradient
    def log1pexp(x):
        e = ops.exp(x)

        def grad(*args, upstream=None):
            if upstream is None:
                (upstream,) = args
            return ops.multiply(upstream, 1.0 - 1.0 / ops.add(1, e))
        return ops.log(1 + e), grad
    _keras_check(log1pexp)


def test_keras_jax_and_tensorflow_example(backend):
    @ops.custom_gradient
    def log1pexp(x):
        e = ops.exp(x)

        def grad(upstream):
            return ops.multiply(upstream, 1.0 - 1.0 / ops.add(1, e))
        return ops.log(1 + e), grad
    _keras_check(log1pexp)


def test_keras_pytorch_example(backend):
    @ops.custom_gradient
    def log1pexp(x):
        e = ops.exp(x)

        def grad(*args, upstream):
            return ops.multiply(upstream, 1.0 - 1.0 / ops.add(1, e))
        return ops.log(1 + e), grad
    _keras_check(log1pexp)


# ---- jax.custom_gradient (two examples) ---------------------------------------
def test_jax_square_with_custom_vjp(backend):
    @pycg.custom_gradient
    def f(x):
        return x ** 2, lambda g: (g * x,)

    assert f(3.0).numpy() == 9.0
    assert pycg.grad(f)(3.0).numpy() == 3.0


def test_jax_two_arguments_argnums(backend):
    @pycg.custom_gradient
    def f(x, y):
        return x * y, lambda g: (g * y, g * x)

    assert f(3.0, 4.0).numpy() == 12.0
    gx, gy = pycg.grad(f, argnums=(0, 1))(3.0, 4.0)
    assert (gx.numpy(), gy.numpy()) == (4.0, 3.0)


# ---- keras3 R op_custom_gradient, its Python twin ------------------------------
def test_keras3_r_example_portable_grad(backend):
    # function(..., upstream = NULL) { upstream <- upstream %||% ..1; ... }
    @ops.custom_gradient
    def log1pexp(x):
        e = ops.exp(x)

        def grad(*args, upstream=None):
            upstream = upstream if upstream is not None else args[0]
            return ops.multiply(upstream, 1.0 - 1.0 / ops.add(1, e))
        return ops.log(1 + e), grad

    x = ops.convert_to_tensor(100.0)
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = log1pexp(x)
    assert float(tape.gradient(y, x)) == 1


# ---- TensorFlow's nesting semantics --------------------------------------------
def test_tf_nested_grad_fn_defines_gradient_wrt_upstream(backend):
    """grad_grad_fn is the gradient of grad_fn with respect to dy, not the
    second derivative of op; forward mode is J t for the J grad_fn's
    values define (cos x), as TensorFlow's ForwardAccumulator gives
    (issue 46), not grad_grad_fn's declared 7 cos x."""
    @pycg.custom_gradient
    def op(x):
        y = ops.sin(x)

        @pycg.custom_gradient
        def grad_fn(dy):
            gdy = dy * ops.cos(x)

            def grad_grad_fn(ddy):  # d(gdy)/d(dy) = cos(x), scaled by 7
                return 7.0 * ddy * ops.cos(x)
            return gdy, grad_grad_fn
        return y, grad_fn

    x = 0.4
    assert float(pycg.grad(op)(x)) == pytest.approx(np.cos(x))
    # forward mode transposes grad_fn's values, not grad_grad_fn
    _, tangent = pycg.jvp(op, (x,), (1.0,))
    assert float(tangent) == pytest.approx(np.cos(x), rel=1e-6)


def test_tf_op_with_fused_backprop(backend):
    """The documented pattern: a second-order rule attached to the first
    order gradient through an inner custom_gradient on x."""
    calls = []

    def fused_op(x):
        return x ** 3, 3 * x ** 2

    @pycg.custom_gradient
    def op_with_fused_backprop(x):
        y, x_grad = fused_op(x)

        def first_order_gradient(dy):
            @pycg.custom_gradient
            def first_order_custom(unused_x):
                def second_order_and_transpose(ddy):
                    calls.append(1)
                    return ddy * 6 * x  # d(3x^2)/dx
                return x_grad, second_order_and_transpose
            return dy * first_order_custom(x)
        return y, first_order_gradient

    x = pycg.constant(1.5)
    with pycg.GradientTape() as outer:
        outer.watch(x)
        with pycg.GradientTape() as inner:
            inner.watch(x)
            y = op_with_fused_backprop(x)
        g = inner.gradient(y, x)
    h = outer.gradient(g, x)
    assert float(g) == pytest.approx(3 * 1.5 ** 2)
    assert float(h) == pytest.approx(6 * 1.5)
    assert calls, "the second-order rule was not used"
