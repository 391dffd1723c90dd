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
from pycg.ops._machinery.dispatch import (apply, elementwise, made_by,
                                          promote, unary)
from pycg.ops._machinery.floats import as_float, real_only
from pycg.tensor import Tensor

__all__ = ("beta", "choose", "digamma", "gamma", "lbeta", "lchoose", "lgamma",
           "polygamma")

MAX_ORDER = 170   # (171! is beyond float64)


@made_by(unary, float_only=True, real=True)
def lgamma(x):
    """Elementwise log |gamma(x)| (TensorFlow's lgamma): inf at 0, the negative
    integers and +-inf; its gradient is digamma(x).

    Returns:
        A tensor of x's shape: x's dtype for a float x, floatx
        (pycg.config.floatx()) for an integer or bool x; a complex x is
        refused, as TensorFlow refuses it.

    Example:
        >>> from pycg import ops
        >>> round(float(ops.lgamma(10.0)), 6)  # log(9!)
        12.801827
    """


@made_by(unary, float_only=True, real=True)
def digamma(x):
    """Elementwise digamma function, the derivative of lgamma: NaN at 0, the
    negative integers and -inf, as TensorFlow's; its gradient is polygamma(1,
    x).

    Returns:
        A tensor of x's shape: x's dtype for a float x, floatx
        (pycg.config.floatx()) for an integer or bool x; a complex x is
        refused, as TensorFlow refuses it.

    Example:
        >>> from pycg import ops
        >>> round(float(ops.digamma(1.0)), 6)  # -Euler
        -0.577216
    """


@made_by(unary, float_only=True, real=True)
def gamma(x):
    """Elementwise gamma function (SciPy's and JAX's gamma; TensorFlow has none):
    inf at +0 and inf, -inf at -0, NaN at the negative integers and -inf, 0
    below -171.6 where it underflows; its gradient is gamma(x) digamma(x).

    Returns:
        A tensor of x's shape: x's dtype for a float x, floatx
        (pycg.config.floatx()) for an integer or bool x; a complex x is
        refused, as TensorFlow refuses it.

    Example:
        >>> from pycg import ops
        >>> float(ops.gamma(5.0))
        24.0
    """


@elementwise
def polygamma(n, x):
    """The n-th derivative of digamma at x (n = 0: digamma; n = 1: the
    trigamma function); its gradient is polygamma(n + 1, x).

    Args:
        n: The order of the derivative of digamma, a whole number from 0 to 170
            (a Python int, or a whole float or one-element tensor); 1 is the
            trigamma function.

    Returns:
        A tensor of x's shape: x's dtype for a float x, floatx
        (pycg.config.floatx()) for an integer or bool x; a complex x is
        refused, as TensorFlow refuses it.

    Differs:
        n is one whole number for the whole tensor (TensorFlow's polygamma
        takes a tensor of orders and gives NaN for a negative or fractional
        one; here that is a ValueError). At the poles (0, the negative
        integers, -inf) inf for odd n and NaN for even n, as TensorFlow's.

    Example:
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


@elementwise
def lbeta(a, b):
    """log |beta(a, b)| = lgamma(a) + lgamma(b) - lgamma(a + b), accurate
    where a or b is large (two arguments, as SciPy's betaln; TensorFlow's
    tf.math.lbeta takes one tensor and reduces its last axis).

    Args:
        a: The first argument (a tensor or anything convert_to_tensor takes).
        b: The second argument; broadcasts against a.

    Returns:
        A tensor of the broadcast shape of the two arguments, in their promoted
        float dtype (floatx when both are integer or bool); complex arguments
        are refused.

    Differs:
        Two arguments, as SciPy's betaln and R's lbeta (TensorFlow's
        tf.math.lbeta takes one tensor and reduces its last axis). For a, b > 0
        R's algorithm (accurate when an argument is large); elsewhere lgamma(a)
        + lgamma(b) - lgamma(a + b), inf where a or b is 0 and NaN where one is
        a negative integer (R gives NaN for any negative argument: its lbeta()
        on tensors does too).

    Example:
        >>> from pycg import ops
        >>> round(float(ops.lbeta(2.0, 3.0)), 6)  # log 1/12
        -2.484907
    """
    return _binary("lbeta", a, b)


@elementwise
def beta(a, b):
    """The beta function gamma(a) gamma(b) / gamma(a + b).

    Args:
        a: The first argument (a tensor or anything convert_to_tensor takes).
        b: The second argument; broadcasts against a.

    Returns:
        A tensor of the broadcast shape of the two arguments, in their promoted
        float dtype (floatx when both are integer or bool); complex arguments
        are refused.

    Differs:
        For a, b > 0 as R's beta; elsewhere the sign of the gammas times
        exp(lbeta(a, b)) (SciPy gives a finite limit at some negative integers,
        here NaN, as JAX and R).

    Example:
        >>> from pycg import ops
        >>> round(float(ops.beta(2.0, 3.0)), 6)  # 1/12
        0.083333
    """
    return _binary("beta", a, b)


@elementwise
def choose(n, k):
    """The binomial coefficient n (n - 1) ... (n - k + 1) / k! of any real
    n, as R's choose(): k is rounded to a whole number, 0 where k < 0;
    differentiable in n.

    Args:
        n: The top of the coefficient, any real number (a tensor or number).
        k: The bottom of the coefficient, rounded to a whole number as R rounds
            it; broadcasts against n. Its gradient is zero.

    Returns:
        A tensor of the broadcast shape of the two arguments, in their promoted
        float dtype (floatx when both are integer or bool); complex arguments
        are refused.

    Differs:
        No keras.ops, TensorFlow or JAX peer; R's choose(), value for value
        (products below k = 30, whole results rounded where n is whole, (-1)^k
        choose(k - n - 1, k) for a negative n); scipy.special.binom agrees for
        whole k and continues through gamma for a fractional k, which R rounds.

    Example:
        >>> from pycg import ops
        >>> ops.choose([5.0, 5.0, -2.0], [2.0, 7.0, 3.0]).numpy().tolist()
        [10.0, 0.0, -4.0]
    """
    return _binary("choose", n, k)


@elementwise
def lchoose(n, k):
    """log |choose(n, k)|, as R's lchoose() (k rounded to a whole number);
    differentiable in n.

    Args:
        n: The top of the coefficient, any real number (a tensor or number).
        k: The bottom of the coefficient, rounded to a whole number as R rounds
            it; broadcasts against n. Its gradient is zero.

    Returns:
        A tensor of the broadcast shape of the two arguments, in their promoted
        float dtype (floatx when both are integer or bool); complex arguments
        are refused.

    Differs:
        No keras.ops, TensorFlow or JAX peer; R's lchoose(), value for value
        (-inf where choose(n, k) is 0).

    Example:
        >>> from pycg import ops
        >>> round(float(ops.lchoose(50.0, 25.0)), 6)
        32.470558
    """
    return _binary("lchoose", n, k)
