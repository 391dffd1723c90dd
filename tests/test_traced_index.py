"""ops.take and x[i] with an index that has no value yet: traced by JAX
(jax.jit and jax.vmap of pycg.to_jax, pycg.function on the jax backend)
or a TensorFlow graph tensor (pycg.function on tensorflow). Values and
gradients against jnp.take and JAX's own indexing (the peer under a trace:
an index out of range fills, for take, or clamps, for x[i]), and against
NumPy for the TensorFlow graph."""
import numpy as np
import pytest

import pycg
from pycg import ops
from support import backend_switch

jax = pytest.importorskip("jax")
jnp = jax.numpy


jax_backend = backend_switch.fixture("jax")


X = np.random.default_rng(0).standard_normal((3, 4, 5)).astype("float32")
TAKES = [(axis, ind) for axis in (None, 1, -1)
         for ind in (-9, 7, [[1, 9], [-1, -4]])]
INDICES = {"i": lambda i: i, "(:, i)": lambda i: (slice(None), i),
           "(0, i, 1:3)": lambda i: (0, i, slice(1, 3)),
           "(..., i)": lambda i: (Ellipsis, i),
           "(None, i, None)": lambda i: (None, i, None)}


def _loss_grad(f, x, i):
    return jax.grad(lambda x: jnp.sum(jnp.nan_to_num(f(x, i)) * 1.5))(x)


@pytest.mark.parametrize("axis,ind", TAKES)
def test_take_under_jit_is_jnp_take(jax_backend, axis, ind):
    i = jnp.asarray(ind, "int32")
    f = jax.jit(pycg.to_jax(lambda x, i: ops.take(x, i, axis=axis)))
    want = jnp.take(X, i, axis=axis)
    got = f(jnp.asarray(X), i)
    assert got.shape == want.shape
    np.testing.assert_array_equal(got, want)   # (NaN where out of range)
    if axis == 1:   # (the gradient: one scatter-add, masked where filled)
        np.testing.assert_array_equal(
            _loss_grad(f, jnp.asarray(X), i), _loss_grad(
                lambda x, i: jnp.take(x, i, axis=axis), jnp.asarray(X), i))


@pytest.mark.parametrize("name", INDICES)
@pytest.mark.parametrize("ind", [-1, 7])
def test_getitem_under_jit_is_jax_indexing(jax_backend, name, ind):
    index, i = INDICES[name], jnp.asarray(ind, "int32")
    f = jax.jit(pycg.to_jax(lambda x, i: x[index(i)]))
    jf = jax.jit(lambda x, i: x[index(i)])
    np.testing.assert_array_equal(f(jnp.asarray(X), i), jf(jnp.asarray(X), i))
    if ind == 7:   # (the gradient of a clamped index)
        np.testing.assert_array_equal(_loss_grad(f, jnp.asarray(X), i),
                                      _loss_grad(jf, jnp.asarray(X), i))


def test_an_index_array_under_jit_and_vmap(jax_backend):
    i = jnp.asarray([[1, 2], [0, -1]], "int32")
    f = pycg.to_jax(lambda x, i: x[i])
    np.testing.assert_array_equal(jax.jit(f)(jnp.asarray(X), i),
                                  X[np.asarray(i)])
    batched = jax.vmap(f, in_axes=(None, 0))(jnp.asarray(X), jnp.array([0, 2]))
    np.testing.assert_array_equal(batched, X[[0, 2]])
    taken = jax.vmap(pycg.to_jax(lambda x, i: ops.take(x, i, axis=1)),
                     in_axes=(None, 0))(jnp.asarray(X), jnp.array([3, 1]))
    np.testing.assert_array_equal(taken, np.stack([X[:, 3], X[:, 1]]))


@pytest.mark.parametrize("dtype", ["int32", "uint8", "bool", "float32"])
def test_take_fills_out_of_range_as_jnp_take(jax_backend, dtype):
    x = jnp.asarray(np.arange(6).astype(dtype))
    i = jnp.asarray([1, 9])
    got = jax.jit(pycg.to_jax(lambda x, i: ops.take(x, i)))(x, i)
    np.testing.assert_array_equal(got, jnp.take(x, i))


@pytest.mark.filterwarnings("ignore:pycg.function")
def test_take_and_getitem_in_pycg_function_on_jax(jax_backend):
    x = pycg.constant(X)
    f = pycg.function(lambda x, i: ops.take(x, i, axis=2) + x[i][0, 0])
    got = f(x, pycg.constant(2))
    np.testing.assert_array_equal(got.numpy(), X[:, :, 2] + X[2][0, 0])
    g = pycg.function(pycg.grad(lambda x, i: ops.sum(x[i] ** 2)))
    np.testing.assert_array_equal(
        g(x, pycg.constant(1)).numpy(),
        np.where(np.arange(3)[:, None, None] == 1, 2 * X, 0))


@pytest.mark.filterwarnings("ignore:pycg.function")
def test_take_and_getitem_in_pycg_function_on_tensorflow(tf_backend):
    x = pycg.constant(X)
    got = pycg.function(lambda x, i: ops.take(x, i, axis=1))(
        x, pycg.constant([3, -1]))
    np.testing.assert_array_equal(got.numpy(), np.take(X, [3, -1], axis=1))
    got = pycg.function(lambda x, i: x[:, i])(x, pycg.constant(2))
    np.testing.assert_array_equal(got.numpy(), X[:, 2])


def test_a_traced_index_among_index_arrays_is_a_clear_error(jax_backend):
    f = pycg.to_jax(lambda x, i: x[np.array([0, 1]), i])
    with pytest.raises(TypeError, match=r"pycg.ops.getitem: with an index "
                       r"JAX or TensorFlow traces, index with one integer "
                       r"tensor alone, or integer scalar tensors"):
        jax.jit(f)(jnp.asarray(X), jnp.asarray(1))
