"""VJP rules of the elementwise maths and scans in numeric.py and
statistics.py, and the list of the NumPy-namespace ops that carry no
gradient (logic.py, sorting.py, constructors.py and friends)."""
import math

from pycg.ops import creation as C
from pycg.ops import elementwise as E
from pycg.ops import numeric as N
from pycg.ops import manipulation as S
from pycg.ops import reduction as R
from pycg.core import defvjp


def _zero(g, ans, x, *_, **__):
    return C.zeros_like(x)


def _i1(g, ans, x):
    # I1' = I0 - I1 / x, and 1/2 at 0
    zero = E.equal(x, 0)
    return g * E.where(zero, 0.5, N.i0(x) - ans / E.where(zero, 1.0, x))


def _cumprod(g, ans, x, axis):
    # TensorFlow's rule: reverse cumsum of g * ans, over x (x nonzero)
    return S.flip(R.cumsum(S.flip(g * ans, axis), axis), axis) / x


# ---- elementwise, one input -------------------------------------------------
defvjp("arccosh", lambda g, ans, x: g * E.rsqrt(x * x - 1))
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


# ---- scans ------------------------------------------------------------------
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
