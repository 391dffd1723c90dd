"""A .npy member's header, read with the length it declares bounded before
anything of that length is read.

NumPy's read_array_header_1_0/2_0 read as many bytes as the header's
length field declares and only then compare that with `max_header_size`:
a 389 KB file whose version 2.0 header declares 400 MB costs that much
memory before it is refused. Here the length is checked first, against
NumPy's own bound (what np.load parses), as safetensors checks its header
length against MAX_HEADER_SIZE; the bytes are then parsed by NumPy.
"""
import io
import struct

import numpy as np

# NumPy's max_header_size: np.load refuses a longer header, save_variables
# never writes one (a 64-dimensional shape of 20-digit sizes fits)
MAX_HEADER_BYTES = 10_000
_LENGTH_FIELDS = {(1, 0): "<H", (2, 0): "<I"}
_READERS = {(1, 0): np.lib.format.read_array_header_1_0,
            (2, 0): np.lib.format.read_array_header_2_0}
_MAGIC_BYTES = np.lib.format.MAGIC_LEN


def read_header(f):
    """(shape, fortran_order, dtype) from the .npy stream `f`, left at the
    start of its data; a ValueError saying why for a header that is not one
    save_variables writes (version 1.0; 2.0 read too)."""
    magic = f.read(_MAGIC_BYTES)
    version = np.lib.format.read_magic(io.BytesIO(magic))
    field = _LENGTH_FIELDS.get(version)
    if field is None:
        raise ValueError(f"format version {version[0]}.{version[1]} is not "
                         f"one save_variables writes (1.0)")
    size = _exactly(f, struct.calcsize(field), "header length")
    (length,) = struct.unpack(field, size)
    if length > MAX_HEADER_BYTES:
        raise ValueError(f"its header declares {length} bytes; a .npy header "
                         f"holds at most {MAX_HEADER_BYTES} (NumPy's bound), "
                         f"and save_variables writes one of about 128")
    header = _exactly(f, length, "header")
    return _READERS[version](io.BytesIO(size + header))


def _exactly(f, n, what):
    """n bytes of `f`, or a ValueError: the member ends inside `what`."""
    data = f.read(n)
    if len(data) != n:
        raise ValueError(f"the member ends after {len(data)} of the {n} "
                         f"bytes of its {what}")
    return data
