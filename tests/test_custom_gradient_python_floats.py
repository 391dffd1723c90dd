"""A Python float passed to a custom_gradient function beside tensors takes
their dtype (weak typing, as in JAX, PyTorch and Keras), in every calling
convention, on every backend and through pycg.to_torch, to_tensorflow and
to_jax; PyTorch's own autograd.Function of the same rule is the oracle."""
import numpy as np
import pytest

import pycg
from pycg import ops
from support import backend_switch

DTYPES = ("float16", "float32", "float64")


def _scale_rules():
    """`x * a` with its rule in each published convention."""
    @pycg.custom_gradient
    def tensorflow_style(x, a):
        return x * a, lambda upstream: (upstream * a, None)

    @pycg.custom_gradient
    def keras_style(x, a):
        def grad(*args, upstream=None):
            return upstream * args[1], None
        return x * a, grad

    @pycg.custom_gradient
    def jax_style(x, a):
        def grad(upstream):
            return (upstream * a, ops.zeros_like(a))
        return x * a, grad

    return tensorflow_style, keras_style, jax_style


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("rule", range(3), ids=["tensorflow", "keras", "jax"])
def test_a_python_float_takes_the_dtype_of_the_tensor_beside_it(
        backend, dtype, rule):
    f = _scale_rules()[rule]
    x = pycg.constant(np.ones(2), dtype=dtype)
    seen = []

    @pycg.custom_gradient
    def spy(x, a):
        seen.append(a.dtype)
        return x + 0.0, lambda upstream: (upstream, None)

    spy(x, 0.1)
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = f(x, 0.1)
    g = tape.gradient(y, x)
    assert seen == [np.dtype(dtype)]
    assert y.dtype == g.dtype == np.dtype(dtype)
    assert g.numpy().tolist() == [float(np.asarray(0.1, dtype))] * 2


def test_a_python_float_with_no_tensor_beside_it_is_floatx(backend):
    seen = []

    @pycg.custom_gradient
    def f(a, b):
        seen.append((a.dtype, b.dtype))
        return a * b, lambda upstream: (upstream * b, upstream * a)

    assert float(pycg.grad(f)(0.5, 3.0)) == 3.0
    assert seen == [(np.dtype(pycg.config.floatx()),) * 2]


def test_a_numpy_float_keeps_its_own_dtype(backend):
    seen = []

    @pycg.custom_gradient
    def f(x, a):
        seen.append(a.dtype)
        return x * a, lambda upstream: (upstream * a, None)

    f(pycg.constant([1.0], dtype="float32"), np.float64(0.1))
    assert seen == [np.dtype("float64")]


def test_to_tensorflow_gives_a_python_float_the_dtype_beside_it():
    tf = pytest.importorskip("tensorflow")
    with backend_switch.on("tensorflow"):
        x = tf.ones(2, dtype=tf.float64)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = pycg.to_tensorflow(_scale_rules()[0])(x, 0.1)
        assert tape.gradient(y, x).numpy().tolist() == [0.1, 0.1]


def test_to_jax_gives_a_python_float_the_dtype_beside_it():
    jax = pytest.importorskip("jax")
    with backend_switch.on("jax"):
        f = pycg.to_jax(_scale_rules()[0])
        g = jax.grad(lambda x: f(x, 0.1).sum())(jax.numpy.ones(2, "float64"))
        assert g.tolist() == [0.1, 0.1]


# ---- through pycg.to_torch, against torch.autograd.Function ----

@pycg.custom_gradient
def reverse_gradient(x, lam):
    return x + 0.0, lambda upstream: (-lam * upstream, None)


def _torch_oracles(torch):
    class ReverseGradient(torch.autograd.Function):
        @staticmethod
        def forward(x, lam):
            return x.clone()

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.lam = inputs[1]

        @staticmethod
        def backward(ctx, upstream):
            return -ctx.lam * upstream, None

    class Scale(torch.autograd.Function):
        @staticmethod
        def forward(x, a):
            return x * a

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.a = inputs[1]

        @staticmethod
        def backward(ctx, upstream):
            return upstream * ctx.a, None

    return ReverseGradient.apply, Scale.apply


def _grad(torch, f, dtype, *constants):
    x = torch.ones(2, dtype=getattr(torch, dtype), requires_grad=True)
    f(x, *constants).sum().backward()
    return x.grad


@pytest.mark.parametrize("dtype", DTYPES)
def test_to_torch_python_floats_match_the_autograd_function(dtype):
    torch = pytest.importorskip("torch")
    with backend_switch.on("torch"):
        oracle_reverse, oracle_scale = _torch_oracles(torch)
        pairs = [(pycg.to_torch(reverse_gradient), oracle_reverse, 0.3),
                 (pycg.to_torch(_scale_rules()[0]), oracle_scale, 0.1)]
        for f, oracle, number in pairs:
            got = _grad(torch, f, dtype, number)
            want = _grad(torch, oracle, dtype, number)
            assert got.dtype == want.dtype
            assert got.tolist() == want.tolist()


def test_gradient_reversal_in_float64_is_exactly_minus_lam():
    torch = pytest.importorskip("torch")
    with backend_switch.on("torch"):
        g = _grad(torch, pycg.to_torch(reverse_gradient), "float64", 0.3)
        assert g.tolist() == [-0.3, -0.3]


def test_the_widest_float_beside_it_decides_and_integers_do_not():
    from pycg.tensor.convert import python_float_dtype
    assert python_float_dtype(["float16", "float64", None]) == "float64"
    assert python_float_dtype(["int64", None]) == pycg.config.floatx()
    bfloat16 = pytest.importorskip("ml_dtypes").bfloat16
    assert python_float_dtype(["float16", bfloat16]) == "float32"
