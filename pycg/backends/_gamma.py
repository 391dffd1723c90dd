"""The gamma family (lgamma, digamma, polygamma, gamma; beta and the
binomial coefficients in _beta.py), written once over an array namespace (`Namespace`:
where, log, exp, ... of one backend) so that every backend computes them
the same way; the numpy backend has no other (SciPy is not a dependency),
the tensorflow and jax backends use them where their own kernels are
missing or wrong. Arguments are float arrays of one dtype (float64 where the backend
has it); Python loops are fixed in length, so jax.jit traces them.

How (each accurate to a few ulps in float64 away from the zeros of the
function, where it is accurate in absolute terms):
- lgamma on [0.5, 2.5) by the Taylor series of lgamma(2 + z) (coefficients
  (-1)^k (zeta(k) - 1) / k) with log x or log(x (1 + x)) for the steps, on
  [2.5, 10) by steps down to [1.5, 2.5), beyond by Stirling's series; x <
  -0.5 by the reflection formula with an exact sin(pi x) (through -x, exact).
- digamma on [1, 2] by its Taylor series about its positive root x0
  (coefficients (-1)^(k+1) zeta(k + 1, x0), the root in two parts), moved
  there by steps, beyond 10 by the asymptotic series, x <= -1 by reflection.
- polygamma(n, x), n >= 1: (-1)^(n+1) n! zeta(n + 1, x) (direct terms, then
  the Euler-Maclaurin tail); x < 0 by the n-th derivative of the reflection
  formula (pi^(n+1) times a polynomial in cot(pi x)).
- gamma: exp of the series times the steps below 12, Stirling's form with
  x^(x/2 - 1/4) squared above; reflection below -0.5.
"""
import functools
import math
from decimal import Decimal, localcontext

import numpy as np

INF = math.inf
NAN = math.nan
EULER = 0.57721566490153286061
LOG_PI = math.log(math.pi)
LN_SQRT_2PI = 0.5 * math.log(2 * math.pi)
SQRT_2PI = math.sqrt(2 * math.pi)
GAMMA_OVERFLOW = 171.61447887182298   # (R's xmax: gamma(x) is inf beyond)
_B2 = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6,
       -3617 / 510, 43867 / 798, -174611 / 330, 854513 / 138,
       -236364091 / 2730)   # Bernoulli numbers B_2, B_4, ..., B_24


class Namespace:
    """One backend's array functions: where(c, a, b) (a or b may be Python
    floats), log, log1p, exp, floor, round (half to even), abs, sin, cos,
    pow, isnan, minimum, maximum; lgamma if the backend's own is used;
    `barrier`, where a compiler would reassociate (x - c1) - c2 into
    x - (c1 + c2), which loses c2 (JAX's optimization_barrier)."""

    def __init__(self, lgamma=None, barrier=None, constant=None,
                 **functions):
        self.__dict__.update(functions)
        if constant is not None:   # constant(number, like): a backend whose
            # binary functions refuse a Python number (TensorFlow's in a graph,
            # torch's minimum) gets it as a tensor like the other side (None:
            # both are numbers; the algorithms here run in float64)
            for name in ("where", "minimum", "maximum", "pow"):
                setattr(self, name, _with_constants(functions[name], constant))
        self.lgamma = lgamma or functools.partial(globals()["lgamma"], self)
        self.barrier = barrier or (lambda x: x)


def _with_constants(fn, constant):
    def call(*args):
        *head, a, b = args
        number = (int, float)
        like = a if not isinstance(a, number) else \
            b if not isinstance(b, number) else None
        return fn(*head, constant(a, like) if isinstance(a, number) else a,
                  constant(b, like) if isinstance(b, number) else b)
    return call


def _zeta_scalar(s, q, n=30):
    """Hurwitz zeta(s, q) of Python floats (s > 1, q > 0), for the tables."""
    head = math.fsum((q + i) ** -s for i in range(n))
    a = q + n
    tail = a ** (1 - s) / (s - 1) + 0.5 * a ** -s
    term = s * a ** (-s - 1)
    for j, b in enumerate(_B2, 1):
        tail += b / math.factorial(2 * j) * term
        term *= (s + 2 * j - 1) * (s + 2 * j) / (a * a)
    return head + tail


# lgamma(2 + z) = sum over k of _L2[k - 1] z^k, |z| <= 1/2
_L2 = (1 - EULER,) + tuple((-1) ** k * _zeta_scalar(k, 2.0) / k
                           for k in range(2, 32))
# digamma's positive root, as x0_hi + x0_lo
with localcontext() as _context:
    _context.prec = 50
    _X0 = Decimal("1.461632144968362341262659542325721328468196204")
    X0_HI = float(_X0)
    X0_LO = float(_X0 - Decimal(X0_HI))
# digamma(x0 + w) = sum over k of _ROOT[k - 1] w^k, |w| <= 0.54
_ROOT = tuple((-1) ** (k + 1) * _zeta_scalar(k + 1, X0_HI)
              for k in range(1, 42))
# Stirling: lgamma(x) - ((x - 1/2) log x - x + log sqrt(2 pi)), in 1/x
_STIRLING = tuple(b / (2 * k * (2 * k - 1)) for k, b in enumerate(_B2[:9], 1))
# digamma(x) - (log x - 1/(2x)), in 1/x^2
_ASYMPTOTIC = tuple(-b / (2 * k) for k, b in enumerate(_B2[:9], 1))


def _horner(coefficients, z):
    """sum of coefficients[i] z^i."""
    out = coefficients[-1]
    for c in reversed(coefficients[:-1]):
        out = out * z + c
    return out


def _pole(xp, x):
    """x is 0, a negative integer or -inf."""
    return (x <= 0) & (xp.floor(x) == x)


def _reduced(xp, x):
    """x - 2 round(x / 2), exactly, in [-1, 1]."""
    return x - 2.0 * xp.round(x * 0.5)


def sinpi(xp, x):
    r = _reduced(xp, x)
    a = xp.abs(r)
    s = xp.where(a <= 0.25, xp.sin(math.pi * a), xp.where(
        a <= 0.75, xp.cos(math.pi * (a - 0.5)), xp.sin(math.pi * (1.0 - a))))
    return xp.where(r < 0, -s, s)


def cospi(xp, x):
    a = xp.abs(_reduced(xp, x))
    return xp.where(a <= 0.25, xp.cos(math.pi * a), xp.where(
        a <= 0.75, xp.sin(math.pi * (0.5 - a)), -xp.cos(math.pi * (1.0 - a))))


def _stirling(xp, x):
    """lgamma's correction to Stirling's formula, x >= 10."""
    r = 1.0 / x
    return _horner(_STIRLING, r * r) * r


def _down(xp, y, low, steps):
    """y moved down by ones while y >= low (up to `steps` times) and the
    product of the values it moved to."""
    product = y * 0.0 + 1.0
    for _ in range(steps):
        down = y >= low
        y = xp.where(down, y - 1.0, y)
        product = xp.where(down, product * y, product)
    return y, product


def _lgamma_main(xp, x):
    """lgamma(x) for x >= -0.5, x != 0."""
    big = x >= 10.0
    y, product = _down(xp, xp.where(big, 2.0, x), 2.5, 8)
    mid, low = y >= 1.5, (y >= 0.5) & (y < 1.5)
    tiny = y < 0.5
    z = xp.where(mid, y - 2.0, xp.where(low, y - 1.0, y))
    small = (_horner(_L2, z) * z + xp.log(product)
             - xp.log(xp.abs(xp.where(mid, 1.0, y)))
             - xp.log1p(xp.where(tiny, y, 0.0)))
    xb = xp.where(big, x, 10.0)
    large = (xb - 0.5) * xp.log(xb) - xb + LN_SQRT_2PI + _stirling(xp, xb)
    return xp.where(big, large, small)


def lgamma(xp, x):
    """log |gamma(x)|; inf at 0, the negative integers and +-inf
    (TensorFlow's answers)."""
    bad = _pole(xp, x) | xp.isnan(x) | (x == INF)
    neg = x < -0.5
    xr = xp.where(bad, 2.0, xp.where(neg, -x, x))
    main = _lgamma_main(xp, xr)
    s = sinpi(xp, xp.where(neg & ~bad, x, 0.5))
    # (lgamma(1 - x) = lgamma(-x) + log(-x): -x is exact, 1 - x is not)
    out = xp.where(neg, LOG_PI - xp.log(xp.abs(s * x)) - main, main)
    return xp.where(xp.isnan(x), x, xp.where(bad, INF, out))


def _digamma_main(xp, x):
    """digamma(x) for x > -1, x != 0."""
    acc = x * 0.0
    y = x
    for _ in range(2):   # (up to 1)
        up = y < 1.0
        acc = acc - xp.where(up, 1.0 / xp.where(up, y, 1.0), 0.0)
        y = xp.where(up, y + 1.0, y)
    big = y >= 10.0
    for _ in range(8):   # (down to [1, 2])
        down = (y > 2.0) & ~big
        y = xp.where(down, y - 1.0, y)
        acc = acc + xp.where(down, 1.0 / y, 0.0)
    w = xp.barrier(xp.where(big, 1.5, y) - X0_HI) - X0_LO
    near_root = _horner(_ROOT, w) * w
    yb = xp.where(big, y, 10.0)
    r2 = 1.0 / (yb * yb)
    asymptotic = xp.log(yb) - 0.5 / yb + _horner(_ASYMPTOTIC, r2) * r2
    return acc + xp.where(big, asymptotic, near_root)


def digamma(xp, x):
    """d/dx lgamma(x); NaN at 0, the negative integers and -inf, inf at inf
    (TensorFlow's answers)."""
    pole = _pole(xp, x)
    bad = pole | xp.isnan(x) | (x == INF)
    neg = (x <= -1.0) & ~bad
    main = _digamma_main(xp, xp.where(bad, 2.0, xp.where(neg, -x, x)))
    xn = xp.where(neg, x, 0.5)
    # (digamma(1 - x) = digamma(-x) - 1/x: -x is exact, 1 - x is not)
    out = xp.where(neg, main - 1.0 / xn - math.pi * cospi(xp, xn)
                   / sinpi(xp, xn), main)
    out = xp.where(x == INF, INF, xp.where(pole, NAN, out))
    return xp.where(xp.isnan(x), x, out)


def _zeta(xp, s, q):
    """Hurwitz zeta(s, q) for an integer s >= 2 and q > 0: the terms up to
    a = q + i >= max(10, 2 s), then the Euler-Maclaurin tail at a."""
    start = max(10.0, 2.0 * s)
    head, a = q * 0.0, q
    for i in range(int(start) + 1):
        at = q + float(i)
        inside = at < start
        head = head + xp.where(inside, xp.pow(xp.where(inside, at, 1.0),
                                              -float(s)), 0.0)
        a = xp.where(inside, q + float(i + 1), a)
    tail = xp.pow(a, 1.0 - s) / (s - 1) + 0.5 * xp.pow(a, -float(s))
    term = s * xp.pow(a, -s - 1.0)
    for j, b in enumerate(_B2, 1):
        tail = tail + (b / math.factorial(2 * j)) * term
        term = term * ((s + 2 * j - 1) * (s + 2 * j)) / (a * a)
    return head + tail


@functools.lru_cache(maxsize=None)
def cot_derivative(n):
    """The coefficients of C_n, d^n/du^n cot(u) = C_n(cot u), lowest
    first: C_0(c) = c, C_{m+1}(c) = -(1 + c^2) C_m'(c)."""
    c = (0, 1)
    for _ in range(n):
        d = [i * c[i] for i in range(1, len(c))] + [0, 0]
        c = tuple(-(d[i] + (d[i - 2] if i >= 2 else 0)) for i in range(len(d)))
    return tuple(float(v) if abs(v) < 1e308 else INF if v > 0 else -INF
                 for v in c)


def polygamma(xp, n, x):
    """The n-th derivative of digamma (n a Python int >= 0). At 0, the
    negative integers and -inf: inf for odd n, NaN for even n; at inf 0
    (-0 for even n), as TensorFlow's."""
    if n == 0:
        return digamma(xp, x)
    s = n + 1
    factor = (1.0 if n % 2 else -1.0) * (
        float(math.factorial(n)) if n <= 170 else INF)
    pole = _pole(xp, x)
    bad = pole | xp.isnan(x) | (x == INF)
    neg = (x < 0) & ~bad
    q = xp.where(bad, 1.0, xp.where(neg, 1.0 - x, x))
    main = factor * _zeta(xp, s, q)
    xn = xp.where(neg, x, 0.5)
    cot = cospi(xp, xn) / sinpi(xp, xn)
    reflected = ((-1.0) ** n * main
                 - math.pi ** s * _horner(cot_derivative(n), cot))
    out = xp.where(neg, reflected, main)
    out = xp.where(x == INF, 0.0 * factor, out)
    out = xp.where(pole, INF if n % 2 else NAN, out)
    return xp.where(xp.isnan(x), x, out)


def gamma(xp, x):
    """gamma(x); inf at +0 and inf, -inf at -0, NaN at the negative integers
    and -inf (SciPy's and JAX's answers)."""
    pole = _pole(xp, x)
    bad = pole | xp.isnan(x) | (x == INF)
    neg = (x < -0.5) & ~bad
    xr = xp.where(bad, 2.0, xp.where(neg, -x, x))
    big = xr >= 12.0
    y, product = _down(xp, xp.where(big, 2.0, xr), 2.5, 10)
    mid, low = y >= 1.5, (y >= 0.5) & (y < 1.5)
    z = xp.where(mid, y - 2.0, xp.where(low, y - 1.0, y))
    divisor = xp.where(mid, 1.0, xp.where(low, y, y * (y + 1.0)))
    small = xp.exp(_horner(_L2, z) * z) * product / divisor
    xb = xp.where(big, xr, 12.0)
    v = xp.pow(xb, 0.5 * xb - 0.25)
    large = SQRT_2PI * v * (v / xp.exp(xb)) * xp.exp(_stirling(xp, xb))
    large = xp.where(xb > GAMMA_OVERFLOW, INF, large)
    main = xp.where(big, large, small)
    xn = xp.where(neg, x, 0.5)   # (gamma(1 - x) = -x gamma(-x), -x exact)
    out = xp.where(neg, -math.pi / (sinpi(xp, xn) * xn * main), main)
    out = xp.where(x == 0, xp.where(1.0 / xp.where(x == 0, x, 1.0) > 0,
                                    INF, -INF), out)
    out = xp.where(x == INF, INF, xp.where(pole & (x != 0), NAN, out))
    return xp.where(xp.isnan(x), x, out)


NUMPY = Namespace(
    where=np.where, log=np.log, log1p=np.log1p, exp=np.exp, floor=np.floor,
    round=np.round, abs=np.abs, sin=np.sin, cos=np.cos, pow=np.power,
    isnan=np.isnan, minimum=np.minimum, maximum=np.maximum)


def on_host(fn, *xs):
    """fn(NUMPY, *xs) of array-likes, in float64: the numpy backend's
    kernels, and the tensorflow backend's of eager tensors (there the
    algorithms' few hundred small ops cost about 10 ms a call, digamma's,
    the gradient of lgamma, among them; NumPy's take about 0.1 ms)."""
    with np.errstate(all="ignore"):   # (inf and nan are the answers there)
        return np.asarray(fn(NUMPY, *(np.asarray(x, np.float64)
                                      for x in xs)))
