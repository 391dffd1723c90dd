"""pycg.to_jax: a pycg rule as a JAX function (jax.custom_vjp over pycg's
tape), checked under jax.grad (first and second order), jax.jit, jax.vmap
and jax.value_and_grad, on pytrees, against closed forms and JAX's own
derivative of the same maths; and its errors."""
import numpy as np
import pytest

import pycg
from pycg import ops
from support import backend_switch
from support.log1pexp_case import log1pexp, triple_gradient

jax = pytest.importorskip("jax")
jnp = jax.numpy


jax_backend = backend_switch.fixture("jax", autouse=True)


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def test_the_rule_is_the_gradient_jax_uses():
    f = pycg.to_jax(lambda x: ops.sum(triple_gradient(x) ** 2))
    x = jnp.array([1.0, -2.0, 0.5])
    np.testing.assert_allclose(jax.grad(f)(x), 3 * 2 * np.asarray(x),
                               rtol=1e-6)


def test_a_stable_rule_where_jax_own_derivative_overflows():
    f = pycg.to_jax(log1pexp)
    assert float(jax.grad(f)(1000.0)) == 1.0
    assert np.isnan(float(jax.grad(lambda x: jnp.log(1 + jnp.exp(x)))(1000.0)))


@pytest.mark.parametrize("x", [-1.5, 0.5, 3.0])
def test_second_order_follows_the_rule_own_derivative(x):
    f = pycg.to_jax(log1pexp)
    s = sigmoid(np.float32(x))
    np.testing.assert_allclose(jax.grad(jax.grad(f))(x), s * (1 - s),
                               rtol=1e-5)


def test_first_and_second_order_match_jax_on_plain_ops():
    def pycg_f(w, x):
        return ops.sum(ops.tanh(ops.matmul(x, w)) ** 2)

    def jax_f(w, x):
        return jnp.sum(jnp.tanh(x @ w) ** 2)
    rng = np.random.default_rng(0)
    w = jnp.asarray(rng.standard_normal((3, 2)), "float32")
    x = jnp.asarray(rng.standard_normal((4, 3)), "float32")
    f = pycg.to_jax(pycg_f)
    np.testing.assert_allclose(jax.grad(f)(w, x), jax.grad(jax_f)(w, x),
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(jax.grad(f, 1)(w, x), jax.grad(jax_f, 1)(w, x),
                               rtol=1e-5, atol=1e-6)
    for hessian in (jax.jacrev(jax.jacrev(f)), jax.hessian(f)):
        np.testing.assert_allclose(hessian(w, x), jax.hessian(jax_f)(w, x),
                                   rtol=1e-4, atol=1e-5)


def test_under_jit_vmap_and_value_and_grad():
    f = pycg.to_jax(lambda x: ops.sum(triple_gradient(x) * ops.sin(x)))
    xs = jnp.array([[0.3, 1.0], [2.0, -0.5]])
    expected = 3 * np.sin(xs) + np.asarray(xs) * np.cos(xs)
    np.testing.assert_allclose(jax.jit(jax.grad(f))(xs[0]), expected[0],
                               rtol=1e-6)
    np.testing.assert_allclose(jax.vmap(jax.grad(f))(xs), expected,
                               rtol=1e-6)
    value, grad = jax.value_and_grad(f)(xs[1])
    np.testing.assert_allclose(value, np.sum(np.asarray(xs[1]) *
                                             np.sin(xs[1])), rtol=1e-6)
    np.testing.assert_allclose(grad, expected[1], rtol=1e-6)
    np.testing.assert_allclose(jax.jit(f)(xs[0]), np.sum(
        np.asarray(xs[0]) * np.sin(xs[0])), rtol=1e-6)


def test_pytrees_in_and_out_and_values_that_pass_through():
    def model(params, x, power):
        return {"loss": ops.sum((params["w"] * x + params["b"]) ** power),
                "parts": [params["w"] * 2]}
    f = pycg.to_jax(model)
    params = {"w": jnp.array([1.0, 2.0]), "b": jnp.array(0.5)}
    x = jnp.array([3.0, -1.0])
    out = f(params, x, 2)
    assert isinstance(out["loss"], jax.Array) and \
        isinstance(out["parts"][0], jax.Array)
    np.testing.assert_allclose(out["loss"], 3.5 ** 2 + 1.5 ** 2)
    g = jax.grad(lambda p: f(p, x, 2)["loss"])(params)
    r = np.asarray(params["w"]) * np.asarray(x) + 0.5
    np.testing.assert_allclose(g["w"], 2 * r * np.asarray(x))
    np.testing.assert_allclose(g["b"], np.sum(2 * r))


def test_integer_inputs_get_no_gradient_and_numpy_inputs_work():
    f = pycg.to_jax(lambda x, n: ops.sum(x * ops.cast(n, "float32")))
    n = jnp.array([2, 3], "int32")
    np.testing.assert_allclose(jax.grad(f)(jnp.array([1.0, 1.0]), n),
                               [2.0, 3.0])
    np.testing.assert_allclose(f(np.array([1.0, 2.0], "float32"), n), 8.0)


def test_converting_twice_gives_the_same_function():
    f = pycg.to_jax(log1pexp)
    assert pycg.to_jax(f) is f


# ---- errors -----------------------------------------------------------------
def test_not_callable_is_an_error():
    with pytest.raises(TypeError, match=r"pycg.to_jax: expected a function "
                       r"written with pycg .*, got int"):
        pycg.to_jax(3)


def test_a_jax_function_is_refused_by_name():
    @jax.jit
    def already(x):
        return x * 2
    with pytest.raises(TypeError, match=r"pycg.to_jax\(already\): already "
                       r"is a JAX callable .*call it directly"):
        pycg.to_jax(already)


def test_a_tensorflow_function_is_refused_by_name():
    tf = pytest.importorskip("tensorflow")

    @tf.function
    def tf_fn(x):
        return x * 2
    with pytest.raises(TypeError, match=r"pycg.to_jax\(tf_fn\): tf_fn is a "
                       r"TensorFlow/Keras callable"):
        pycg.to_jax(tf_fn)


def test_outputs_that_are_not_tensors_are_errors():
    with pytest.raises(TypeError, match=r"pycg.to_jax\(<lambda>\): <lambda> "
                       r"must return a pycg tensor .*, got str"):
        pycg.to_jax(lambda x: "no")(jnp.array(1.0))
    with pytest.raises(TypeError, match=r"returned a JAX array; it must "
                       r"compute with pycg.ops"):
        pycg.to_jax(lambda x: jnp.sin(x._value))(jnp.array(1.0))
    with pytest.raises(TypeError, match=r"returned a function beside its "
                       r"output, like an undecorated rule"):
        pycg.to_jax(lambda x: (x, lambda dy: dy))(jnp.array(1.0))


def re_escape(text):
    import re
    return re.escape(text)


def test_numbers_inside_one_jit_are_not_reused_by_the_next():
    # (the jax backend caches Python numbers as scalars, but never one made
    # inside jax.jit, a tracer of that trace: test_to_keras.py's model.fit
    # failed on it, "Execution supplied 7 arguments but compiled program
    # expected 10")
    f = pycg.to_jax(lambda x: ops.sum(x * 2.5 + 1.25))
    for n in (2, 3):
        x = jnp.ones((n,), "float32")
        np.testing.assert_allclose(jax.jit(f)(x), n * 3.75)
        np.testing.assert_allclose(jax.jit(jax.grad(f))(x), [2.5] * n)
    np.testing.assert_allclose(f(jnp.ones((2,), "float32")), 7.5)


def test_the_readme_jax_walkthrough_runs():
    import os
    import re
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, "README.md")) as f:
        readme = f.read()
    section = readme.split("## Rules that travel: JAX", 1)[1]
    blocks = re.findall(r"```python\n(.*?)```", section.split("\n## ")[0],
                        re.S)
    assert blocks
    namespace = {}
    for code in blocks:
        exec(compile(code, "README.md", "exec"), namespace)
    x = np.array([0.25, 3.0, -2.0], np.float32)   # d sum(x^2) = 2x, clipped
    np.testing.assert_allclose(
        jax.jit(jax.grad(namespace["f"]))(jnp.asarray(x)),
        np.clip(2 * x, -1, 1))


def test_a_python_float_cotangent_is_converted_as_jax_does():
    got = jax.vjp(pycg.to_jax(ops.sin), 1.0)[1](1.0)
    want = jax.vjp(jnp.sin, 1.0)[1](1.0)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-6)


def test_a_forward_returning_a_numpy_constant_is_an_output():
    @pycg.custom_gradient
    def constant(x):
        return np.float32(3.0), lambda dy: dy * 5

    @jax.custom_vjp
    def jax_constant(x):
        return np.float32(3.0)
    jax_constant.defvjp(lambda x: (np.float32(3.0), None),
                        lambda _, g: (g * 5,))
    f = pycg.to_jax(constant)
    assert float(f(1.0)) == float(jax_constant(1.0)) == 3.0
    assert float(jax.grad(f)(1.0)) == float(jax.grad(jax_constant)(1.0))
    plain = pycg.to_jax(lambda x: (x * 2, np.arange(3.0)))
    y, c = plain(1.0)
    np.testing.assert_array_equal(c, np.arange(3.0))
    assert float(jax.grad(lambda x: plain(x)[0] + plain(x)[1].sum())(1.0)) \
        == 2.0


@pytest.mark.parametrize("make", [jnp.asarray, np.asarray])
def test_a_jax_array_reaching_a_rule_is_a_tensor_as_a_numpy_array(make):
    @pycg.custom_gradient
    def double(x):
        return x * 2.0, lambda dy: dy * 3
    x = make(np.float32(1.5))
    assert isinstance(double(x), pycg.Tensor) and float(double(x)) == 3.0
    with pycg.GradientTape():   # (recording: the call is bound)
        y = double(x)
    assert isinstance(y, pycg.Tensor) and float(y) == 3.0
    assert float(pycg.grad(double)(x)) == 3.0
