"""A save that fails never destroys the checkpoint already there: an
exception or Ctrl-C after any number of bytes, at the zip directory, at
the fsync or at the rename, and a file-size limit (RLIMIT_FSIZE) all leave
the previous file byte-identical, loadable, and no temporary file beside
it. `make test` tries a sample of byte offsets; `make soak` every offset
(PYCG_SOAK_ROUNDS)."""
import os
import signal
import subprocess
import sys
import textwrap
import zipfile

import numpy as np
import pytest

import pycg

ROUNDS = int(os.environ.get("PYCG_SOAK_ROUNDS", "40"))


class Fault(Exception):
    pass


def old_and_new(folder):
    """A checkpoint at folder/w.npz (returned with its bytes) and new,
    larger values for the same names."""
    path = folder / "w.npz"
    old = [pycg.Variable(np.arange(6.0), name="w"),
           pycg.Variable(np.array([0.5, -0.5]), name="b")]
    pycg.save_variables(path, old)
    new = [pycg.Variable(np.linspace(-1.0, 1.0, 6), name="w"),
           pycg.Variable(np.array([7.0, 8.0]), name="b")]
    return path, path.read_bytes(), new


def assert_untouched(path, saved):
    assert path.read_bytes() == saved
    assert sorted(os.listdir(path.parent)) == [path.name]   # no temporary
    w = pycg.Variable(np.zeros(6), name="w")
    b = pycg.Variable(np.zeros(2), name="b")
    pycg.load_variables(path, [w, b])
    np.testing.assert_array_equal(w.numpy(), np.arange(6.0))
    np.testing.assert_array_equal(b.numpy(), [0.5, -0.5])


def fail_after(monkeypatch, limit, act):
    """Each .npy member's bytes go through a writer that calls act() once
    `limit` bytes of members have been written (np.savez and pycg write
    members with np.lib.format.write_array)."""
    real, written = np.lib.format.write_array, [0]

    class Counting:
        def __init__(self, f):
            self.f = f

        def write(self, data):
            data = bytes(data)
            room = limit - written[0]
            if room < len(data):
                self.f.write(data[:max(room, 0)])
                written[0] = limit
                act()
            written[0] += len(data)
            return self.f.write(data)

    def write_array(fp, array, *args, **kwargs):
        return real(Counting(fp), array, *args, **kwargs)

    monkeypatch.setattr(np.lib.format, "write_array", write_array)


def raise_fault():
    raise Fault("injected")


def interrupt():
    signal.raise_signal(signal.SIGINT)   # (Python's handler: KeyboardInterrupt)


def offsets(total):
    """Byte offsets to fail at: all of them under make soak, else a sample
    including the first and the last."""
    if ROUNDS >= total:
        return list(range(total))
    return sorted({0, 1, 64, 127, 128, total // 2, total - 1})


MEMBER_BYTES = 128 + 6 * 8 + 128 + 2 * 8   # (two .npy headers and data)


@pytest.mark.parametrize("at", offsets(MEMBER_BYTES))
def test_an_exception_after_any_byte_leaves_the_old_checkpoint(
        tmp_path, monkeypatch, at):
    path, saved, new = old_and_new(tmp_path)
    fail_after(monkeypatch, at, raise_fault)
    with pytest.raises(Fault):
        pycg.save_variables(path, new)
    assert_untouched(path, saved)


@pytest.mark.parametrize("at", offsets(MEMBER_BYTES))
def test_ctrl_c_after_any_byte_leaves_the_old_checkpoint(
        tmp_path, monkeypatch, at):
    path, saved, new = old_and_new(tmp_path)
    fail_after(monkeypatch, at, interrupt)
    with pytest.raises(KeyboardInterrupt):
        pycg.save_variables(path, new)
    assert_untouched(path, saved)


@pytest.mark.parametrize("act", [raise_fault, interrupt],
                         ids=["exception", "ctrl-c"])
def test_a_fault_writing_the_zip_directory_leaves_the_old_checkpoint(
        tmp_path, monkeypatch, act):
    path, saved, new = old_and_new(tmp_path)
    monkeypatch.setattr(zipfile.ZipFile, "_write_end_record",
                        lambda self: act())
    with pytest.raises((Fault, KeyboardInterrupt)):
        pycg.save_variables(path, new)
    assert_untouched(path, saved)


@pytest.mark.parametrize("stage", ["fsync", "replace"])
def test_a_failed_fsync_or_rename_leaves_the_old_checkpoint(
        tmp_path, monkeypatch, stage):
    path, saved, new = old_and_new(tmp_path)

    def failing(*args):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, stage, failing)
    with pytest.raises(OSError, match=r"^pycg.save_variables: cannot write "
                       r".*w.npz' \(Input/output error\); the file there is "
                       r"left as it was$"):
        pycg.save_variables(path, new)
    monkeypatch.undo()
    assert_untouched(path, saved)


def test_ctrl_c_after_the_rename_leaves_the_new_checkpoint(tmp_path,
                                                           monkeypatch):
    path, _, new = old_and_new(tmp_path)
    real = os.replace

    def replace_then_interrupt(*args):
        real(*args)
        interrupt()

    monkeypatch.setattr(os, "replace", replace_then_interrupt)
    with pytest.raises(KeyboardInterrupt):
        pycg.save_variables(path, new)
    monkeypatch.undo()
    assert sorted(os.listdir(tmp_path)) == ["w.npz"]
    with np.load(path) as data:
        np.testing.assert_array_equal(data["w"], np.linspace(-1.0, 1.0, 6))


FSIZE = """
import resource, sys, numpy as np, pycg
path, limit = sys.argv[1], int(sys.argv[2])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
try:
    pycg.save_variables(path, [pycg.Variable(np.zeros(4096), name="w")])
except OSError as e:
    print(type(e).__name__, e)
"""


def test_a_file_size_limit_leaves_the_old_checkpoint(tmp_path):
    path, saved, _ = old_and_new(tmp_path)
    # (Python ignores SIGXFSZ: the write past the limit fails with EFBIG)
    run = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(FSIZE), str(path),
         str(len(saved) + 100)], capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYCG_BACKEND": "numpy"})
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip() == (
        f"OSError pycg.save_variables: cannot write {str(path)!r} (File too "
        f"large); the file there is left as it was")
    assert_untouched(path, saved)
