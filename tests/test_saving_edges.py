"""save_variables / load_variables at their edges: every dtype pycg has
round-trips bit for bit on every backend (bfloat16 too, which NumPy writes
as raw 2-byte values); any name round-trips, also the names of np.savez's
own parameters; only regular files are read or replaced (a FIFO, a device,
a directory, a socket are refused by name, before anything could block);
a symlink stays a link and a file keeps its permissions."""
import json
import os
import stat
import subprocess
import sys

import ml_dtypes
import numpy as np
import pytest

import pycg

DTYPES = ["bfloat16", "float16", "float32", "float64", "complex64",
          "complex128", "bool", "int8", "int16", "int32", "int64", "uint8",
          "uint16", "uint32", "uint64"]


def np_dtype(name):
    return np.dtype(ml_dtypes.bfloat16 if name == "bfloat16" else name)


def edge_values(dtype):
    """Values whose bits must survive: signed zeros, infinities, a NaN,
    extremes of integers."""
    if dtype.kind == "b":
        return np.array([True, False, True])
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return np.array([info.min, 0, info.max], dtype)
    values = np.array([-0.0, np.inf, -np.inf, np.nan, 1.5, -2.25])
    if dtype.kind == "c":
        real = values
        values = np.empty(len(real), complex)
        values.real, values.imag = real, real[::-1]
    return values.astype(dtype)


@pytest.mark.parametrize("name", DTYPES)
def test_every_dtype_round_trips_bit_for_bit(tmp_path, backend, name):
    dtype = np_dtype(name)
    values = edge_values(dtype)
    trainable = dtype.kind in "fcV"
    saved = pycg.Variable(values, name="v", trainable=trainable)
    path = tmp_path / "v.npz"
    pycg.save_variables(path, [saved])
    loaded = pycg.Variable(np.zeros_like(values), name="v",
                           trainable=trainable)
    pycg.load_variables(path, [loaded])
    assert loaded.dtype == dtype
    assert loaded.numpy().tobytes() == values.tobytes()
    with np.load(path) as data:   # (NumPy reads it: bfloat16 as raw bytes)
        assert data["v"].tobytes() == values.tobytes()


def test_raw_bytes_load_only_into_a_dtype_of_their_size(tmp_path):
    path = tmp_path / "v.npz"
    pycg.save_variables(path, [pycg.Variable(np.ones(2, ml_dtypes.bfloat16),
                                             name="v")])
    with pytest.raises(TypeError, match=r"^pycg.load_variables: 'v' has dtype "
                       r"V2 \(raw 2-byte values\) in the file but the "
                       r"variable has float16$"):
        pycg.load_variables(path, [pycg.Variable(np.zeros(2, "float16"),
                                                 name="v")])


NAMES = ["file", "allow_pickle", "args", "kwds", "arr_0", "compress",
         "dense/kernel", "w\u00e9ight", " ", "x.npy"]


def test_any_name_round_trips(tmp_path, backend):
    path = tmp_path / "w.npz"
    saved = {n: pycg.Variable([float(i)]) for i, n in enumerate(NAMES)}
    pycg.save_variables(path, saved)
    with np.load(path) as data:
        assert data.files == NAMES
    loaded = {n: pycg.Variable([-1.0]) for n in NAMES}
    pycg.load_variables(path, loaded)
    assert [float(v[0]) for v in loaded.values()] == list(range(len(NAMES)))


# ---- what is not a regular file ---------------------------------------------
# Each call runs in a process of its own under an alarm and a memory limit:
# a FIFO blocks open() forever and /dev/zero never ends, where pycg would
# not refuse them.
SPECIAL = r"""
import json, os, resource, shutil, signal, socket, sys, tempfile
import pycg
resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
def alarm(*_):
    raise TimeoutError("blocked")
signal.signal(signal.SIGALRM, alarm)
folder = tempfile.mkdtemp(dir="/tmp")   # (a socket's path: < 108 bytes)
def make(kind, path):
    if kind == "a FIFO (named pipe)":
        os.mkfifo(path)
    elif kind == "a socket":
        with socket.socket(socket.AF_UNIX) as s:
            s.bind(path)
    elif kind == "a directory":
        os.mkdir(path)
    return os.stat(path)
out = []
for api, kind in json.loads(sys.argv[1]):
    path = "/dev/zero" if kind == "a character device" else \
        os.path.join(folder, f"{len(out)}.npz")
    before = None if path == "/dev/zero" else make(kind, path)
    signal.alarm(10)
    try:
        getattr(pycg, api)(path, [pycg.Variable([1.0], name="w")])
        outcome = "no error"
    except Exception as e:
        outcome = f"{type(e).__name__}: {e}"
    finally:
        signal.alarm(0)
    after = None if before is None else os.stat(path)
    kept = before is None or (after.st_ino, after.st_mode) == (
        before.st_ino, before.st_mode)
    out.append([api, kind, path, outcome, kept])
shutil.rmtree(folder)
print(json.dumps(out))
"""

CASES = [("load_variables", k) for k in (
    "a FIFO (named pipe)", "a directory", "a socket", "a character device")]
CASES += [("save_variables", k) for k in (
    "a FIFO (named pipe)", "a directory", "a socket")]


def test_only_regular_files_are_read_or_replaced():
    run = subprocess.run([sys.executable, "-c", SPECIAL, json.dumps(CASES)],
                         capture_output=True, text=True, timeout=300,
                         env={**os.environ, "PYCG_BACKEND": "numpy"})
    assert run.returncode == 0, run.stderr[-3000:]
    results = json.loads(run.stdout.strip().splitlines()[-1])
    assert [[api, kind] for api, kind, *_ in results] == \
        [list(c) for c in CASES]
    for api, kind, path, outcome, kept in results:
        verb = "reads" if api == "load_variables" else "writes"
        assert outcome == (
            f"ValueError: pycg.{api}: {path!r} is {kind}, not a regular file; "
            f"pycg.{api} {verb} regular files only"), (api, kind)
        assert kept, (api, kind, "replaced")


@pytest.mark.parametrize("api", ["save_variables", "load_variables"])
@pytest.mark.parametrize("path", [None, 3, ""])
def test_a_path_that_is_no_file_name_is_refused_by_name(api, path):
    with pytest.raises(TypeError, match=(
            rf"^pycg.{api}: `path` must be a file name \(a non-empty str or "
            rf"os.PathLike\), got {path!r}$")):
        getattr(pycg, api)(path, [pycg.Variable([1.0], name="w")])


def test_a_missing_file_is_the_os_error_naming_load_variables(tmp_path):
    path = str(tmp_path / "none.npz")
    with pytest.raises(FileNotFoundError, match=(
            rf"^pycg.load_variables: cannot read {path!r} \(No such file or "
            rf"directory\)$")):
        pycg.load_variables(path, [pycg.Variable([1.0], name="w")])


def test_a_missing_folder_is_the_os_error_naming_save_variables(tmp_path):
    path = str(tmp_path / "none" / "w.npz")
    with pytest.raises(FileNotFoundError, match=(
            rf"^pycg.save_variables: cannot write {path!r} \(No such file or "
            rf"directory\)$")):
        pycg.save_variables(path, [pycg.Variable([1.0], name="w")])


# ---- what a replaced file keeps ---------------------------------------------
def test_a_symlinked_checkpoint_stays_a_link_to_the_new_file(tmp_path):
    real = tmp_path / "real.npz"
    link = tmp_path / "latest.npz"
    pycg.save_variables(real, [pycg.Variable([1.0], name="w")])
    link.symlink_to(real)
    pycg.save_variables(link, [pycg.Variable([2.0], name="w")])
    assert link.is_symlink() and os.readlink(link) == str(real)
    with np.load(real) as data:
        assert data["w"].tolist() == [2.0]
    assert sorted(os.listdir(tmp_path)) == ["latest.npz", "real.npz"]


def test_a_replaced_file_keeps_its_permissions_and_a_new_one_the_umask(
        tmp_path):
    kept, new = tmp_path / "kept.npz", tmp_path / "new.npz"
    pycg.save_variables(kept, [pycg.Variable([1.0], name="w")])
    os.chmod(kept, 0o640)
    pycg.save_variables(kept, [pycg.Variable([2.0], name="w")])
    assert stat.S_IMODE(os.stat(kept).st_mode) == 0o640
    umask = os.umask(0)
    os.umask(umask)
    with open(tmp_path / "plain", "wb"):   # (what open() gives)
        pass
    pycg.save_variables(new, [pycg.Variable([1.0], name="w")])
    assert stat.S_IMODE(os.stat(new).st_mode) == \
        stat.S_IMODE(os.stat(tmp_path / "plain").st_mode) == 0o666 & ~umask
