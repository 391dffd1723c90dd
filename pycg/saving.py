"""Variables to and from a portable .npz file: one array per variable,
keyed by its name, no pickles (NumPy, R's reticulate or any zip reader can
read it).

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
import os
import zipfile

import numpy as np

from pycg.tensor import Variable


def save_variables(path, variables):
    """Write `variables` (a list of Variables, named by their `name` or by
    position as variable_0, variable_1, ...; or a dict name -> Variable) to
    `path` as .npz. Returns `path`."""
    named = _named(variables, "save_variables")
    arrays = {name: v.numpy() for name, v in named}
    with open(os.fspath(path), "wb") as f:
        np.savez(f, **arrays)
    return os.fspath(path)


def load_variables(path, variables):
    """Assign the values saved in `path` to `variables` (named as in
    save_variables). The names must be the same set, and each value's shape
    and dtype must be the variable's. Returns the variables."""
    who = "pycg.load_variables"
    named = _named(variables, "load_variables")
    try:
        with np.load(os.fspath(path), allow_pickle=False) as data:
            saved = {k: data[k] for k in data.files}
    except (OSError, ValueError, zipfile.BadZipFile) as e:
        raise ValueError(f"{who}: cannot read {os.fspath(path)!r} as a .npz "
                         f"file of variables ({e})") from None
    missing = [n for n, _ in named if n not in saved]
    extra = sorted(set(saved) - {n for n, _ in named})
    if missing or extra:
        raise ValueError(
            f"{who}: the names in {os.fspath(path)!r} do not match the "
            f"variables: missing from the file: {missing or 'none'}; in the "
            f"file but not among the variables: {extra or 'none'}")
    for name, v in named:
        value = saved[name]
        if tuple(value.shape) != v.shape:
            raise ValueError(f"{who}: {name!r} has shape {tuple(value.shape)} "
                             f"in the file but the variable has shape "
                             f"{v.shape}")
        if value.dtype != v.dtype:
            raise TypeError(f"{who}: {name!r} has dtype {value.dtype.name} in "
                            f"the file but the variable has {v.dtype.name}")
    for name, v in named:
        v.assign(saved[name])
    return [v for _, v in named]


def _named(variables, op):
    who = f"pycg.{op}"
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
            raise TypeError(f"{who}: item {i} ({name!r}) is a "
                            f"{type(v).__name__}, not a pycg.Variable")
        if not isinstance(name, str) or not name:
            raise TypeError(f"{who}: item {i} has name {name!r}; names must "
                            f"be non-empty strings")
        if name in names:
            raise ValueError(f"{who}: two variables are named {name!r}; "
                             f"names must be unique (pass a dict to rename)")
        names.add(name)
    return pairs
