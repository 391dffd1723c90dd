"""load_variables bounds each length a .npy member declares before it reads
that much: a header length over NumPy's bound (10,000 bytes) is refused
from its 4-byte length field, so a small deflated file whose header
expands to hundreds of MB costs neither that memory nor the time to
inflate it. (The data that follows is read into one buffer of the
variable's own size, after the declared shape and the zip directory's
size agree with it: tests/test_saving_hostile.py.)"""
import io
import json
import os
import struct
import subprocess
import sys
import zipfile

import numpy as np
import pytest

import pycg

DECLARED = 200_000_000   # bytes of header, deflated to about 200 KB


def _bomb(path, declared=DECLARED, version=2):
    """A .npz whose one member `w.npy` has a header declaring `declared`
    bytes and holding them: "{" then spaces, deflated."""
    field = "<I" if version == 2 else "<H"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        with zf.open("w.npy", "w", force_zip64=True) as member:
            member.write(b"\x93NUMPY" + bytes([version, 0]) +
                         struct.pack(field, declared) + b"{")
            chunk = b" " * (1 << 20)
            left = declared - 1
            while left:
                member.write(chunk[:min(left, len(chunk))])
                left -= min(left, len(chunk))
    return path


# In a process of its own: its peak memory before and after the load
PEAK = r"""
import json, resource, sys, time
import pycg
w = pycg.Variable([1.0, 2.0], name="w")
pycg.save_variables(sys.argv[2], [w])   # (warm: every module loaded)
pycg.load_variables(sys.argv[2], [w])
before, start = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, \
    time.perf_counter()
try:
    pycg.load_variables(sys.argv[1], [w])
    error = None
except ValueError as e:
    error = str(e)
print(json.dumps({"error": error, "seconds": time.perf_counter() - start,
                  "grown_kib": resource.getrusage(
                      resource.RUSAGE_SELF).ru_maxrss - before,
                  "w": w.numpy().tolist()}))
"""


def test_a_huge_declared_header_is_refused_before_it_is_read(tmp_path):
    path = _bomb(tmp_path / "bomb.npz")
    assert path.stat().st_size < 1_000_000   # (small on disk)
    out = subprocess.run(
        [sys.executable, "-c", PEAK, str(path), str(tmp_path / "ok.npz")],
        capture_output=True, text=True, timeout=300,
        env={**os.environ, "PYCG_BACKEND": "numpy"})
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["error"] == (
        f"pycg.load_variables: member 'w.npy' is not a valid .npy array (its "
        f"header declares {DECLARED} bytes; a .npy header holds at most "
        f"10000 (NumPy's bound), and save_variables writes one of about "
        f"128)")
    assert result["w"] == [1.0, 2.0]
    # reading the header would grow the peak by DECLARED bytes at least
    assert result["grown_kib"] < 20_000
    assert result["seconds"] < 0.5


@pytest.mark.parametrize("version", [1, 2])
def test_a_header_one_byte_over_the_bound_is_refused(tmp_path, version):
    path = _bomb(tmp_path / "w.npz", declared=10_001, version=version)
    with pytest.raises(ValueError, match=r"^pycg\.load_variables: member "
                       r"'w\.npy' is not a valid \.npy array \(its header "
                       r"declares 10001 bytes"):
        pycg.load_variables(path, [pycg.Variable([1.0], name="w")])


@pytest.mark.parametrize("version", [(1, 0), (2, 0)])
def test_a_header_at_the_bound_is_read(tmp_path, backend, version):
    """NumPy's own header, padded to 10,000 bytes with spaces, loads."""
    header = io.BytesIO()
    {(1, 0): np.lib.format.write_array_header_1_0,
     (2, 0): np.lib.format.write_array_header_2_0}[version](
        header, {"descr": "<f4", "fortran_order": False, "shape": (2,)})
    prefix = 8 + (2 if version == (1, 0) else 4)
    text = header.getvalue()[prefix:].rstrip(b"\n")
    text = text.ljust(10_000 - 1) + b"\n"
    field = "<H" if version == (1, 0) else "<I"
    member = (b"\x93NUMPY" + bytes(version) + struct.pack(field, len(text)) +
              text + np.array([3.0, 4.0], "<f4").tobytes())
    path = tmp_path / "w.npz"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("w.npy", member)
    w = pycg.Variable(np.zeros(2, "float32"), name="w")
    pycg.load_variables(path, [w])
    assert w.numpy().tolist() == [3.0, 4.0]


def test_a_member_that_ends_inside_its_header_length_is_named(tmp_path):
    path = tmp_path / "w.npz"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("w.npy", b"\x93NUMPY\x02\x00\x10")
    with pytest.raises(ValueError, match=r"^pycg\.load_variables: member "
                       r"'w\.npy' is not a valid \.npy array \(the member "
                       r"ends after 1 of the 4 bytes of its header "
                       r"length\)$"):
        pycg.load_variables(path, [pycg.Variable([1.0], name="w")])
