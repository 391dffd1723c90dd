"""Ported from Keras: keras-team/keras, keras/src/ops/core_test.py (classes
CoreOpsCorrectnessTest, CoreOpsDtypeTest, CoreOpsBehaviorTests), read from
the installed Keras 3 source. The oracle is what the Keras tests assert,
and for dtypes keras.ops itself on the TensorFlow backend. Control-flow and
scatter ops (scan, associative_scan, fori_loop, while_loop, map, switch,
cond, vectorized_map, scatter, scatter_update, slice_update, unstack,
saturate_cast) have no pycg counterpart and are not ported."""
import numpy as np
import pytest

import pycg
from pycg import ops

keras = pytest.importorskip("keras")
ORIGIN = "keras-team/keras keras/src/ops/core_test.py"

# CoreOpsDtypeTest.ALL_DTYPES without bfloat16 (the numpy backend has none),
# string, complex, 64-bit and float8 dtypes, as Keras removes them
DTYPES = ["float16", "float32", "uint8", "uint16", "uint32", "int8", "int16",
          "int32", "bool"]


def close(a, b, tol=1e-6):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=tol,
                               atol=tol)


def test_cast(backend):
    """CoreOpsCorrectnessTest.test_cast"""
    y = ops.cast(ops.ones((2,), dtype="float32"), "float16")
    assert y.dtype == np.float16


def test_convert_to_tensor(backend):
    """CoreOpsCorrectnessTest.test_convert_to_tensor"""
    x = ops.convert_to_numpy(ops.convert_to_tensor(np.ones((2,))))
    close(x, (1, 1))
    assert isinstance(x, np.ndarray)
    x = ops.convert_to_tensor([])
    assert isinstance(x, pycg.Tensor) and x.shape == (0,)
    assert isinstance(ops.convert_to_numpy(x), np.ndarray)
    close(ops.convert_to_tensor((1, ops.convert_to_tensor(2), 3)), (1, 2, 3))


def test_convert_to_tensor_sparse_is_refused(backend):
    """CoreOpsCorrectnessTest.test_convert_to_tensor_sparse: pycg has no
    sparse tensors, so sparse=True is refused (issue 13 item 6)"""
    with pytest.raises(ValueError, match="dense tensors only"):
        ops.convert_to_tensor(np.ones((2, 3)), sparse=True)
    close(ops.convert_to_tensor(np.ones((2, 3)), sparse=False), np.ones((2, 3)))


def test_convert_to_tensor_ragged_is_refused(backend):
    """CoreOpsCorrectnessTest.test_convert_to_tensor_ragged"""
    with pytest.raises(ValueError, match="dense tensors only"):
        ops.convert_to_tensor([[3.0, 1.0], [5.0, 9.0]], ragged=True)


@pytest.mark.filterwarnings("ignore:overflow encountered")
@pytest.mark.parametrize("use_variable", [False, True])
def test_custom_gradient(backend, use_variable):
    """CoreOpsCorrectnessTest.test_custom_gradient"""
    @ops.custom_gradient
    def log1pexp(x):
        e = ops.exp(x)

        def grad(*args, upstream=None):
            if upstream is None:
                (upstream,) = args
            return ops.multiply(upstream, 1.0 - 1.0 / ops.add(1, e))
        return ops.log(1 + e), grad

    x = ops.convert_to_tensor(100.0)
    if use_variable:
        v = pycg.Variable(5.0, trainable=False)
        to_derive = lambda inputs: log1pexp(v) + inputs  # noqa: E731
    else:
        to_derive = log1pexp
    with pycg.GradientTape() as tape1:
        tape1.watch(x)
        y = to_derive(x)
    assert float(tape1.gradient(y, x)) == 1.0


def test_custom_gradient_naive_form_is_nan(backend):
    """CoreOpsCorrectnessTest.test_custom_gradient (the log1pexp_nan half:
    without the custom rule, the gradient at 100 overflows)"""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        g = pycg.grad(lambda x: ops.log(1 + ops.exp(x)))(
            ops.convert_to_tensor(100.0))
    assert np.isnan(g.numpy())


_T = np.arange(24).reshape(2, 3, 4)
INDICES = [
    1, (1, 2, 3), slice(1, 2), (slice(1, 2), slice(2, 3), slice(3, 4)),
    (slice(1, 2), None), (slice(1, 2), slice(2, 3), Ellipsis),
    (slice(1, 2), Ellipsis, slice(3, 4)),
    (None, Ellipsis, slice(3, 4), None), slice(1, 2, None),
    (slice(None), 2), None, (None, None), Ellipsis, (Ellipsis, 1),
    (Ellipsis, 1, 2), (Ellipsis, -1, 2), (Ellipsis, slice(-1, -2), 2),
    (Ellipsis, None, None), (None, Ellipsis, None),
    (1, 2, None, Ellipsis, None), (None, Ellipsis, 1, 2), (1, None, 2),
    -1, (1, -1, -2), slice(None, None, 2), (1, slice(None), slice(1, 4)),
    (slice(None), slice(1, 2), 3),
]


@pytest.mark.parametrize("index", INDICES, ids=[repr(i) for i in INDICES])
def test_getitem(backend, index):
    """CoreOpsCorrectnessTest.test_getitem"""
    t = ops.convert_to_tensor(_T)[index]
    n = _T[index]
    assert t.shape == n.shape
    close(t, n)


@pytest.mark.parametrize("index", [
    lambda i: i, lambda i: (i, 2, None)], ids=["t", "t,2,None"])
def test_getitem_with_an_index_tensor(backend, index):
    """CoreOpsCorrectnessTest.test_getitem (index tensors)"""
    i = ops.convert_to_tensor(np.array(1, dtype=np.int32))
    t = ops.convert_to_tensor(_T)[index(i)]
    n = _T[index(1)]
    assert t.shape == n.shape
    close(t, n)


def test_getitem_negative_index_tensors(backend):
    """CoreOpsCorrectnessTest.test_getitem (negative index tensors)"""
    t = ops.convert_to_tensor(_T)
    m2 = ops.convert_to_tensor(np.array(-2, dtype=np.int32))
    m1 = ops.convert_to_tensor(np.array(-1, dtype=np.int32))
    close(t[m2, 1], _T[-2, 1])
    close(t[-2, m1], _T[-2, -1])


def test_getitem_gradient_scatters_back(backend):
    """(the gradient of CoreOpsCorrectnessTest.test_getitem's slices)"""
    x = pycg.constant(_T.astype(np.float64))
    g = pycg.grad(lambda x: ops.sum(x[1, :, 1:4] * 2.0))(x)
    expected = np.zeros_like(_T, dtype=np.float64)
    expected[1, :, 1:4] = 2.0
    close(g, expected)


def test_shape(backend):
    """CoreOpsCorrectnessTest.test_shape"""
    s = ops.shape(ops.ones((2, 3, 7, 1)))
    assert s.__class__ is tuple and s == (2, 3, 7, 1)


def test_slice(backend):
    """CoreOpsCorrectnessTest.test_slice"""
    close(ops.slice(np.arange(10), np.array([1]), np.array([4])),
          [1, 2, 3, 4])
    inputs = np.broadcast_to(np.arange(10), (4, 10))
    close(ops.slice(inputs, np.array([1, 1]), np.array([2, 4])),
          [[1, 2, 3, 4], [1, 2, 3, 4]])
    inputs = np.broadcast_to(np.arange(10), (4, 4, 4, 10))
    out = ops.slice(inputs, np.array([1, 1, 1, 1]), np.array([1, 2, 3, 4]))
    close(out, np.broadcast_to(np.arange(1, 5), (1, 2, 3, 4)))
    inputs = np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
    close(ops.slice(inputs, np.array([1, 1]), (2, 2)), [[5, 6], [8, 9]])


def test_stop_gradient_no_fit(backend):
    """CoreOpsCorrectnessTest.test_stop_gradient_no_fit (and the training
    half of test_stop_gradient: a stopped weight gets no gradient)"""
    x = np.random.default_rng(0).uniform(size=(2, 4)).astype("float32")
    close(ops.stop_gradient(x), x)
    w, b = pycg.Variable([0.0]), pycg.Variable([0.0])
    with pycg.GradientTape() as t:
        y = ops.add(ops.multiply(ops.ones((2, 4)), ops.stop_gradient(w)), b)
        loss = ops.mean((y - 1.0) ** 2)
    gw, gb = t.gradient(loss, [w, b])
    assert gw is None
    assert float(gb[0]) != 0.0


@pytest.mark.parametrize("dtype", DTYPES)
def test_dtype_cast(backend, dtype):
    """CoreOpsDtypeTest.test_cast"""
    assert ops.cast(np.ones((1,)), dtype).dtype == np.dtype(dtype)


CONVERT = [
    ((), None, "float32"), ([], None, "float32"), (bool(0), None, "bool"),
    (int(0), None, "int32"), (float(0), None, "float32"),
    (1, "bool", "bool"), (1.0, "int32", "int32"),
    (1.0, "float32", "float32"), ([False, True, False], None, "bool"),
    ([1, 2, 3], None, "int32"), ([1.0, 2.0, 3.0], None, "float32"),
    ([1, 2.0, 3], None, "float32"), ([[False], [True], [False]], None,
                                     "bool"),
    ([[1], [2], [3]], None, "int32"), ([[1], [2.0], [3]], None, "float32"),
    *[(np.array(0, dtype=d), None, d) for d in DTYPES],
    *[([[1, 0, 1], [1, 1, 0]], d, d) for d in DTYPES],
]


@pytest.mark.parametrize("x,dtype,expected", CONVERT,
                         ids=[f"{x!r}-{d}" for x, d, _ in CONVERT])
def test_dtype_convert_to_tensor(backend, x, dtype, expected):
    """CoreOpsDtypeTest.test_convert_to_tensor (expected as Keras: floatx
    is float32)"""
    got = ops.convert_to_tensor(x, dtype=dtype)
    assert got.dtype == np.dtype(expected)
    k = keras.ops.convert_to_tensor(x, dtype=dtype)
    assert np.asarray(k).dtype == np.dtype(expected)


@pytest.mark.parametrize("dtype", DTYPES)
def test_dtype_convert_to_tensor_with_tensor(backend, dtype):
    """CoreOpsDtypeTest.test_convert_to_tensor_with_tensor"""
    x = ops.convert_to_tensor(np.ones((2, 3), dtype="float32"))
    assert ops.convert_to_tensor(x, dtype=dtype).dtype == np.dtype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_dtype_convert_to_tensor_with_variable(backend, dtype):
    """CoreOpsDtypeTest.test_convert_to_tensor_with_variable"""
    x = pycg.Variable(np.ones((2, 3), dtype="float32"))
    assert ops.convert_to_tensor(x, dtype=dtype).dtype == np.dtype(dtype)


def test_convert_to_numpy(backend):
    """CoreOpsBehaviorTests.test_convert_to_numpy"""
    y = ops.convert_to_numpy(ops.convert_to_tensor([1, 2, 3], "float32"))
    assert isinstance(y, np.ndarray)
    y[0] = 1.0     # writable


def test_convert_to_tensor_python_float_with_dtype(backend):
    """CoreOpsBehaviorTests.test_convert_to_tensor_python_float_with_dtype"""
    assert ops.convert_to_tensor(1.5, dtype="float32").dtype == np.float32
    assert ops.convert_to_tensor(1.5, dtype="float16").dtype == np.float16


def test_convert_to_tensor_python_int_with_dtype(backend):
    """CoreOpsBehaviorTests.test_convert_to_tensor_python_int_with_dtype"""
    assert ops.convert_to_tensor(7, dtype="int16").dtype == np.int16
    assert ops.convert_to_tensor(7, dtype="float32").dtype == np.float32


def test_convert_to_tensor_python_bool_with_dtype(backend):
    """CoreOpsBehaviorTests.test_convert_to_tensor_python_bool_with_dtype"""
    assert ops.convert_to_tensor(True, dtype="float32").dtype == np.float32
    assert ops.convert_to_tensor(True).dtype == np.bool_


def test_stop_gradient_value_and_gradient(backend):
    """CoreOpsBehaviorTests.test_stop_gradient_compute_output_spec (the
    eager value keeps shape and dtype) and the gradient is None"""
    x = pycg.constant(np.ones((2, 3), np.float32))
    with pycg.GradientTape() as t:
        t.watch(x)
        y = ops.stop_gradient(x)
    assert y.shape == (2, 3) and y.dtype == np.float32
    assert t.gradient(y, x) is None
