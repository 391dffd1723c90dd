"""pycg.load_variables on hostile or odd .npz files: refused from the zip
directory and the .npy headers before any data is read, with an error naming
load_variables and the member; big-endian and Fortran-order arrays load as
NumPy reads them."""
import io
import zipfile

import numpy as np
import pytest

import pycg


def npy(array=None, *, descr=None, shape=None, fortran=False, data=None):
    """A .npy member: NumPy's own header for `array`, or a header declaring
    `descr` and `shape` over `data` (bytes)."""
    out = io.BytesIO()
    if array is not None:
        np.lib.format.write_array(out, array, allow_pickle=False)
        return out.getvalue()
    np.lib.format.write_array_header_1_0(
        out, {"descr": descr, "fortran_order": fortran, "shape": shape})
    return out.getvalue() + (data or b"")


def npz(path, members, compression=zipfile.ZIP_STORED):
    with zipfile.ZipFile(path, "w", compression) as z:
        for name, content in members.items():
            z.writestr(name, content)
    return path


def corrupt_after(path, marker):
    """Flip the byte after `marker` in the file (data of a stored member):
    reading that data would fail its CRC check."""
    raw = bytearray(path.read_bytes())
    at = raw.index(marker) + len(marker)
    raw[at] ^= 0xFF
    path.write_bytes(bytes(raw))


def test_a_huge_declared_shape_is_refused_from_the_header(tmp_path, backend):
    # 64 KiB of data whose last byte is corrupt: reading the data would end
    # in a CRC error; the header alone is read
    data = bytes(2**16) + b"TAIL!"
    path = npz(tmp_path / "w.npz", {"w.npy": npy(descr="<f8", shape=(10**12,),
                                                 data=data)})
    corrupt_after(path, b"TAIL")
    w = pycg.Variable(np.array([1.0, 2.0]), name="w")
    with pytest.raises(ValueError, match=r"^pycg.load_variables: 'w' has "
                       r"shape \(1000000000000,\) in the file but the "
                       r"variable has shape \(2,\)$"):
        pycg.load_variables(path, [w])
    assert w.numpy().tolist() == [1.0, 2.0]


def test_names_are_checked_before_any_header_is_read(tmp_path, backend):
    path = npz(tmp_path / "w.npz", {"v.npy": b"not an array at all"})
    with pytest.raises(ValueError, match=r"^pycg.load_variables: the names "
                       r"in .* do not match the variables: missing from the "
                       r"file: \['w'\]; in the file but not among the "
                       r"variables: \['v'\]$"):
        pycg.load_variables(path, [pycg.Variable([1.0], name="w")])


def test_a_member_that_is_not_npy_is_named(tmp_path, backend):
    path = npz(tmp_path / "w.npz", {"w.npy": npy(np.array([1.0])),
                                    "notes.txt": b"hello"})
    with pytest.raises(ValueError, match=r"^pycg.load_variables: member "
                       r"'notes.txt' of .*w.npz' is not a .npy array; a file "
                       r"of variables holds only .npy members"):
        pycg.load_variables(path, [pycg.Variable([1.0], name="w")])


def test_a_member_without_an_npy_header_is_named(tmp_path, backend):
    path = npz(tmp_path / "w.npz", {"w.npy": b"\x00" * 64})
    with pytest.raises(ValueError, match=r"^pycg.load_variables: member "
                       r"'w.npy' is not a valid .npy array \(.*magic"):
        pycg.load_variables(path, [pycg.Variable([1.0], name="w")])


def test_a_member_shorter_than_its_header_declares_is_refused(tmp_path,
                                                              backend):
    path = npz(tmp_path / "w.npz", {"w.npy": npy(descr="<f8", shape=(3,),
                                                 data=bytes(8))})
    w = pycg.Variable(np.array([1.0, 2.0, 3.0]), name="w")
    with pytest.raises(ValueError, match=r"^pycg.load_variables: member "
                       r"'w.npy' declares 24 bytes of data \(shape \(3,\), "
                       r"float64\) but holds 8$"):
        pycg.load_variables(path, [w])
    assert w.numpy().tolist() == [1.0, 2.0, 3.0]


def test_object_arrays_are_refused_without_unpickling(tmp_path, backend):
    path = npz(tmp_path / "w.npz", {"w.npy": npy(descr="|O", shape=(1,),
                                                 data=b"cos\nsystem\n")})
    with pytest.raises(TypeError, match=r"^pycg.load_variables: 'w' holds "
                       r"Python objects \(dtype object\), which "
                       r"load_variables never unpickles$"):
        pycg.load_variables(path, [pycg.Variable([1.0], name="w")])


def test_big_endian_values_load_as_numpy_reads_them(tmp_path, backend):
    saved = np.array([[1.5, -2.25, 3e300], [0.0, -0.0, 7.0]], ">f8")
    path = npz(tmp_path / "w.npz", {"w.npy": npy(saved)})
    w = pycg.Variable(np.zeros((2, 3)), name="w")
    pycg.load_variables(path, [w])
    assert w.dtype == np.float64
    np.testing.assert_array_equal(w.numpy(), np.load(path)["w"])


def test_big_endian_of_another_dtype_names_its_byte_order(tmp_path, backend):
    path = npz(tmp_path / "w.npz", {"w.npy": npy(np.array([1.0], ">f4"))})
    with pytest.raises(TypeError, match=r"^pycg.load_variables: 'w' has dtype "
                       r">float32 in the file but the variable has float64$"):
        pycg.load_variables(path, [pycg.Variable(np.array([0.0]), name="w")])


def test_fortran_order_arrays_load_as_numpy_reads_them(tmp_path, backend):
    saved = np.asfortranarray(np.arange(6.0).reshape(2, 3))
    path = npz(tmp_path / "w.npz", {"w.npy": npy(saved)},
               zipfile.ZIP_DEFLATED)
    w = pycg.Variable(np.zeros((2, 3)), name="w")
    pycg.load_variables(path, [w])
    np.testing.assert_array_equal(w.numpy(), np.load(path)["w"])
    w.assign_add(1.0)   # the loaded storage is writable
    np.testing.assert_array_equal(w.numpy(), saved + 1.0)


def test_corrupt_data_is_refused_and_nothing_is_assigned(tmp_path, backend):
    good = npy(np.array([5.0]))
    bad = npy(np.array([6.0, 7.0]))
    path = npz(tmp_path / "w.npz", {"a.npy": good, "b.npy": bad})
    corrupt_after(path, bad[:-16])
    a = pycg.Variable(np.array([1.0]), name="a")
    b = pycg.Variable(np.array([1.0, 1.0]), name="b")
    with pytest.raises(ValueError, match=r"^pycg.load_variables: cannot read "
                       r".*w.npz' as a .npz file of variables \(.*CRC"):
        pycg.load_variables(path, [a, b])
    assert a.numpy().tolist() == [1.0] and b.numpy().tolist() == [1.0, 1.0]


def test_a_repeated_member_is_refused(tmp_path, backend):
    path = tmp_path / "w.npz"
    with pytest.warns(UserWarning, match="Duplicate name"):
        npz(path, {"w.npy": npy(np.array([1.0]))})
        with zipfile.ZipFile(path, "a") as z:
            z.writestr("w.npy", npy(np.array([2.0])))
    with pytest.raises(ValueError, match=r"^pycg.load_variables: member "
                       r"'w.npy' appears twice in .*w.npz'$"):
        pycg.load_variables(path, [pycg.Variable([0.0], name="w")])
