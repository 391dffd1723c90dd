"""Arrays across the R border, both ways and for both directions (pycg.r,
R inside Python; the R package, Python inside R).

reticulate 1.28 refuses NumPy 2 for its own array conversion, so no array
goes through it: an array travels as ``(data, shape, kind)``, `data` the
little-endian bytes of its elements in R's column-major order, `shape` a
list of extents, `kind` R's storage type; R's NA_real_ keeps its bits (a NaN whose low
word is 1954), made a quiet NaN here. R writes them with writeBin() and
reads them with readBin() (array_to_raw() and raw_to_array() in
R/convert.R, the R half of this codec).

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

from pycg.tensor import Tensor, convert_to_tensor
from pycg.tensor.convert import as_dtype

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
    a = np.frombuffer(data, dtype=stored).reshape(shape, order="F")
    a = np.array(a, dtype=own, order="C")
    if kind in ("double", "complex"):
        _quiet_nans(a)
    if dtype is None:
        return convert_to_tensor(a)
    try:
        as_dtype(dtype, "")
    except TypeError:
        return a
    return convert_to_tensor(a, dtype)


def _quiet_nans(a):
    """R's NA_real_ is a signalling NaN (payload 1954), which NumPy warns
    about in arithmetic: made quiet in place, its payload kept (R reads it
    back as NA)."""
    floats = a.view(np.float64)
    nan = np.isnan(floats)
    if nan.any():
        floats.view(np.uint64)[nan] |= np.uint64(1 << 51)


def to_r(x):
    """``(data, shape, kind)`` of a tensor, NumPy array or number, for R."""
    a = np.asarray(x.numpy() if isinstance(x, Tensor) else x)
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
    a = a.astype(DTYPES[kind][0])
    # the transpose of a Fortran-ordered array is C-contiguous: its buffer
    # holds the column-major bytes R expects
    return bytearray(np.asfortranarray(a).T), list(a.shape), kind
