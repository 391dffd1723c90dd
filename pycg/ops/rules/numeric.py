"""VJP rules of the elementwise maths and scans in numeric.py and
statistics.py, and the list of the NumPy-namespace ops that carry no
gradient (logic.py, sorting.py, constructors.py and friends)."""
import math

import numpy as np

from pycg.ops._machinery import dynamic as D
from pycg.ops import creation as C
from pycg.ops import elementwise as E
from pycg.ops import numeric as N
from pycg.ops import manipulation as S
from pycg.ops import reduction as R
from pycg.core.recorder import defvjp
from pycg.ops.rules.elementwise import reached_if_strong
from pycg.ops.rules.reduction import expand as _expand


def _zero(g, ans, x, *_, **__):
    return C.zeros_like(x)


def _i1(g, ans, x):
    # I1' = I0 - I1 / x, and 1/2 at 0
    zero = E.equal(x, 0)
    return g * E.where(zero, 0.5, N.i0(x) - ans / E.where(zero, 1.0, x))


def _cumprod(g, ans, x, axis):
    # TensorFlow's rule: reverse cumsum of g * ans, over x, and 0 where x
    # is 0 (its div_no_nan)
    return N.divide_no_nan(S.flip(R.cumsum(S.flip(g * ans, axis), axis),
                                  axis), x)


def _exclusive_cumprod(x, n, reverse=False):
    # prod of the entries before (after) each along the last axis, of length
    # n, by log2(n) shifted multiplies: a polynomial in x, so right at every
    # order with zeros (static slices: other dimensions may be unknown)
    def shifted(y, d):
        ax = y.ndim - 1
        kept = D.slice_axis(y, ax, d if reverse else 0, n - d)
        ones = C.ones_like(D.slice_axis(y, ax, 0, d))
        return S.concatenate([kept, ones] if reverse else [ones, kept], -1)
    y, d = shifted(x, 1), 1
    while d < n - 1:
        y, d = y * shifted(y, d), 2 * d
    return y


def _prod(g, ans, x, axis, keepdims):
    # the product of the others, without dividing by x: reduced axes last,
    # flattened to one, exclusive products from the left times from the right
    axis = tuple(range(x.ndim)) if axis is None else axis
    kept = [i for i in range(x.ndim) if i not in axis]
    perm = kept + list(axis)
    xt = S.transpose(x, perm)
    if not D.known([x.shape[i] for i in axis]):
        raise D.unknown_error("prod", x)
    n = int(np.prod([x.shape[i] for i in axis]))
    xf = S.reshape(xt, [D.shape_of(x)[i] for i in kept] + [n])
    others = _exclusive_cumprod(xf, n) * _exclusive_cumprod(xf, n, True)
    others = S.reshape(others, D.shape_of(xt))
    others = S.transpose(others, tuple(np.argsort(perm)))
    up = _expand(g, x, axis, keepdims)
    return reached_if_strong(up, _expand(ans, x, axis, keepdims), up * others)


# ---- elementwise, one input -------------------------------------------------
defvjp("arccosh", lambda g, ans, x: g / E.sinh(ans))  # (TensorFlow's: nan
# below 1, where the value is nan, whatever g)
defvjp("arcsinh", lambda g, ans, x: g * E.rsqrt(x * x + 1))
defvjp("arctanh", lambda g, ans, x: g / (1 - x * x))
defvjp("cbrt", lambda g, ans, x: g / (3 * ans * ans))
defvjp("exp2", lambda g, ans, x: g * ans * math.log(2))
defvjp("erfc", lambda g, ans, x: g * (-2 / math.sqrt(math.pi))
       * E.exp(-x * x))
defvjp("erfinv", lambda g, ans, x: g * (math.sqrt(math.pi) / 2)
       * E.exp(ans * ans))
defvjp("trunc", _zero)
defvjp("i0", lambda g, ans, x: g * N._i1(x))
defvjp("_i1", _i1)


# ---- scans and products --------------------------------------------------------
defvjp("prod", _prod)


# ---- complex numbers from their parts ------------------------------------------
defvjp("_complex_from_pair", lambda g, ans, pair:   # (TensorFlow's: the parts)
       S.stack([E.real(g), E.imag(g)]))
defvjp("cumprod", _cumprod)


# Public ops of the NumPy-namespace, math and linalg topics that never carry
# a gradient (their outputs are integers, booleans, dtypes or constants).
NON_DIFFERENTIABLE = (
    # logic.py
    "all", "any", "count_nonzero", "isinf", "isneginf", "isposinf",
    "signbit", "isreal", "view", "isclose", "allclose", "isin", "logical_xor",
    "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_invert",
    "bitwise_not", "bitwise_left_shift", "bitwise_right_shift", "left_shift",
    "right_shift", "gcd", "lcm", "nextafter", "nonzero", "is_tensor",
    "dtype", "ndim", "size",
    # sorting.py
    "argsort", "argpartition", "in_top_k", "searchsorted", "digitize",
    "bincount", "histogram", "unique",
    # statistics.py
    "nanargmax", "nanargmin",
    # numeric.py
    "angle",
    # constructors.py
    "tri", "identity", "empty", "empty_like", "geomspace", "logspace",
    "unravel_index", "bartlett", "blackman", "hamming", "hanning", "kaiser",
    # decompositions.py
    "eig", "lu_factor", "matrix_rank",
    # spectral.py
    "view_as_complex",
)
