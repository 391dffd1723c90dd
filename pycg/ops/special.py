"""The special functions of statistics: the gamma family (TensorFlow's names
lgamma, digamma and polygamma; SciPy's gamma), beta and its log (lbeta, two
arguments, SciPy's betaln) and binomial coefficients under R's names
(choose, lchoose: k rounded to a whole number, as R does). Each is one
kernel of every backend (pycg/backends/_gamma.py, _beta.py, and
TensorFlow's own lgamma, digamma and polygamma),
with its rule in rules/special.py. Integer and bool inputs are floatx;
complex inputs are refused by name, as TensorFlow refuses them."""
import operator

import numpy as np

from pycg import backends
from pycg._errors import Arg, Op, Value, user_error
from pycg.ops._machinery.dispatch import apply, promote, unary
from pycg.ops._machinery.floats import as_float, real_only
from pycg.tensor import Tensor

__all__ = ("beta", "choose", "digamma", "gamma", "lbeta", "lchoose", "lgamma",
           "polygamma")

MAX_ORDER = 170   # (171! is beyond float64)
lgamma = unary("lgamma", float_only=True, real=True)
digamma = unary("digamma", float_only=True, real=True)
gamma = unary("gamma", float_only=True, real=True)


def polygamma(n, x):
    """The n-th derivative of digamma at x (n = 0: digamma; n = 1: the
    trigamma function); its gradient is polygamma(n + 1, x).

    >>> from pycg import ops
    >>> round(float(ops.polygamma(1, 1.0)), 6)   # pi ** 2 / 6
    1.644934
    """
    n = _order(n)
    x = real_only(as_float(x, "polygamma"), "polygamma")
    return apply("polygamma", backends.active.polygamma, (x,), {"n": n})


def _order(n):
    """polygamma's n as a Python int >= 0: an int, or a whole number in a
    float, a NumPy scalar or array or a tensor of one element."""
    value = None
    if not isinstance(n, (bool, str, bytes)):
        try:
            value = operator.index(n)
        except TypeError:
            value = _whole(n)
    if value is None or not 0 <= value <= MAX_ORDER:
        raise user_error(
            ValueError, "{op}: {arg} must be a whole number from 0 to "
            "{most} (the order of the derivative; beyond, n! overflows "
            "float64), got {got}", op=Op("polygamma"), arg=Arg("n"),
            most=MAX_ORDER, got=Value(n))
    return value


def _whole(n):
    try:
        a = np.asarray(n.numpy() if isinstance(n, Tensor) else n)
    except Exception:   # (a tensor without a value yet, while tracing)
        return None
    if a.size != 1 or a.dtype.kind not in "iuf" or \
            not float(a.reshape(())).is_integer():
        return None
    return int(a.reshape(()))


def _binary(name, x1, x2):
    x1 = real_only(as_float(x1, name), name)
    x2 = real_only(as_float(x2, name), name)
    x1, x2 = promote(x1, x2, name)
    return apply(name, getattr(backends.active, name), (x1, x2))


def lbeta(a, b):
    """log |beta(a, b)| = lgamma(a) + lgamma(b) - lgamma(a + b), accurate
    where a or b is large (two arguments, as SciPy's betaln; TensorFlow's
    tf.math.lbeta takes one tensor and reduces its last axis)."""
    return _binary("lbeta", a, b)


def beta(a, b):
    """The beta function gamma(a) gamma(b) / gamma(a + b)."""
    return _binary("beta", a, b)


def choose(n, k):
    """The binomial coefficient n (n - 1) ... (n - k + 1) / k! of any real
    n, as R's choose(): k is rounded to a whole number, 0 where k < 0;
    differentiable in n."""
    return _binary("choose", n, k)


def lchoose(n, k):
    """log |choose(n, k)|, as R's lchoose() (k rounded to a whole number);
    differentiable in n."""
    return _binary("lchoose", n, k)
