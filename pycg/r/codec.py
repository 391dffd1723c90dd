"""Arrays across the R border, both ways and for both directions (pycg.r,
R inside Python; the R package, Python inside R).

reticulate 1.28 refuses NumPy 2 for its own array conversion, so no array
goes through it: an array travels as ``(data, shape, kind)``, `data` the
little-endian bytes of its elements in R's column-major order, `shape` a
list of extents, `kind` R's storage type; R's NA_real_ keeps its bits (a NaN whose low
word is 1954), made a quiet NaN here. R writes them with writeBin() and
reads them with readBin() (array_to_raw() and raw_to_array() in
R/convert.R, the R half of this codec).

A large array crosses in pieces, so that no copy of the whole array is made
on the way but the one the tensor (or R's result) holds: R writes each piece
of its bytes straight into the tensor's array (`Staged`), and reads a
tensor back piece by piece into the R vector it allocated (`Pieces`). A
piece is a block of the array that is contiguous in R's column-major order
(whole leading axes, a run along one axis, fixed indices after it), at most
`limit` elements (R chooses it).

=========  ==============  ===========================  =================
R kind     bytes (each)    tensor dtype from R          NumPy dtypes to R
=========  ==============  ===========================  =================
double     float64 (8)     float64                      floats, int64,
                                                        uint32, uint64
integer    int32 (4)       int32                        int8-32, uint8-16
logical    int32 (4)       bool                         bool
complex    complex128(16)  complex128                   complex
=========  ==============  ===========================  =================
"""
import numpy as np

from pycg.tensor import Tensor, adopt
from pycg.tensor.convert import as_dtype, backend_of

# R kind -> (the stored element, the tensor dtype)
DTYPES = {"double": ("<f8", "float64"), "integer": ("<i4", "int32"),
          "logical": ("<i4", "bool"), "complex": ("<c16", "complex128")}

_NOT_NUMBERS = {"U": "strings", "S": "bytes", "O": "Python objects",
                "M": "datetimes", "m": "timedeltas", "V": "records"}


def from_r(data, shape, kind, dtype=None):
    """A tensor from the column-major bytes of an R vector or array; with
    `dtype` (the dtype an op asked of this data) converted to it first, in
    NumPy, as convert_to_tensor(array, dtype) does. A `dtype` that is no
    dtype leaves a NumPy array, for the op's own error to name it."""
    stored, own = DTYPES[kind]
    if isinstance(data, Staged):
        a = data.take()
    else:
        a = np.frombuffer(data, dtype=stored).reshape(shape, order="F")
        a = np.array(a, dtype=own, order="C")
        if kind in ("double", "complex"):
            _quiet_nans(a)
    if dtype is None:
        return adopt(a)
    try:
        as_dtype(dtype, "")
    except TypeError:
        return a
    return adopt(a, dtype)


def _pieces(shape, limit):
    """The pieces of an array of `shape` in R's order: (NumPy index, its
    R-order block shape, element count) each."""
    p, m = 1, 0
    while m < len(shape) - 1 and p * shape[m] <= limit:
        p, m = p * shape[m], m + 1
    run = max(1, limit // p)
    out = []
    for rest in np.ndindex(*reversed(shape[m + 1:])):
        fixed = tuple(reversed(rest))   # (the first varies fastest, as in R)
        for j in range(0, shape[m], run):
            k = min(shape[m], j + run)
            out.append(((slice(None),) * m + (slice(j, k),) + fixed,
                        tuple(shape[:m]) + (k - j,), p * (k - j)))
    return out


class Staged:
    """An R array on its way into a tensor: R fills the tensor's C-order
    array piece by piece (`counts()`, then `fill(i, bytes)` for each), and
    `from_r` takes it, once."""

    def __init__(self, shape, kind, limit):
        self.kind = kind
        self._array = _aligned_empty(tuple(shape), DTYPES[kind][1])
        self._pieces = _pieces(tuple(shape), int(limit))

    def counts(self):
        """The number of elements in each piece, in R's order."""
        return [n for _, _, n in self._pieces]

    def fill(self, i, data):
        index, block, _ = self._pieces[i]
        b = np.frombuffer(data, dtype=DTYPES[self.kind][0])
        if self.kind in ("double", "complex"):
            b = b.copy() if not b.flags.writeable else b
            _quiet_nans(b)
        self._array[index] = b.reshape(block, order="F")

    def take(self):
        a, self._array = self._array, None
        if a is None:
            raise ValueError("pycg: an R array staged for Python was read "
                             "twice; convert the R value again")
        return a


def _read(x):
    """A tensor's values for R to read, never written: the backend's
    read-only view of its memory where it has one (TensorFlow's DLPack, so
    no copy beside the R result), else x.numpy()."""
    view = getattr(backend_of(x._value), "numpy_view", None)
    return x.numpy() if view is None else view(x._value)


def _aligned_empty(shape, dtype, align=64):
    """np.empty(shape, dtype) whose data start on an `align`-byte boundary
    (what TensorFlow needs to keep an array's memory: backends' adopt())."""
    dtype = np.dtype(dtype)
    nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    raw = np.empty(nbytes + align, dtype=np.uint8)
    start = -raw.ctypes.data % align
    return raw[start:start + nbytes].view(dtype).reshape(shape)


def _quiet_nans(a):
    """R's NA_real_ is a signalling NaN (payload 1954), which NumPy warns
    about in arithmetic: made quiet in place, its payload kept (R reads it
    back as NA)."""
    floats = a.view(np.float64)
    nan = np.isnan(floats)
    if nan.any():
        floats.view(np.uint64)[nan] |= np.uint64(1 << 51)


def to_r(x, limit=None):
    """``(data, shape, kind)`` of a tensor, NumPy array or number, for R;
    `data` is a `Pieces` for an array of more than `limit` elements."""
    a = np.asarray(_read(x) if isinstance(x, Tensor) else x)
    k = a.dtype.kind
    if k == "b":
        kind = "logical"
    elif k == "i" and a.dtype.itemsize <= 4 or \
            k == "u" and a.dtype.itemsize <= 2:
        kind = "integer"
    elif k in "iuf":  # int64 and uint32+ do not fit R's 32-bit integer
        kind = "double"
    elif k == "c":
        kind = "complex"
    else:
        what = _NOT_NUMBERS.get(k, "values")
        raise TypeError(
            f"pycg: an array of {what} (dtype {a.dtype}) cannot go to R: "
            f"only arrays of numbers, booleans and complex numbers cross; "
            f"pass a list (an R list) or one str (an R string) instead")
    if limit is not None and a.size > limit:
        return Pieces(a, kind, int(limit)), list(a.shape), kind
    return _column_major(a, kind), list(a.shape), kind


def _column_major(a, kind):
    # the transpose of a Fortran-ordered array is C-contiguous: its buffer
    # holds the column-major bytes R expects
    return bytearray(np.asfortranarray(a, dtype=DTYPES[kind][0]).T)


class Pieces:
    """A large array on its way to R: R allocates the vector and reads
    `piece(i)` for each of `counts()` into it."""

    def __init__(self, a, kind, limit):
        self._array, self.kind = a, kind
        self._pieces = _pieces(a.shape, limit)

    def counts(self):
        return [n for _, _, n in self._pieces]

    def piece(self, i):
        return _column_major(self._array[self._pieces[i][0]], self.kind)
