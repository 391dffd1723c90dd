"""More tensor constructors (keras.ops names): triangles, grids, spaced
ranges, Vandermonde matrices and window functions."""
import numpy as np

from pycg import backends, config
from pycg._errors import Op, Shape, user_error
from pycg.ops._machinery.allocation import guard
from pycg.ops._machinery.arguments import as_int, norm_shape
from pycg.ops._machinery.dispatch import as_tensor
from pycg.ops.creation import (_eye_as, _linspace_as, _zeros_as, cast,
                               convert_to_tensor, zeros)
from pycg.ops.elementwise import floor_divide, mod, power
from pycg.ops.manipulation import broadcast_to, reshape, stack
from pycg.tensor import Tensor, is_float

__all__ = ("array", "bartlett", "blackman", "empty", "empty_like", "geomspace",
           "hamming", "hanning", "identity", "kaiser", "logspace", "meshgrid",
           "tri", "unravel_index", "vander")


def _const(value, dtype=None):
    return Tensor(backends.active.convert(np.asarray(
        value, dtype=np.dtype(dtype or config.floatx()))))


def tri(N, M=None, k=0, dtype=None):
    """Ones at and below the k-th diagonal."""
    N, k = as_int(N, "tri", "N"), as_int(k, "tri", "k")
    M = None if M is None else as_int(M, "tri", "M")
    guard("tri", (N, N if M is None else M), dtype or config.floatx(), "N")
    return _const(np.tri(N, M, k), dtype)


def identity(n, dtype=None):
    return _eye_as("identity", n, None, 0, dtype)


def empty(shape, dtype=None):
    """A tensor of `shape` (zeros: values are never left uninitialised)."""
    return _zeros_as("empty", shape, dtype)


def empty_like(x, dtype=None):
    x = as_tensor(x, "empty_like")
    return zeros(x.shape, dtype or x.dtype)


def array(x, dtype=None):
    return convert_to_tensor(x, dtype)


def logspace(start, stop, num=50, endpoint=True, base=10, dtype=None,
             axis=0):
    """base ** linspace(start, stop, num)."""
    exps = _linspace_as("logspace", start, stop, num, endpoint, False,
                        config.floatx() if dtype is None or
                        not is_float(dtype) else dtype, 0)
    out = power(float(base), exps)
    return out if dtype is None else cast(out, dtype)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """Numbers spaced evenly on a log scale from start to stop."""
    if start == 0 or stop == 0 or (start < 0) != (stop < 0):
        raise ValueError(f"pycg.ops.geomspace: start and stop must be "
                         f"nonzero and of one sign, got {start} and {stop}")
    sign, num = -1.0 if start < 0 else 1.0, as_int(num, "geomspace", "num")
    guard("geomspace", (num,), "float64", "num")   # (NumPy's, on the host)
    values = sign * np.geomspace(abs(start), abs(stop), num,
                                 endpoint=endpoint)
    return _const(values, dtype)


def meshgrid(*x, indexing="xy"):
    """Coordinate grids from 1-d tensors ('xy': Cartesian, 'ij': matrix).

    >>> from pycg import ops
    >>> xs, ys = ops.meshgrid([1, 2], [3, 4, 5])
    >>> xs.shape, ys.numpy()[:, 0].tolist()
    ((3, 2), [3, 4, 5])
    """
    if indexing not in ("xy", "ij"):
        raise ValueError(f"pycg.ops.meshgrid: indexing must be 'xy' or 'ij',"
                         f" got {indexing!r}")
    xs = [reshape(as_tensor(t, "meshgrid"), (-1,)) for t in x]
    shape = [t.shape[0] for t in xs]
    if indexing == "xy" and len(xs) >= 2:
        shape[0], shape[1] = shape[1], shape[0]
    for t in xs:
        guard("meshgrid", shape, t.dtype)
    out = []
    for i, t in enumerate(xs):
        pos = (1 - i if i < 2 else i) if indexing == "xy" and len(xs) >= 2 \
            else i
        view = [1] * len(xs)
        view[pos] = -1
        out.append(broadcast_to(reshape(t, view), shape))
    return out


def vander(x, N=None, increasing=False):
    """Columns are powers of 1-d x (decreasing unless `increasing`)."""
    x = as_tensor(x, "vander")
    if x.ndim != 1:
        raise user_error(ValueError, "{op}: x must be 1-d, got shape {shape}",
                         op=Op("vander"), shape=Shape(x.shape))
    n = x.shape[0] if N is None else as_int(N, "vander", "N")
    guard("vander", (x.shape[0], n), x.dtype, "N")
    powers = range(n) if increasing else range(n - 1, -1, -1)
    from pycg.ops.creation import ones_like
    cols = [ones_like(x) if p == 0 else x if p == 1 else power(x, p)
            for p in powers]
    return stack(cols, axis=1) if cols else zeros((x.shape[0], 0), x.dtype)


def unravel_index(indices, shape):
    """Flat indices as a tuple of coordinate tensors for `shape`."""
    idx = as_tensor(indices, "unravel_index")
    if idx.dtype.kind not in "iu":
        raise TypeError(f"pycg.ops.unravel_index: indices must be integers, "
                        f"got dtype {idx.dtype}")
    dims = list(norm_shape(shape, "unravel_index"))
    out = []
    for d in reversed(dims):
        out.append(mod(idx, d))
        idx = floor_divide(idx, d)
    return tuple(reversed(out))


# ---- window functions (numpy's definitions, floatx) -------------------------
def _window(fn, x, *args):
    return _const(fn(int(x), *args))


def bartlett(x):
    return _window(np.bartlett, x)


def blackman(x):
    return _window(np.blackman, x)


def hamming(x):
    return _window(np.hamming, x)


def hanning(x):
    return _window(np.hanning, x)


def kaiser(x, beta):
    return _window(np.kaiser, x, float(beta))
