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
    """Ones at and below the k-th diagonal.

    Returns:
        A 2-d tensor (N, M) in `dtype` (None: floatx).
    """
    N, k = as_int(N, "tri", "N"), as_int(k, "tri", "k")
    M = None if M is None else as_int(M, "tri", "M")
    guard("tri", (N, N if M is None else M), dtype or config.floatx(), "N")
    return _const(np.tri(N, M, k), dtype)


def identity(n, dtype=None):
    """The n x n identity matrix.

    Args:
        n: The number of rows and columns.

    Returns:
        A 2-d tensor (n, n) in `dtype` (None: floatx).
    """
    return _eye_as("identity", n, None, 0, dtype)


def empty(shape, dtype=None):
    """A tensor of `shape` (zeros: values are never left uninitialised).

    Returns:
        A tensor of `shape` in `dtype` (None: floatx, pycg.config.floatx()).
    """
    return _zeros_as("empty", shape, dtype)


def empty_like(x, dtype=None):
    """A tensor of x's shape (zeros: values are never left uninitialised).

    Args:
        dtype: The result's dtype. None: x's dtype.

    Returns:
        A tensor of x's shape in `dtype` (None: x's dtype).
    """
    x = as_tensor(x, "empty_like")
    return zeros(x.shape, dtype or x.dtype)


def array(x, dtype=None):
    """A tensor from x (as convert_to_tensor: Python floats become floatx, arrays
    keep their dtype).

    Returns:
        A Tensor.
    """
    return convert_to_tensor(x, dtype)


def logspace(start, stop, num=50, endpoint=True, base=10, dtype=None,
             axis=0):
    """base ** linspace(start, stop, num).

    Args:
        start: base ** start is the first value.
        stop: base ** stop is the last value.
        base: The base of the powers.

    Returns:
        A tensor of `num` values along `axis` (more axes for array endpoints),
        in `dtype` (None: floatx).
    """
    exps = _linspace_as("logspace", start, stop, num, endpoint, False,
                        config.floatx() if dtype is None or
                        not is_float(dtype) else dtype, 0)
    out = power(float(base), exps)
    return out if dtype is None else cast(out, dtype)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """Numbers spaced evenly on a log scale from start to stop.

    Returns:
        A tensor of `num` values along `axis` (more axes for array endpoints),
        in `dtype` (None: floatx).
    """
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

    Args:
        *x: The 1-d coordinate vectors.
        indexing: 'xy' (the first two axes swapped, Cartesian) or 'ij' (matrix).

    Returns:
        A list of tensors, one per input, each of the grid's shape.

    Example:
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
    """Columns are powers of 1-d x (decreasing unless `increasing`).

    Args:
        x: The 1-d input.
        N: The number of columns (None: len(x)).
        increasing: Powers increase left to right (else decrease).

    Returns:
        A 2-d tensor (len(x), N).

    Differs:
        Its gradient at 0 is the derivative (Keras' formula gives NaN); a bool
        x counts in int32.
    """
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
    """Flat indices as a tuple of coordinate tensors for `shape`.

    Args:
        indices: Flat (row-major) indices.

    Returns:
        A tuple of int32 tensors, one per axis of shape.
    """
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
    """The Bartlett (triangular) window of x points (np.bartlett).

    Args:
        x: The window's length M, a non-negative int.

    Returns:
        A 1-d floatx tensor of x points (empty for 0, [1.0] for 1).
    """
    return _window(np.bartlett, x)


def blackman(x):
    """The Blackman window of x points (np.blackman).

    Args:
        x: The window's length M, a non-negative int.

    Returns:
        A 1-d floatx tensor of x points (empty for 0, [1.0] for 1).
    """
    return _window(np.blackman, x)


def hamming(x):
    """The Hamming window of x points (np.hamming).

    Args:
        x: The window's length M, a non-negative int.

    Returns:
        A 1-d floatx tensor of x points (empty for 0, [1.0] for 1).
    """
    return _window(np.hamming, x)


def hanning(x):
    """The Hann window of x points (np.hanning).

    Args:
        x: The window's length M, a non-negative int.

    Returns:
        A 1-d floatx tensor of x points (empty for 0, [1.0] for 1).
    """
    return _window(np.hanning, x)


def kaiser(x, beta):
    """The Kaiser window of x points (np.kaiser).

    Args:
        x: The window's length M, a non-negative int.
        beta: The shape parameter (0: a box; larger: narrower).

    Returns:
        A 1-d floatx tensor of x points (empty for 0, [1.0] for 1).
    """
    return _window(np.kaiser, x, float(beta))
