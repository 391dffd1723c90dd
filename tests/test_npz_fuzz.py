"""Fuzzing pycg.load_variables with hostile .npz files: valid files written
by save_variables, then mutated (bytes flipped, cut short, headers rewritten
with random shapes, dtypes and layouts, members added, renamed, repeated or
replaced). Every load either assigns exactly what NumPy's own reader gives
for the file, or raises a pycg error (ValueError or TypeError naming
load_variables) and leaves every variable as it was; never another
exception, never a wrong value, never more than a second. 400 files by
default; PYCG_FUZZ_EXAMPLES raises it for `make soak`, which prints the
figures (calls, loads, clean errors, raw errors, wrong values)."""
import collections
import io
import os
import time
import warnings
import zipfile

import numpy as np
import pytest

import pycg

EXAMPLES = int(os.environ.get("PYCG_FUZZ_EXAMPLES", "400"))
DESCRS = ["<f4", ">f4", "<f8", ">f8", "<i4", ">i4", "|b1", "<c16", "|O",
          "<U3", "|V8", "<f2", "float64", "garbage"]


def variables():
    return {"dense/kernel": pycg.Variable(np.arange(6.0, dtype=np.float32)
                                          .reshape(2, 3)),
            "bias": pycg.Variable(np.array([0.5, -1.5])),
            "steps": pycg.Variable(np.array(3, np.int32), trainable=False)}


def valid_file(tmp_path):
    saved = variables()
    for v in saved.values():
        v.assign_add(np.ones(v.shape, v.dtype))
    return open(pycg.save_variables(tmp_path / "valid.npz", saved),
                "rb").read()


def payload(data):
    """The data of a .npy member, after its (version 1.0) header."""
    return data[10 + int.from_bytes(data[8:10], "little"):]


def npy_header(shape, descr, fortran):
    out = io.BytesIO()
    out.write(b"\x93NUMPY\x01\x00")
    text = (f"{{'descr': {descr!r}, 'fortran_order': {fortran}, "
            f"'shape': {tuple(shape)!r}, }}").encode("latin1")
    text += b" " * (-(len(text) + 11) % 64) + b"\n"
    out.write(len(text).to_bytes(2, "little") + text)
    return out.getvalue()


def members(raw):
    with zipfile.ZipFile(io.BytesIO(raw)) as z:
        return [(i.filename, z.read(i)) for i in z.infolist()]


def rezip(items, rng):
    out = io.BytesIO()
    method = rng.choice([zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED])
    with zipfile.ZipFile(out, "w", method) as z, warnings.catch_warnings():
        warnings.simplefilter("ignore")   # (a repeated name, on purpose)
        for name, data in items:
            z.writestr(name, data)
    return out.getvalue()


def mutate(raw, rng):
    """One hostile variant of the valid file `raw`: (kind, bytes)."""
    kind = rng.choice(["flip", "cut", "header", "extra", "rename", "repeat",
                       "data", "empty"])
    if kind == "flip":
        b = bytearray(raw)
        for at in rng.integers(0, len(b), rng.integers(1, 8)):
            b[at] ^= int(rng.integers(1, 256))
        return kind, bytes(b)
    if kind == "cut":
        return kind, raw[:int(rng.integers(0, len(raw)))]
    items = members(raw)
    i = int(rng.integers(len(items)))
    name, data = items[i]
    if kind == "header":
        ndim = int(rng.integers(0, 4))
        dims = rng.choice([0, 1, 2, 3, 6, 10**8, 10**12, 2**62], ndim)
        items[i] = (name, npy_header([int(d) for d in dims],
                                     str(rng.choice(DESCRS)),
                                     bool(rng.integers(2))) + payload(data))
    elif kind == "extra":
        extra = rng.choice(["notes.txt", "x.npy", "../up.npy", "bias.npy"])
        items.append((str(extra), bytes(rng.integers(0, 256, 40,
                                                     dtype=np.uint8))))
    elif kind == "rename":
        items[i] = (rng.choice(["w.npy", "bias", "BIAS.npy", ""]) or "e",
                    data)
    elif kind == "repeat":
        items.append(items[i])
    elif kind == "data":
        items[i] = (name, data[:len(data) - len(payload(data))] + bytes(
            rng.integers(
                0, 256, int(rng.integers(0, 64)), dtype=np.uint8)))
    else:
        items = []
    return kind, rezip(items, rng)


def numpy_reads(raw, names):
    """What NumPy's reader gives for each name, or None where it cannot."""
    try:
        with np.load(io.BytesIO(raw), allow_pickle=False) as data:
            if sorted(data.files) != sorted(names):
                return None
            return {n: np.asarray(data[n]) for n in names}
    except Exception:
        return None


def test_hostile_npz_files_load_right_or_fail_cleanly(tmp_path):
    rng = np.random.default_rng(2024)
    raw = valid_file(tmp_path)
    figures = collections.Counter()
    bad = []
    path = tmp_path / "fuzz.npz"
    for n in range(EXAMPLES):
        kind, mutated = mutate(raw, rng)
        path.write_bytes(mutated)
        targets = variables()
        before = {k: v.numpy().copy() for k, v in targets.items()}
        start = time.perf_counter()
        try:
            pycg.load_variables(path, targets)
            outcome = "loaded"
        except (ValueError, TypeError) as e:
            outcome = "clean error" if str(e).startswith(
                "pycg.load_variables: ") else "raw error"
            if outcome == "raw error":
                bad.append((n, kind, repr(e)[:200]))
        except Exception as e:   # (reported with the file's kind)
            outcome = "raw error"
            bad.append((n, kind, repr(e)[:200]))
        seconds = time.perf_counter() - start
        figures["calls"] += 1
        figures[outcome] += 1
        if seconds > 30:   # (a hang or a runaway allocation, not a speed:
            bad.append((n, kind, f"took {seconds:.2f} s"))   # CI is slow)
        if outcome == "loaded":
            expected = numpy_reads(mutated, list(targets))
            if expected is None or any(
                    not np.array_equal(targets[k].numpy(),
                                       expected[k].astype(targets[k].dtype))
                    or expected[k].dtype.newbyteorder("=") != targets[k].dtype
                    for k in targets):
                figures["wrong values"] += 1
                bad.append((n, kind, "loaded values NumPy does not read"))
        elif any(not np.array_equal(targets[k].numpy(), before[k])
                 for k in targets):
            figures["half assigned"] += 1
            bad.append((n, kind, "a variable changed before the error"))
    print(f"\nload_variables on {EXAMPLES} hostile files: {dict(figures)}")
    assert bad == [], bad[:10]
    assert figures["clean error"] > EXAMPLES // 2   # (the mutations bite)


@pytest.mark.parametrize("descr", DESCRS)
def test_every_declared_dtype_is_loaded_or_refused_by_name(tmp_path, descr):
    raw = members(valid_file(tmp_path))
    raw = [(n, npy_header((2,), descr, False) + payload(d))
           if n == "bias.npy" else (n, d) for n, d in raw]
    path = tmp_path / "w.npz"
    path.write_bytes(rezip(raw, np.random.default_rng(0)))
    targets = variables()
    try:
        pycg.load_variables(path, targets)
    except (ValueError, TypeError) as e:
        assert str(e).startswith("pycg.load_variables: "), repr(e)
    else:
        assert descr in ("<f8", ">f8", "float64")
        expected = numpy_reads(path.read_bytes(), list(targets))["bias"]
        assert targets["bias"].numpy().tolist() == expected.tolist()
