"""Indexing by an index that has no value yet: a JAX tracer (inside
jax.jit, jax.vmap or pycg.function on the jax backend, or pycg.to_jax),
a TensorFlow graph tensor (inside pycg.function on tensorflow).

ops.take and x[i] gather flat positions that NumPy computes from the
static shape when the index is known (manipulation.py); here the backend
computes them from the index, as values of the same trace, and the same
gather (and its scatter-add gradient) picks the elements. An index out of
range cannot raise inside a trace: x[i] clamps it, as JAX's indexing
does, and ops.take fills its place, as jnp.take (keras.ops.take on JAX):
NaN for floats, the lowest value of a signed integer dtype, the highest of
an unsigned one, True for bools.
"""
import numpy as np

from pycg import backends
from pycg._errors import Op, user_error
from pycg.ops._machinery import dynamic as _dynamic
from pycg.tensor import Tensor


TRACED = object()   # known()'s answer for an index a trace holds


def known(index):
    """`index` with every tensor in it as NumPy, or TRACED where one has
    no value yet (JAX or TensorFlow traces it); None stays None (newaxis)."""
    parts = index if isinstance(index, tuple) else (index,)
    out = []
    for p in parts:
        if isinstance(p, Tensor):
            try:   # (a backend's to_numpy refuses a traced value)
                p = p.numpy()
            except TypeError:
                return TRACED
        out.append(p)
    return tuple(out) if isinstance(index, tuple) else out[0]


def take(gather, x, indices, axis, op="take"):
    """x's elements at traced `indices` along `axis` (None: flattened x),
    jnp.take's shape; `gather(x, positions)` is manipulation's gather."""
    shape = x.shape
    if axis is not None:
        if not -len(shape) <= axis < len(shape):
            raise user_error(ValueError, "{op}: axis {axis} is out of range "
                             "for a tensor of rank {rank}", op=Op(op),
                             axis=axis, rank=len(shape))
        axis %= len(shape)
    if not _dynamic.known(shape) or not _dynamic.known(indices.shape):
        raise _dynamic.unknown_error(op, x)
    if indices.dtype.kind not in "iu":
        raise TypeError(f"pycg.ops.{op}: indices must be integers, got "
                        f"dtype {indices.dtype}")
    pos, valid = _positions(shape, indices._value, axis, op == "getitem")
    out = gather(x, pos)
    if valid is None:
        return out
    from pycg.ops.elementwise import where
    return where(Tensor(valid), out, _fill(x.dtype))


def getitem(gather, x, index):
    """x[index] where `index` holds traced integer tensors: one alone (any
    rank, along the first axis), or scalars among ints, slices, None and
    ``...`` (each one picks along its axis, as an int would)."""
    parts = list(index) if isinstance(index, tuple) else [index]
    if len(parts) == 1:
        return take(gather, x, parts[0], 0, "getitem")
    if any(np.ndim(p) != 0 for p in parts if p is not None and
           not isinstance(p, (slice, type(Ellipsis)))):
        raise user_error(
            TypeError, "{op}: with an index JAX or TensorFlow traces, index "
            "with one integer tensor alone, or integer scalar tensors among "
            "ints, slices, None and ...; use ops.take (or "
            "ops.take_along_axis) for the rest", op=Op("getitem"))
    kinds = [type(p) for p in parts]   # (a tensor's == is an op)
    if type(Ellipsis) in kinds:
        at = kinds.index(type(Ellipsis))
        fill = x.ndim - (len(parts) - 1 - kinds.count(type(None)))
        parts[at:at + 1] = [slice(None)] * fill
    picks, axis = [], 0
    for k, p in enumerate(parts):
        if isinstance(p, Tensor):
            picks.append((axis, p))
            parts[k] = slice(None)
        if p is None or isinstance(p, (slice, Tensor)):
            axis += 1
    out = x[tuple(parts)]
    for axis, t in reversed(picks):
        out = take(gather, out, t, axis, "getitem")
    return out


def _positions(shape, ind, axis, clip):
    """(flat positions of ind's elements along `axis` in a tensor of
    `shape`, in jnp.take's layout; where ind is in range, or None when
    clipping), computed by the backend from the index value `ind`."""
    K = backends.active
    size = int(np.prod(shape, dtype=np.int64))
    n = size if axis is None else shape[axis]
    dtype = np.dtype("int32" if size < 2 ** 31 else "int64")
    i = K.cast(ind, dtype)
    i = K.where(K.less(i, K.scalar_like(0, i)),
                K.add(i, K.scalar_like(n, i)), i)
    valid = None
    if clip:   # (JAX's indexing)
        i = K.minimum(K.maximum(i, K.scalar_like(0, i)),
                      K.scalar_like(max(n - 1, 0), i))
    else:
        valid = K.logical_and(K.greater_equal(i, K.scalar_like(0, i)),
                              K.less(i, K.scalar_like(n, i)))
        i = K.where(valid, i, K.scalar_like(0, i))
    if axis is None:
        return i, valid
    ishape = tuple(ind.shape)
    grid = np.moveaxis(np.arange(size, dtype=dtype).reshape(shape), axis, 0)
    rest = grid.shape[1:]
    m = int(np.prod(rest, dtype=np.int64))
    flat = K.add(K.multiply(K.reshape(i, ishape + (1,)), K.scalar_like(m, i)),
                 K.convert(np.arange(m, dtype=dtype)))
    pos = K.reshape(K.gather_flat(K.convert(grid.reshape(n, m)), flat),
                    ishape + rest)
    k = len(ishape)   # (ind's axes go where `axis` was)
    perm = [*range(k, k + axis), *range(k), *range(k + axis, k + len(rest))]
    pos = K.transpose(pos, perm)
    if valid is not None:
        valid = K.reshape(valid, (1,) * axis + ishape +
                          (1,) * (len(rest) - axis))
    return pos, valid


def _fill(dtype):
    """jnp.take's fill value for an index out of range."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return np.True_
    if dtype.kind == "i":
        return np.iinfo(dtype).min
    if dtype.kind == "u":
        return np.iinfo(dtype).max
    return np.array(np.nan, dtype)
