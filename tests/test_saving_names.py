"""Names a .npz file cannot hold as they are: save_variables refuses them
by name before anything is written, so the previous checkpoint stays byte
for byte; load_variables names a member name that is not the UTF-8 its
zip flag says."""
import os
import zipfile

import numpy as np
import pytest

import pycg

# zip's 16-bit name length, less the ".npy" each member name ends with
LONGEST = 2**16 - 1 - 4

REFUSED = {   # names -> the end of the message, after "the name ... of item"
    ("w\x00a", "w\x00b"): r"'w\\x00a' of item 0 holds a NUL character, "
                          r"where zip files end a member name",
    ("ok", "a\\b"): r"'a\\\\b' of item 1 holds a backslash, which zip "
                    r"readers on Windows read as a folder separator \('/' "
                    r"separates the parts of a name\)",
    ("w\udcff",): r"'w\\udcff' of item 0 is not valid Unicode text "
                  r"\(surrogates not allowed at position 1\); zip member "
                  r"names are UTF-8",
    ("x" * (LONGEST + 1),): r"'x{59}\.\.\.' of item 0 is 65532 bytes long in "
                            r"UTF-8; a zip member name holds at most 65531 "
                            r"\(with '\.npy'\)",
}
for bad in ("/abs", "a//b", "../up", "a/./b", "dense/"):
    REFUSED[(bad,)] = (
        f"'{bad}' of item 0 has an empty, '.' or '..' part between its '/' "
        f"separators; a zip reader extracting the file would write "
        f"elsewhere".replace(".", r"\.").replace("(", r"\("))


def _checkpoint(tmp_path):
    path = tmp_path / "ckpt.npz"
    pycg.save_variables(path, [pycg.Variable([1.0, 2.0], name="w")])
    return path, path.read_bytes()


@pytest.mark.parametrize("names", sorted(REFUSED), ids=ascii)
def test_a_name_no_zip_member_can_hold_is_refused_before_writing(
        tmp_path, backend, names):
    path, before = _checkpoint(tmp_path)
    variables = [pycg.Variable([3.0], name=n) for n in names]
    with pytest.raises(ValueError, match=r"^pycg\.save_variables: the name "
                       + REFUSED[names] + r"; rename it \(pass a dict of "
                       r"name -> Variable\)$"):
        pycg.save_variables(path, variables)
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["ckpt.npz"]   # (no temporary file)


def test_a_refused_name_in_a_dict_is_refused_too(tmp_path, backend):
    path, before = _checkpoint(tmp_path)
    with pytest.raises(ValueError, match=r"^pycg\.save_variables: the name "
                       r"'w\\x00b' of item 1 holds a NUL"):
        pycg.save_variables(path, {"w": pycg.Variable([1.0]),
                                   "w\x00b": pycg.Variable([2.0])})
    assert path.read_bytes() == before


@pytest.mark.parametrize("name", ["x" * LONGEST, "dense/kernel", "a/b/c",
                                  "w\u00e9ight", "\u4e2d", "..x", "x."])
def test_a_name_a_zip_member_holds_round_trips(tmp_path, backend, name):
    path = tmp_path / "w.npz"
    pycg.save_variables(path, {name: pycg.Variable([5.0])})
    with zipfile.ZipFile(path) as zf:
        assert zf.namelist() == [name + ".npy"]
    loaded = pycg.Variable([0.0])
    pycg.load_variables(path, {name: loaded})
    assert loaded.numpy().tolist() == [5.0]


def _with_bad_utf8_name(path):
    """A zip whose one member name is flagged UTF-8 but holds 0xFF 0xFE."""
    with zipfile.ZipFile(path, "w") as zf:   # (non-ASCII: the flag is set)
        zf.writestr("w\u00e9.npy", b"")
    raw = path.read_bytes()
    assert raw.count("w\u00e9".encode()) == 2   # (local and central header)
    path.write_bytes(raw.replace("w\u00e9".encode(), b"w\xff\xfe"))
    return path


def test_a_member_name_that_is_not_utf8_is_named(tmp_path, backend):
    path = _with_bad_utf8_name(tmp_path / "bad.npz")
    w = pycg.Variable(np.array([1.0, 2.0]), name="w")
    with pytest.raises(ValueError, match=r"^pycg\.load_variables: a member "
                       r"name in '.*bad\.npz' is marked UTF-8 but is not "
                       r"\(invalid start byte\); save_variables writes UTF-8 "
                       r"names$"):
        pycg.load_variables(path, [w])
    assert w.numpy().tolist() == [1.0, 2.0]
