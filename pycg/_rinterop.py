"""The Python half of the R package's conversions (R/convert.R is the other).

reticulate 1.28 refuses NumPy 2 for its own array conversion, so R arrays
travel as raw bytes: R sends `{ARRAY_KEY: bytearray, "shape": [...], "dtype":
"float64" | "int32" | "bool" | "complex128"}` (column-major bytes), 1-based
index tensors as `{INDEX_KEY: tensor}` and tuples as `{TUPLE_KEY: [...]}`;
`to_r` answers a tuple `(bytearray, shape, kind)` that R reads back with
readBin(). Every R wrapper is one call to `call`, which decodes its
arguments, runs the op and hands back either the result or a `Failure`
(R re-raises it as an R error).
"""
import inspect
import traceback

import numpy as np

import pycg
from pycg.tensor import Tensor

ARRAY_KEY = "__pycg_r_array__"
INDEX_KEY = "__pycg_r_index__"
TUPLE_KEY = "__pycg_r_tuple__"
_R_TYPES = {"float64": "<f8", "int32": "<i4", "bool": "<i4",
            "complex128": "<c16"}


class Failure:
    """An exception caught in `call`, handed to R as a value."""

    def __init__(self, exc):
        self.type = type(exc).__name__
        self.message = str(exc)
        self.traceback = "".join(traceback.format_exception(exc))


def from_r(buf, shape, dtype):
    """A tensor from the column-major bytes of an R vector or array."""
    a = np.frombuffer(buf, dtype=_R_TYPES[dtype]).reshape(shape, order="F")
    a = np.ascontiguousarray(a, dtype=dtype)
    return pycg.convert_to_tensor(a)


def to_r(x):
    """(bytes, shape, kind) of a tensor, array or number for R's readBin:
    kind is "double", "integer", "logical" or "complex"."""
    a = np.asarray(x.numpy() if isinstance(x, Tensor) else x)
    k = a.dtype.kind
    fits_r_integer = k == "i" and a.dtype.itemsize <= 4 or \
        k == "u" and a.dtype.itemsize <= 2
    if k == "b":
        kind, a = "logical", a.astype("<i4")
    elif fits_r_integer:
        kind, a = "integer", a.astype("<i4")
    elif k in "iuf":  # int64 and uint32+ do not fit R's 32-bit integer
        kind, a = "double", a.astype("<f8")
    elif k == "c":
        kind, a = "complex", a.astype("<c16")
    else:
        raise TypeError(f"pycg: cannot convert a {a.dtype} array to R")
    # the transpose of a Fortran-ordered array is C-contiguous: its buffer
    # holds the column-major bytes R expects
    return bytearray(np.asfortranarray(a).T), list(a.shape), kind


def _decode(x):
    if type(x) is dict:
        if ARRAY_KEY in x:
            return from_r(x[ARRAY_KEY], x["shape"], x["dtype"])
        if INDEX_KEY in x:
            return pycg.ops.subtract(pycg.convert_to_tensor(x[INDEX_KEY]), 1)
        if TUPLE_KEY in x:
            return tuple(_decode(v) for v in x[TUPLE_KEY])
        return {k: _decode(v) for k, v in x.items()}
    if type(x) is list:
        return [_decode(v) for v in x]
    if type(x) is tuple:
        return tuple(_decode(v) for v in x)
    return x


def decode(x):
    """The Python value of an argument marshalled by R/convert.R."""
    return _decode(x)


def call(fn, *args, **kwargs):
    """fn(*args, **kwargs) on decoded arguments, or a Failure."""
    try:
        return fn(*[_decode(a) for a in args],
                  **{k: _decode(v) for k, v in kwargs.items()})
    except Exception as exc:  # R turns the Failure into an R error
        return Failure(exc)


def call_index(fn, which, *args, **kwargs):
    """Like `call`, for ops returning 0-based indices: adds 1 to the output
    (to output `which` of a tuple, or to every one when `which` is None),
    for R."""
    out = call(fn, *args, **kwargs)
    if isinstance(out, Failure):
        return out
    try:
        if which is None and isinstance(out, (tuple, list)):
            return tuple(pycg.ops.add(o, 1) for o in out)
        if which is None:
            return pycg.ops.add(out, 1)
        if isinstance(out, (tuple, list)):
            out = list(out)
            out[which] = pycg.ops.add(out[which], 1)
            return tuple(out)
        return pycg.ops.add(out, 1)
    except Exception as exc:
        return Failure(exc)


def r_function(fn, spec, name):
    """An R function as a Python callable with signature `spec` and a name
    that error messages can show."""
    proxy = pycg.with_signature(fn, spec)
    for attr in ("__name__", "__qualname__"):
        try:
            setattr(proxy, attr, name)
        except (AttributeError, TypeError):
            pass
    return proxy


def signature_of(fn):
    """The signature string of a Python callable (tests use it)."""
    return str(inspect.signature(fn))


def r_subset(x, index, drop):
    """x[i, j, ...] with R's rules: 1-based positive indices select,
    negative ones exclude, logical ones mask (recycled), NULL (a missing
    index) keeps the whole extent; one index on an array indexes it in
    column-major order; `drop` removes every extent of length 1."""
    ops = pycg.ops
    x = pycg.convert_to_tensor(x)
    if len(index) == 1 and x.ndim != 1:
        if index[0] is None:
            return x
        x = r_ravel(x)
    elif len(index) != x.ndim:
        raise IndexError(
            f"pycg: incorrect number of dimensions: {len(index)} indices for "
            f"a tensor of {x.ndim} dimensions")
    for axis, i in enumerate(index):
        if i is not None:
            x = ops.take(x, _r_positions(i, x.shape[axis], axis), axis=axis)
    if drop and 1 in x.shape:
        x = ops.reshape(x, tuple(d for d in x.shape if d != 1))
    return x


def _r_positions(i, extent, axis):
    a = np.asarray(i.numpy() if isinstance(i, Tensor) else i)
    if a.dtype == bool:
        if a.size > extent:
            raise IndexError(
                f"pycg: logical index of length {a.size} for an extent of "
                f"{extent} (dimension {axis + 1})")
        return np.flatnonzero(np.resize(a, extent) if a.size else a)
    if a.dtype.kind not in "iuf":
        raise IndexError(f"pycg: indices must be numbers or logicals, "
                         f"got {a.dtype}")
    a = np.trunc(a.reshape(-1)).astype(np.int64)
    if (a > extent).any():
        raise IndexError(
            f"pycg: subscript out of bounds: index {a.max()} for an extent "
            f"of {extent} (dimension {axis + 1})")
    if (a >= 0).all():
        return a[a != 0] - 1
    if (a <= 0).all():
        keep = np.ones(extent, dtype=bool)
        keep[-a[(a != 0) & (a >= -extent)] - 1] = False
        return np.flatnonzero(keep)
    raise IndexError("pycg: can't mix positive and negative subscripts")


def r_ravel(x):
    """The elements of x in R's (column-major) order, as a 1-d tensor."""
    ops = pycg.ops
    x = pycg.convert_to_tensor(x)
    return ops.reshape(ops.transpose(x), (-1,)) if x.ndim > 1 else \
        ops.reshape(x, (-1,))


def r_cumulative(fn, x):
    """R's cumsum()/cumprod() on a tensor: along the column-major order."""
    return fn(r_ravel(x), axis=0)
