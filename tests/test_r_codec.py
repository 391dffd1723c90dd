"""pycg/r: the one array codec both R directions share, and the package's
place in the house (it imports the core, never the reverse; importing it
starts no R). No R needed here: the bytes are checked against NumPy's own
column-major layout."""
import ast
import os
import subprocess
import sys

import numpy as np
import pytest

import pycg
from pycg.r import codec

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.mark.parametrize("value, kind, stored", [
    (np.arange(6.0).reshape(2, 3), "double", "<f8"),
    (np.arange(24, dtype=np.int32).reshape(2, 3, 4), "integer", "<i4"),
    (np.array([True, False, True]), "logical", "<i4"),
    (np.array([1 + 2j, -3j]), "complex", "<c16"),
    (np.arange(4, dtype=np.int64), "double", "<f8"),
    (np.arange(4, dtype=np.uint16), "integer", "<i4"),
    (np.arange(4, dtype=np.float32), "double", "<f8"),
    (np.float64(2.5), "double", "<f8"),
])
def test_an_array_goes_to_r_as_its_column_major_bytes(value, kind, stored):
    data, shape, got_kind = codec.to_r(value)
    assert got_kind == kind
    assert shape == list(np.shape(value))
    expected = np.asarray(value).astype(stored).tobytes(order="F")
    assert bytes(data) == expected


def test_a_tensor_goes_to_r_like_its_array(backend):
    x = pycg.constant(np.arange(6.0).reshape(3, 2))
    assert codec.to_r(x) == codec.to_r(np.arange(6.0).reshape(3, 2))


@pytest.mark.parametrize("value, dtype", [
    (np.arange(6.0).reshape(2, 3), "float64"),
    (np.arange(24, dtype=np.int32).reshape(4, 3, 2), "int32"),
    (np.array([True, False]), "bool"),
    (np.array([[1 + 2j], [-3j]]), "complex128"),
    (np.array(7.0), "float64"),
])
def test_bytes_from_r_become_a_tensor_of_the_same_elements(value, dtype):
    t = codec.from_r(*codec.to_r(value))
    assert t.dtype == dtype and t.shape == value.shape
    np.testing.assert_array_equal(t.numpy(), value)


def test_a_0d_array_from_r_stays_0d():
    t = codec.from_r(np.float64(2.5).tobytes(), [], "double")
    assert t.shape == () and float(t) == 2.5


@pytest.mark.parametrize("value, what", [
    (np.array(["a", "b"]), r"strings \(dtype <U1\)"),
    (np.array([b"a"]), r"bytes \(dtype \|S1\)"),
    (np.array([object()]), r"Python objects \(dtype object\)"),
    (np.array(["2020-01-01"], dtype="datetime64[D]"),
     r"datetimes \(dtype datetime64\[D\]\)"),
])
def test_an_array_r_cannot_hold_is_refused_with_what_it_holds(value, what):
    with pytest.raises(TypeError, match=r"pycg: an array of " + what +
                       r" cannot go to R: only arrays of numbers, booleans "
                       r"and complex numbers cross"):
        codec.to_r(value)


def test_one_dtype_table_names_r_s_four_storage_kinds():
    assert codec.DTYPES == {
        "double": ("<f8", "float64"), "integer": ("<i4", "int32"),
        "logical": ("<i4", "bool"), "complex": ("<c16", "complex128")}


def _imports(path):
    tree = ast.parse(open(path).read())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            yield node.module
            yield from (f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            yield from (a.name for a in node.names)


def test_the_core_never_imports_pycg_r():
    offenders = []
    for folder, _, files in os.walk(os.path.join(ROOT, "pycg")):
        if os.path.join("pycg", "r") in folder:
            continue
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                if any(m == "pycg.r" or m.startswith("pycg.r.")
                       for m in _imports(path)):
                    offenders.append(os.path.relpath(path, ROOT))
    assert offenders == []


def test_importing_pycg_r_and_its_interop_starts_no_r():
    code = ("import sys, pycg.r, pycg.r.interop, pycg.r.codec\n"
            "from pycg.r import _session\n"
            "print('rpy2' in sys.modules, bool(_session._received))\n")
    env = dict(os.environ, PYTHONPATH=ROOT, TF_CPP_MIN_LOG_LEVEL="3")
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False False"


@pytest.mark.parametrize("kind, value, dtype", [
    ("double", np.array([[1.5, -2.0], [3.25, 1e-8]]), "float32"),
    ("double", np.array([3.0, -2.0]), "int32"),
    ("logical", np.array([True, False]), "float32"),
])
def test_r_data_with_a_dtype_is_converted_to_it_first(backend, kind, value,
                                                      dtype):
    # the dtype an R wrapper asks of its data (op_convert_to_tensor(x,
    # dtype)): the tensor pycg.convert_to_tensor(array, dtype) makes, with
    # no float64 tensor on the way (on jax with 64-bit mode off, one would
    # be an error)
    stored = codec.DTYPES[kind][0]
    data = bytearray(value.astype(stored).tobytes(order="F"))
    got = codec.from_r(data, list(value.shape), kind, dtype)
    assert got.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(got.numpy(), value.astype(dtype))


def test_r_data_with_a_bad_dtype_stays_an_array_for_the_op_to_refuse():
    data = bytearray(np.array([1.0, 2.0]).tobytes())
    got = codec.from_r(data, [2], "double", "foo")
    assert type(got) is np.ndarray
    with pytest.raises(TypeError, match="dtype 'foo' is not a dtype"):
        pycg.ops.array(got, dtype="foo")


# ---- large arrays on tensorflow: its memory kept, not copied -----------------
@pytest.fixture
def tf(tf_backend):
    """The tensorflow backend module (conftest's tf_backend sets it)."""
    return pycg.backends.active


def test_staged_arrays_start_on_a_64_byte_boundary():
    for shape, kind in [((3,), "double"), ((2 ** 17 + 3, 2), "integer"),
                        ((5, 7), "complex"), ((0,), "double")]:
        s = codec.Staged(shape, kind, 2 ** 18)
        a = s.take()
        assert a.shape == shape
        assert a.size == 0 or a.ctypes.data % 64 == 0   # (empty: no data)


def test_tensorflow_keeps_a_staged_array_and_lends_it_back_read_only(tf):
    n = 2 ** 17
    s = codec.Staged((n, 2), "double", 2 ** 18)
    for i, count in enumerate(s.counts()):
        s.fill(i, np.full(count, float(i + 1)).tobytes())
    want = s._array.copy()
    held = s._array
    t = pycg.tensor.adopt(s.take())
    assert np.shares_memory(np.from_dlpack(t._value), held)
    del held, s
    view = tf.numpy_view(t._value)
    np.testing.assert_array_equal(view, want)
    assert not view.flags.writeable
    with pytest.raises(ValueError):
        view[0, 0] = 0.0
    np.testing.assert_array_equal(pycg.ops.add(t, 1.0).numpy(), want + 1.0)
    np.testing.assert_array_equal(
        np.frombuffer(bytes(codec.to_r(t, limit=None)[0])).reshape(
            (n, 2), order="F"), want)


@pytest.mark.parametrize("make", [
    lambda n: np.arange(n + 1, dtype=np.float64)[1:],   # 8 bytes off a boundary
    lambda n: np.zeros(n, dtype=bool),                  # no DLPack dtype
    lambda n: np.arange(16, dtype=np.float64),          # small: copied
    lambda n: np.arange(2 * n, dtype=np.float64)[::2],  # not contiguous
])
def test_tensorflow_copies_what_it_cannot_keep(tf, make):
    a = make(2 ** 17)
    if a.dtype == np.float64 and a.flags.c_contiguous and a.size > 16:
        assert a.ctypes.data % 64 != 0
    t = tf.adopt(a)
    np.testing.assert_array_equal(t.numpy(), a)
    assert not np.shares_memory(t.numpy(), a)
    small = tf.numpy_view(tf.convert(a[:16]))
    assert small.flags.writeable   # (a copy, as to_numpy gives)
