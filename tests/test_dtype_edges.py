"""Integer, unsigned and bool tensors next to Python numbers, and dtypes
asked for by name: what keras.ops gives (Keras on its TensorFlow backend is
the oracle), or, where Keras passes TensorFlow's or NumPy's own error
through, a pycg error that names the op and says what to do."""
import numpy as np
import pytest

import pycg
from pycg import ops

keras = pytest.importorskip("keras")

INTS = ["int8", "uint8", "int16", "int32", "int64", "uint32"]


def _same_as_keras(got, want):
    want_dtype = keras.backend.standardize_dtype(want.dtype)
    assert got.dtype.name == want_dtype
    want = keras.ops.convert_to_numpy(want)
    if got.dtype.kind == "f":   # (another libm: the last ulp may differ)
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)
    else:
        np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("op", ["add", "multiply", "maximum", "minimum"])
@pytest.mark.parametrize("number", [3, -2, 0])
def test_a_bool_tensor_and_a_python_int_are_int32(backend, op, number):
    a = np.array([True, False, True])
    for args, kargs in [((pycg.constant(a), number),
                         (keras.ops.convert_to_tensor(a), number)),
                        ((number, pycg.constant(a)),
                         (number, keras.ops.convert_to_tensor(a)))]:
        _same_as_keras(getattr(ops, op)(*args), getattr(keras.ops, op)(*kargs))


def test_a_bool_tensor_and_an_int_through_operators(backend):
    mask = pycg.constant(np.array([True, False]))
    assert (mask + 3).dtype == np.int32
    np.testing.assert_array_equal((mask + 3).numpy(), [4, 3])
    np.testing.assert_array_equal((2 * mask).numpy(), [2, 0])


# (a negative int next to an unsigned tensor: see the overflow test below)
@pytest.mark.parametrize("dtype, other", [
    (d, o) for d in INTS + ["bool"] for o in ["tensor", 3, -2, True]
    if not (d.startswith("uint") and o == -2)])
def test_dividing_integers_gives_floatx_as_keras(backend, dtype, other):
    a = np.array([1, 2, 3]).astype(dtype)
    b = np.array([2, 1, 2]).astype(dtype)
    x, kx = pycg.constant(a), keras.ops.convert_to_tensor(a)
    y, ky = (pycg.constant(b), keras.ops.convert_to_tensor(b)) \
        if other == "tensor" else (other, other)
    _same_as_keras(ops.divide(x, y), keras.ops.divide(kx, ky))
    _same_as_keras(ops.divide(y, x), keras.ops.divide(ky, kx))
    _same_as_keras(x / y, keras.ops.divide(kx, ky))
    _same_as_keras(y / x, keras.ops.divide(ky, kx))


def test_dividing_integers_follows_floatx(backend):
    pycg.config.set_floatx("float64")
    try:
        q = pycg.constant(np.array([1, 2], np.int32)) / 3
    finally:
        pycg.config.set_floatx("float32")
    assert q.dtype == np.float64
    np.testing.assert_array_equal(q.numpy(), [1 / 3, 2 / 3])


def test_dividing_floats_keeps_their_dtype(backend):
    for dtype in ("float16", "float32", "float64"):
        x = pycg.constant(np.array([1.0, 3.0], dtype))
        for q in (x / 3, 3 / x, x / x, ops.divide(x, pycg.constant(
                np.array([2, 4], np.int32)))):
            assert q.dtype == np.dtype(dtype)


@pytest.mark.parametrize("number", [-2, 256, 2 ** 70])
def test_a_python_int_outside_an_unsigned_dtype_says_so(backend, number):
    x = pycg.constant(np.array([1, 2], np.uint8))
    for fn in (lambda: x + number, lambda: number + x,
               lambda: ops.maximum(x, number)):
        with pytest.raises(OverflowError) as e:
            fn()
        msg = str(e.value)
        assert msg.startswith("pycg.ops.")
        assert f"the Python int {number} does not fit the tensor's dtype " \
               f"uint8" in msg
        assert "cast the tensor to a wider dtype" in msg


def test_an_overflowing_number_leaves_the_tape_as_it_was(backend):
    x = pycg.constant(np.array([1.0, 2.0]))
    small = pycg.constant(np.array([1, 2], np.uint8))
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = ops.sum(x * x)
        with pytest.raises(OverflowError):
            small - 300
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [2.0, 4.0])


@pytest.mark.parametrize("dtype", ["int8", "int32", "int64"])
def test_an_integer_to_a_negative_integer_power_says_so(backend, dtype):
    x = pycg.constant(np.array([1, 2], dtype))
    for fn in (lambda: x ** -2, lambda: ops.power(x, pycg.constant(
            np.array([2, -1], dtype)))):
        with pytest.raises(ValueError, match=(
                rf"pycg.ops.power: an integer base to a negative integer "
                rf"power is not allowed \(got {dtype} and {dtype}, .*cast "
                rf"the base to a float dtype first")):
            fn()


@pytest.mark.parametrize("dtype", ["uint8", "uint16", "uint32", "uint64"])
def test_unsigned_powers_wrap_as_numpy(backend, dtype):
    base = np.array([3, 200, 70000 % 2 ** (8 * np.dtype(dtype).itemsize)],
                    dtype)
    want = base ** np.array(2, dtype)   # NumPy's own unsigned arithmetic
    got = pycg.constant(base) ** 2
    assert got.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(got.numpy(), want)


def test_subtracting_bools_says_what_to_use(backend):
    m = pycg.constant(np.array([True, False]))
    for fn in (lambda: m - m, lambda: ops.subtract(m, True),
               lambda: ops.subtract(True, m)):
        with pytest.raises(TypeError, match=(
                r"pycg.ops.subtract: bool tensors cannot be subtracted .*"
                r"ops.logical_xor")):
            fn()


def test_bfloat16_by_name_converts_a_list(backend):
    import ml_dtypes
    got = ops.convert_to_tensor([1.5, 2.0, 1 / 3], dtype="bfloat16")
    assert got.dtype.name == "bfloat16"
    want = np.array([1.5, 2.0, 1 / 3], ml_dtypes.bfloat16)
    np.testing.assert_array_equal(got.numpy().astype(np.float32),
                                  want.astype(np.float32))


@pytest.mark.parametrize("call, where", [
    (lambda: pycg.convert_to_tensor([1.0], dtype="floot32"),
     "pycg.convert_to_tensor"),
    (lambda: ops.convert_to_tensor([1.0], dtype="floot32"),
     "pycg.ops.convert_to_tensor"),
    (lambda: ops.convert_to_tensor(pycg.constant([1.0]), dtype="floot32"),
     "pycg.ops.convert_to_tensor"),
    (lambda: ops.cast(pycg.constant([1.0]), "floot32"), "pycg.ops.cast")])
def test_a_dtype_name_that_is_not_one_says_so(backend, call, where):
    with pytest.raises(TypeError) as e:
        call()
    assert str(e.value) == (
        f"{where}: dtype 'floot32' is not a dtype (expected a name such as "
        f"'float32' or a NumPy dtype)")


@pytest.mark.parametrize("dtype", ["float32", "bfloat16", "int32"])
def test_strings_with_a_number_dtype_say_what_arrived(backend, dtype):
    with pytest.raises(TypeError, match=(
            r"pycg.convert_to_tensor: expected numbers or arrays of numbers, "
            r"got list \['a', 'b'\]")):
        ops.convert_to_tensor(["a", "b"], dtype=dtype)


def test_a_ragged_list_with_a_dtype_still_says_ragged(backend):
    with pytest.raises(ValueError, match="ragged or mixed nested list"):
        ops.convert_to_tensor([[1, 2], [3]], dtype="float32")


# ---- integer and bool inputs to ops with float, bool or wider results ------
# (before, on the tensorflow backend each of these raised TensorFlow's own
# "no kernel for int8" error where keras.ops and the numpy backend work)
UNARY = ["floor", "ceil", "abs", "sign", "square", "isnan", "isfinite",
         "isinf", "logical_not", "cumsum", "max", "min", "sum", "prod"]
NARROW = ["bool", "int8", "uint8", "int16", "uint16", "int32", "int64"]


def _int_input(dtype):
    return np.array([[1, 2], [3, 0]]).astype(dtype)


# (the sign of a bool is an error in Keras and NumPy alike)
@pytest.mark.parametrize("op, dtype", [(o, d) for o in UNARY for d in NARROW
                                       if (o, d) != ("sign", "bool")])
def test_unary_ops_on_integers_and_bools_as_keras(backend, op, dtype):
    a = _int_input(dtype)
    _same_as_keras(getattr(ops, op)(pycg.constant(a)),
                   getattr(keras.ops, op)(keras.ops.convert_to_tensor(a)))


@pytest.mark.parametrize("dtype", NARROW)
@pytest.mark.parametrize("op", ["arctan2", "logaddexp", "logical_and",
                                "logical_or", "matmul"])
def test_binary_ops_on_integers_and_bools_as_keras(backend, op, dtype):
    a, b = _int_input(dtype), _int_input(dtype)[::-1]
    ka, kb = keras.ops.convert_to_tensor(a), keras.ops.convert_to_tensor(b)
    _same_as_keras(getattr(ops, op)(pycg.constant(a), pycg.constant(b)),
                   getattr(keras.ops, op)(ka, kb))
    if op != "matmul":
        _same_as_keras(getattr(ops, op)(pycg.constant(a), 2),
                       getattr(keras.ops, op)(ka, 2))


@pytest.mark.parametrize("dtype, wider", [("int8", "int32"),
                                          ("uint8", "uint32"),
                                          ("int16", "int32"),
                                          ("bool", "int32")])
def test_narrow_integers_sum_without_wrapping(backend, dtype, wider):
    a = np.full(300, 100 if dtype != "bool" else 1).astype(dtype)
    got = ops.sum(pycg.constant(a))
    assert got.dtype == np.dtype(wider)
    assert int(got.numpy()) == 300 * int(a[0])   # the closed form


def test_narrow_matmul_keeps_the_dtype_and_wraps_as_numpy(backend):
    a = np.array([[200, 100], [3, 4]], np.uint8)
    got = ops.matmul(pycg.constant(a), pycg.constant(a))
    assert got.dtype == np.uint8
    np.testing.assert_array_equal(got.numpy(), a @ a)   # NumPy's uint8
