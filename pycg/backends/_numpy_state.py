"""NumPy kernels for state: variables (storage that assign() replaces)
and host calls (a NumPy function of concrete values). Imported by
backends/numpy.py."""
import contextlib

import numpy as np


# ---- variables: storage that assign() replaces ---------------------------
def variable(value):
    return np.array(value)


def read(store):
    return store


def assign(store, value):
    return np.array(value, dtype=store.dtype)


def assign_add(store, delta):
    return np.array(store + delta, dtype=store.dtype)


def assign_sub(store, delta):
    return np.array(store - delta, dtype=store.dtype)


# ---- host calls: a NumPy function of concrete values ----------------------
def host_call(fn, args, dtype, shape):
    return fn(*[np.asarray(a) for a in args])


def outside_graph():
    """A context where new variables are created eagerly (no graphs here)."""
    return contextlib.nullcontext()
