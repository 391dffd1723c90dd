"""Variables to and from a portable .npz file: one array per variable,
keyed by its name, no pickles (NumPy, R's reticulate or any zip reader can
read it). A save replaces the file whole or not at all (pycg/saving/files.py).

>>> import os, tempfile, pycg
>>> w = pycg.Variable([1.0, 2.0], name="w")
>>> path = os.path.join(tempfile.mkdtemp(), "weights.npz")
>>> pycg.save_variables(path, [w]) == path
True
>>> _ = w.assign([0.0, 0.0])
>>> _ = pycg.load_variables(path, [w])
>>> w.numpy().tolist()
[1.0, 2.0]
"""
import math
import os
import zipfile
import zlib
from collections.abc import Mapping, Sequence

import numpy as np

from pycg._errors import (Api, Dtype, Position, Shape, TypeOf, Value,
                          user_error)
from pycg.saving.all_or_nothing import assign_all
from pycg.saving.files import as_path, open_regular, replace_atomically
from pycg.saving.names import check_names
from pycg.saving.npy import read_header
from pycg.tensor import Variable


def save_variables(path: str | os.PathLike[str],
                   variables: Sequence[Variable] | Mapping[str, Variable]
                   ) -> str:
    """Write `variables` (a list of Variables, named by their `name` or by
    position as variable_0, variable_1, ...; or a dict name -> Variable) to
    `path` as .npz. The file is written beside `path` and renamed into its
    place once complete (flushed to disk), so a failure or an interrupt
    during the save leaves any previous file at `path` as it was.

    Args:
        path: The file to write (a str or os.PathLike).
        variables: A list of pycg.Variable, or a dict name -> Variable.

    Returns:
        `path`, as a str.

    Example:
    >>> import os, tempfile, pycg
    >>> w = pycg.Variable([1.0, 2.0], name="w")
    >>> path = os.path.join(tempfile.mkdtemp(), "w.npz")
    >>> _ = pycg.save_variables(path, [w])
    >>> _ = w.assign([0.0, 0.0])
    >>> _ = pycg.load_variables(path, [w])
    >>> w.numpy().tolist()
    [1.0, 2.0]
    """
    path = as_path(path, _SAVE)
    named = _named(variables, "save_variables")
    check_names(named, _SAVE)   # (before anything is written)
    arrays = [(name, v.numpy()) for name, v in named]
    replace_atomically(path, lambda f: _write_npz(f, arrays), _SAVE)
    return path


def _write_npz(f, arrays):
    """np.savez's file, each member written by its name (never passed as a
    keyword: a variable may be named `file` or `allow_pickle`)."""
    with zipfile.ZipFile(f, "w", zipfile.ZIP_STORED, allowZip64=True) as zf:
        for name, value in arrays:
            with zf.open(name + ".npy", "w", force_zip64=True) as member:
                np.lib.format.write_array(member, np.asarray(value),
                                          allow_pickle=False)


def load_variables(path: str | os.PathLike[str],
                   variables: Sequence[Variable] | Mapping[str, Variable]
                   ) -> Sequence[Variable] | Mapping[str, Variable]:
    """Assign the values saved in `path` to `variables` (named as in
    save_variables). The names must be the same set, and each value's shape
    and dtype must be the variable's. Returns the variables.

    The file is checked from its zip directory and each array's .npy header
    before any data is read, so a hostile file (a huge declared shape, a
    member that is no array) is refused at the cost of its headers. The
    variables are assigned all or nothing: every value is read and
    converted for the active backend first, and an exception or Ctrl-C
    while they are assigned leaves each as it was. A big-endian array loads as the
    variable's (native) dtype; raw bytes of a variable's size (NumPy writes
    bfloat16 as V2) load as the variable's dtype. `path` must be a regular
    file: a FIFO, a device, a directory or a socket is refused unopened.

    Args:
        path: The .npz file save_variables wrote (a str or os.PathLike).
        variables: The variables to assign, named as when they were saved:
            a list of pycg.Variable or a dict name -> Variable.

    Returns:
        `variables`, assigned.
    """
    who = _LOAD
    path = as_path(path, who)
    named = _named(variables, "load_variables")
    f = open_regular(path, who)
    try:
        with f, zipfile.ZipFile(f) as zf:
            members = _members(zf, path, named, who)
            headers = {name: _header(zf, members[name], v, who)
                       for name, v in named}
            values = {name: _data(zf, members[name], headers[name], v.dtype,
                                  who) for name, v in named}
    except UnicodeDecodeError as e:   # (zipfile, of a member's name)
        raise user_error(ValueError, "{api}: a member name in {path} is "
                         "marked UTF-8 but is not ({reason}); save_variables "
                         "writes UTF-8 names", api=who, path=Value(path),
                         reason=e.reason) from None
    except (OSError, EOFError, zipfile.BadZipFile, zlib.error,
            NotImplementedError, RuntimeError) as e:   # (Runtime: encrypted)
        raise user_error(ValueError, "{api}: cannot read {path} as a .npz "
                         "file of variables ({reason})", api=who,
                         path=Value(path), reason=e) from None
    assign_all([(name, v, values[name]) for name, v in named], who)
    return [v for _, v in named]


def _members(zf, path, named, who):
    """name -> ZipInfo of each .npy member, from the zip directory alone;
    the names must be the variables'."""
    members = {}
    for info in zf.infolist():
        if not info.filename.endswith(".npy"):
            raise user_error(
                ValueError, "{api}: member {member} of {path} is not a .npy "
                "array; a file of variables holds only .npy members (as "
                "save_variables writes)", api=who,
                member=Value(info.filename), path=Value(path))
        name = info.filename[:-len(".npy")]
        if name in members:
            raise user_error(ValueError, "{api}: member {member} appears "
                             "twice in {path}", api=who,
                             member=Value(info.filename), path=Value(path))
        members[name] = info
    missing = [n for n, _ in named if n not in members]
    extra = sorted(set(members) - {n for n, _ in named})
    if missing or extra:
        raise user_error(
            ValueError, "{api}: the names in {path} do not match the "
            "variables: missing from the file: {missing}; in the file but "
            "not among the variables: {extra}", api=who, path=Value(path),
            missing=missing or "none", extra=extra or "none")
    return members


def _header(zf, info, v, who):
    """(offset, shape, fortran_order, dtype) of one member, from its .npy
    header alone, checked against the variable `v`."""
    name, member = info.filename[:-len(".npy")], info.filename
    with zf.open(info) as f:
        try:
            shape, fortran, dtype = read_header(f)
        except ValueError as e:
            raise user_error(ValueError, "{api}: member {member} is not a "
                             "valid .npy array ({reason})", api=who,
                             member=Value(member), reason=e) from None
        offset = f.tell()
    if dtype.hasobject:
        raise user_error(TypeError, "{api}: {name} holds Python objects "
                         "(dtype object), which load_variables never "
                         "unpickles", api=who, name=Value(name))
    if tuple(shape) != v.shape:
        raise user_error(ValueError, "{api}: {name} has shape {found} in the "
                         "file but the variable has shape {shape}", api=who,
                         name=Value(name), found=Shape(shape),
                         shape=Shape(v.shape))
    if _raw_bytes_of(dtype, v.dtype):
        dtype = v.dtype
    elif dtype.newbyteorder("=") != v.dtype:
        raise user_error(TypeError, "{api}: {name} has dtype {found} in the "
                         "file but the variable has {dtype}", api=who,
                         name=Value(name), found=Dtype(_dtype_name(dtype)),
                         dtype=Dtype(v.dtype.name))
    nbytes = math.prod(shape) * dtype.itemsize
    if info.file_size != offset + nbytes:
        raise user_error(
            ValueError, "{api}: member {member} declares {nbytes} bytes of "
            "data (shape {shape}, {dtype}) but holds {held}", api=who,
            member=Value(member), nbytes=nbytes, shape=Shape(shape),
            dtype=Dtype(_dtype_name(dtype)), held=info.file_size - offset)
    return offset, shape, fortran, dtype


def _data(zf, info, header, dtype, who):
    """The member's array, read into one buffer of the variable's size."""
    offset, shape, fortran, stored = header
    flat = np.empty(math.prod(shape) * stored.itemsize, np.uint8)
    view, done = memoryview(flat), 0
    with zf.open(info) as f:
        f.read(offset)
        while done < len(view):
            got = f.readinto(view[done:])
            if not got:
                break
            done += got
        if done != len(view) or f.read(1):   # (at the end: the CRC check)
            raise user_error(ValueError, "{api}: member {member} does not "
                             "hold the {nbytes} bytes its header declares",
                             api=who, member=Value(info.filename),
                             nbytes=len(view))
    value = flat.view(stored).reshape(shape, order="F" if fortran else "C")
    return value if stored == dtype else value.astype(dtype)


def _raw_bytes_of(stored, dtype):
    """Whether `stored` is plain raw bytes of `dtype`'s size and `dtype` one
    that NumPy writes as such (bfloat16, an ml_dtypes type: kind V)."""
    return stored.kind == dtype.kind == "V" and stored.names is None and \
        dtype.names is None and stored.itemsize == dtype.itemsize


def _dtype_name(dtype):
    """float64, or >float64 for a non-native byte order; V2 (raw 2-byte
    values) for raw bytes."""
    if dtype.kind == "V" and dtype.names is None and \
            type(dtype) is type(np.dtype("V1")):
        return f"V{dtype.itemsize} (raw {dtype.itemsize}-byte values)"
    native = dtype.newbyteorder("=")
    return native.name if dtype == native else f"{dtype.byteorder}{native.name}"


_LOAD, _SAVE = Api("load_variables"), Api("save_variables")


def _named(variables, op):
    who = Api(op)
    if isinstance(variables, Variable):
        variables = [variables]
    if isinstance(variables, dict):
        pairs = list(variables.items())
    else:
        pairs = [(getattr(v, "name", None) or f"variable_{i}", v)
                 for i, v in enumerate(variables)]
    names = set()
    for i, (name, v) in enumerate(pairs):
        if not isinstance(v, Variable):
            raise user_error(TypeError, "{api}: item {i} ({name}) is a "
                             "{type}, not a {variable}", api=who,
                             i=Position(i), name=Value(name), type=TypeOf(v),
                             variable=Api("Variable"))
        if not isinstance(name, str) or not name:
            raise user_error(TypeError, "{api}: item {i} has name {name}; "
                             "names must be non-empty strings", api=who,
                             i=Position(i), name=Value(name))
        if name in names:
            raise user_error(ValueError, "{api}: two variables are named "
                             "{name}; names must be unique (pass a {dict} to "
                             "rename)", api=who, name=Value(name),
                             dict=TypeOf({}))
        names.add(name)
    return pairs
