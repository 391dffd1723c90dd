"""Base R's special functions on tensors, for the R package's lgamma(),
gamma(), digamma(), trigamma(), psigamma(), beta(), lbeta(), choose() and
lchoose(): pycg.ops' kernels (TensorFlow's and SciPy's answers) with base
R's answers where R's differ, and R's warnings:
- "NaNs produced" where a NaN comes from arguments that are not NaN (R's
  math1/math2 wrappers);
- gamma: NaN at 0 (SciPy: +-inf), 0 below -170.567 (R's xmin), +-inf with
  "value out of range in 'gammafn'" where |x| < 2.2e-308 (R's xsml);
- psigamma(x, deriv): deriv rounded to a whole number; NaN where x > 0 and
  (deriv + 1) log x < -700.6 (R's dpsifn gives up there: digamma below
  1e-304, trigamma below 1e-152), and above deriv = 100 (with R's warning);
- beta and lbeta: NaN where an argument is negative;
- choose and lchoose: "'k' (2.50) must be integer, rounded to 2" for each
  k R rounds.
"""
import math
import warnings

import pycg
from pycg.r.base.na import symbolic

ops = pycg.ops
ELIM = 2.302 * (1021 * math.log10(2) - 3.0)   # (R's dpsifn)
XSML = 2.2474362225598545e-308
XMIN = -170.5674972726612
N_MAX = 100


def lgamma(x):
    return _checked(ops.lgamma(x), x)


def gamma(x):
    out = ops.gamma(x)
    out = ops.where(ops.equal(x, 0), math.nan, out)
    below = ops.logical_and(ops.less(x, XMIN), ops.not_equal(ops.floor(x), x))
    out = ops.where(below, 0.0, out)   # (not at -inf or the poles: NaN)
    tiny = ops.logical_and(ops.less(ops.abs(x), XSML), ops.not_equal(x, 0))
    out = ops.where(tiny, ops.where(ops.greater(x, 0), math.inf, -math.inf),
                    out)
    if _any(tiny):
        warnings.warn("value out of range in 'gammafn'", RuntimeWarning,
                      stacklevel=2)
    return _checked(out, x)


def psigamma(x, deriv=0):
    n = round(float(deriv)) if math.isfinite(float(deriv)) else -1
    if n > N_MAX:
        warnings.warn(f"deriv = {n} > {N_MAX} (= n_max)", RuntimeWarning,
                      stacklevel=2)
    if n < 0 or n > N_MAX:
        return _checked(ops.where(ops.isnan(x), x, math.nan), x)
    out = ops.polygamma(n, x)
    gave_up = ops.logical_and(ops.greater(x, 0), ops.less(
        (n + 1) * ops.log(ops.where(ops.greater(x, 0), x, 1.0)), -ELIM))
    return _checked(ops.where(gave_up, math.nan, out), x)


def digamma(x):
    return psigamma(x, 0)


def trigamma(x):
    return psigamma(x, 1)


def math_group(generic, x):
    """R's Math group generic named `generic` (one of MATH) of a tensor
    (R/tensor-methods.R's Math method sends these four here)."""
    fn = MATH.get(generic)
    if fn is None:
        raise ValueError(f"pycg: R's special functions of a tensor are "
                         f"{', '.join(MATH)}, not {generic!r}")
    return fn(x)


MATH = {"lgamma": lgamma, "gamma": gamma, "digamma": digamma,
        "trigamma": trigamma}


def beta(a, b):
    return _negative_nan(ops.beta, a, b)


def lbeta(a, b):
    return _negative_nan(ops.lbeta, a, b)


def choose(n, k):
    _rounding_warnings(k)
    return _checked(ops.choose(n, k), n, k)


def lchoose(n, k):
    _rounding_warnings(k)
    return _checked(ops.lchoose(n, k), n, k)


def _negative_nan(op, a, b):
    negative = ops.logical_or(ops.less(a, 0), ops.less(b, 0))
    return _checked(ops.where(negative, math.nan, op(a, b)), a, b)


def _rounding_warnings(k):
    if symbolic(k):
        return
    for value in ops.convert_to_numpy(k).ravel().tolist():
        if math.isfinite(value) and abs(value - round(value)) > 1e-7:
            rounded = float(round(value))   # (half to even, as R's nearbyint)
            warnings.warn(f"'k' ({value:.2f}) must be integer, rounded to "
                          f"{math.copysign(rounded, value):.0f}",
                          RuntimeWarning, stacklevel=3)


def _checked(out, *inputs):
    """out, warning "NaNs produced" where it is NaN and no input is."""
    if symbolic(out):
        return out
    nan_in = ops.zeros_like(out, dtype="bool")
    for x in inputs:   # (R numbers arrive as Python floats or arrays)
        nan_in = ops.logical_or(nan_in, ops.isnan(x))
    if _any(ops.logical_and(ops.isnan(out), ops.logical_not(nan_in))):
        warnings.warn("NaNs produced", RuntimeWarning, stacklevel=3)
    return out


def _any(mask):
    return not symbolic(mask) and bool(ops.any(mask).numpy())
