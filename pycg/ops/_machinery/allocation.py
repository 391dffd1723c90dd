"""One size guard for every op that makes a tensor whose size an argument
sets (a shape, a count, a number of classes, repeats, pad widths, ...):
`guard(op, shape, dtype)` runs before any backend allocates and refuses,
by the op's name, a tensor that cannot fit (more bytes than this process
can have now) or that no backend can describe (a dimension of 2**63 or
more). Every backend gives the same answer this way: jaxlib
aborts the process on sizes past int64, TensorFlow's allocator retries for
about 10 s before it gives up and NumPy words it its own way.
`allocated(...)` adds the same error after the fact, for a tensor under
the limit that the backend still cannot place. The limit is what is
available when the tensor is asked for (limit()), so a tensor that would
only fit by swapping the machine to a halt, or by the kernel's OOM killer,
is refused too.
"""
import math
import os

import numpy as np

from pycg import backends
from pycg._errors import Arg, Dtype, Fact, Op, Shape, user_error
from pycg.tensor import Tensor, as_dtype

try:
    import resource
except ImportError:   # (Windows: no address-space limit to read)
    resource = None

MAX_DIM = 2**63 - 1   # (int64: the largest dimension any backend takes)
UNKNOWN = 2**127      # (no such limit, or none that can be read)
SMALL = 2**26         # (64 MiB: always tried; the backend's error after)


def guard(op, shape, dtype, arg="shape"):
    """Refuse a tensor of `shape` and `dtype` made by `op` (an op's name, or
    an Api fact: pycg.random's draws; its argument `arg` set the shape)
    before anything is allocated. A shape with a dimension known only
    while a graph runs is left to the backend."""
    try:
        count = math.prod(shape)
    except TypeError:   # (None: a dimension known only while a graph runs)
        return
    if type(count) is not int:   # (NumPy ints, which wrap; or tensors)
        if not all(isinstance(d, (int, np.integer)) for d in shape):
            return
        shape = [int(d) for d in shape]
        count = math.prod(shape)
    if not isinstance(dtype, np.dtype):
        dtype = as_dtype(dtype, _who(op).python())
    nbytes = count * dtype.itemsize
    if nbytes <= SMALL and max(shape, default=0) <= MAX_DIM:
        return   # (the common case: no /proc to read)
    who = _who(op)
    for d in shape:
        if d > MAX_DIM:
            raise user_error(
                ValueError, "{op}: {arg} asks for a dimension of {dim}, "
                "more than a tensor can have (2**63 - 1)", op=who,
                arg=Arg(arg), dim=str(d))   # (str: R's numbers are doubles)
    most = limit(nbytes)
    if nbytes > most:
        raise user_error(
            MemoryError, "{op}: cannot allocate {nbytes} bytes ({size}) for "
            "a tensor of shape {shape} and dtype {dtype}: not enough memory "
            "({most} available)", op=who, nbytes=str(nbytes),
            size=size(nbytes), shape=Shape(shape), dtype=Dtype(dtype.name),
            most=size(most))


def _who(op):
    return op if isinstance(op, Fact) else Op(op)


def allocated(op, shape, dtype, kernel, *args):
    """Tensor(kernel(*args)) after the guard; an allocation that still
    cannot fit is the same MemoryError, naming the op."""
    guard(op, shape, dtype)
    try:
        return Tensor(kernel(*args))
    except backends.active.out_of_memory:
        dtype = as_dtype(dtype, f"pycg.ops.{op}")
        nbytes = math.prod(shape) * dtype.itemsize
        raise user_error(
            MemoryError, "{op}: cannot allocate {nbytes} bytes ({size}) for "
            "a tensor of shape {shape} and dtype {dtype}: not enough memory",
            op=Op(op), nbytes=str(nbytes), size=size(nbytes), shape=Shape(shape),
            dtype=Dtype(dtype.name)) from None


def limit(nbytes=None):
    """The bytes a new tensor may take: what this machine has available
    now (free RAM and swap), or less where the process's address space
    (RLIMIT_AS) or its cgroup is limited. Requests under SMALL are not
    worth reading /proc for (~20 us): they pass."""
    if nbytes is not None and nbytes <= SMALL:
        return nbytes
    most = min(_meminfo("MemAvailable", UNKNOWN) + _meminfo("SwapFree", 0),
               _cgroup_room())
    soft = resource.getrlimit(resource.RLIMIT_AS)[0] if resource else None
    if soft not in (None, getattr(resource, "RLIM_INFINITY", None)):
        most = min(most, soft - _address_space())
    return max(most, 0)


def size(nbytes):
    """3.64 TiB"""
    units, power = ("B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"), 0
    while power < len(units) - 1 and nbytes >= 1024 ** (power + 1):
        power += 1
    return f"{nbytes / 1024 ** power:.3g} {units[power]}"


def _address_space():
    """The bytes of address space this process uses now."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError, AttributeError):
        return 0


def _meminfo(field, missing):
    """A field of /proc/meminfo in bytes, or `missing` (no /proc, as on
    macOS, or a kernel without the field)."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return missing


def _cgroup_room():
    """What the process's cgroup (v2, or v1) may still take."""
    for folder, most, used in (
            ("/sys/fs/cgroup", "memory.max", "memory.current"),
            ("/sys/fs/cgroup/memory", "memory.limit_in_bytes",
             "memory.usage_in_bytes")):
        try:
            with open(os.path.join(folder, most)) as f:
                cap = int(f.read().strip())
            with open(os.path.join(folder, used)) as f:
                return cap - int(f.read().strip())
        except (OSError, ValueError):   # ("max", or no such file)
            continue
    return UNKNOWN
