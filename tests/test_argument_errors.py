"""Hostile arguments get an error naming the op and the argument, decided
where every op normalises them (pycg/ops/_machinery/arguments.py); what no check
foresaw still names the op (pycg/ops/_machinery/named.py), and the user's own errors
keep their words."""
import numpy as np
import pytest

import pycg
from pycg import ops

X = np.array([1.0, 2.0, 3.0], "float32")


@pytest.mark.parametrize("call, cls, message", [
    (lambda: ops.sum(X, axis="0"), TypeError,
     "pycg.ops.sum: `axis` must be an int, a tuple of ints or None, got str "
     "'0'"),
    (lambda: ops.max(X, axis=0.0), TypeError,
     "pycg.ops.max: `axis` must be an int, a tuple of ints or None, got "
     "float 0.0"),
    (lambda: ops.mean(X, axis=True), TypeError,
     "pycg.ops.mean: `axis` must be an int, a tuple of ints or None, got "
     "bool True"),
    (lambda: ops.zeros(b"ab"), TypeError,
     "pycg.ops.zeros: `shape` must be an int or a tuple of non-negative "
     "ints, got bytes b'ab'"),
    (lambda: ops.ones((2, -1)), ValueError,
     "pycg.ops.ones: `shape` must have non-negative sizes, got (2, -1)"),
    (lambda: ops.expand_dims(X, 2**70), ValueError,
     f"pycg.ops.expand_dims: axis {2**70} is out of range for a tensor of "
     f"rank 2"),
    (lambda: ops.reshape(X, "3"), TypeError,
     "pycg.ops.reshape: `newshape` must be an int or a tuple of ints, got "
     "str '3'"),
    (lambda: ops.stack(b"ab"), TypeError,
     "pycg.ops.stack: `x` must be a list or tuple of tensors, got bytes "
     "b'ab'"),
    (lambda: ops.eye(2.5), TypeError,
     "pycg.ops.eye: `N` must be an int, got float 2.5"),
    (lambda: ops.zeros(3, dtype="U3"), TypeError,
     "pycg.ops.zeros: dtype 'U3' is not a dtype (expected a name such as "
     "'float32' or a NumPy dtype)"),
    (lambda: ops.diff(X, n=-1), ValueError,
     "pycg.ops.diff: `n` must be non-negative, got -1"),
    (lambda: ops.exp(2**70), OverflowError,
     f"pycg.ops.exp: {2**70} does not fit int32 (Python ints become int32, "
     f"as in Keras); pass floats, or an array of a wider dtype"),
])
def test_a_hostile_argument_names_the_op_and_the_argument(
        backend, call, cls, message):
    with pytest.raises(cls) as e:
        call()
    assert str(e.value) == message


def test_an_object_array_is_refused_on_both_backends(backend):
    bad = np.array([1.0, "a"], dtype=object)
    with pytest.raises(TypeError, match=r"^pycg.ops.add: expected numbers or "
                       r"arrays of numbers, got ndarray array\(\[1.0, 'a'\], "
                       r"dtype=object\)"):
        ops.add(bad, 1.0)
    with pytest.raises(TypeError, match=r"^pycg.convert_to_tensor: expected "
                       r"numbers"):
        pycg.constant(np.array([1.0, 2.0], dtype=object))


def test_integer_axes_of_every_kind_are_taken(backend):
    m = np.arange(6.0, dtype="float32").reshape(2, 3)
    want = m.sum(axis=1)
    for axis in (1, np.int64(1), pycg.constant(1), [1], np.array([1]),
                 pycg.constant([1])):
        np.testing.assert_array_equal(ops.sum(m, axis=axis).numpy(), want)


def test_a_float_tensor_is_not_an_index(backend):
    with pytest.raises(TypeError, match=r"pycg.Tensor: only an integer "
                       r"tensor can be an index, got dtype float32"):
        [1, 2, 3][pycg.constant(1.0)]


def test_diff_of_order_past_the_length_is_empty_as_numpy(backend):
    got = ops.diff(X, n=2**70)
    assert got.shape == np.diff(X, n=5).shape == (0,)


def test_an_unforeseen_argument_error_names_the_op_and_keeps_its_class(
        backend):
    # (NumPy's ValueError on one backend, TensorFlow's TypeError on the other)
    with pytest.raises((TypeError, ValueError)) as e:
        ops.pad(X, 1, constant_values=b"ab")
    assert str(e.value).startswith("pycg.ops.pad: ")
    assert type(e.value) is type(e.value.__cause__)
    with pytest.raises(TypeError, match=r"^pycg.ops.triu: `k` must be an "
                       r"int, got object"):
        ops.triu(np.ones((2, 2), "float32"), k=object())


def test_the_users_own_error_keeps_its_words(backend):
    def branch():
        raise ValueError("my own words")
    with pytest.raises(ValueError) as e:
        ops.cond(True, branch, lambda: X)
    assert str(e.value) == "my own words"
