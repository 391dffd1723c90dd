"""Beta and the binomial coefficients over an array namespace (see
_gamma.py): lbeta as R's (Stirling corrections where an argument is 10 or
more), beta as R's (gamma products below a + b = 171.6, else exp(lbeta)),
choose and lchoose as R's choose() and lchoose() (k rounded to a whole
number, products for k < 30, (-1)^k choose(k - n - 1, k) for negative n).
Arguments are float arrays of one dtype; the callers cast."""
from pycg.backends._gamma import (GAMMA_OVERFLOW, INF, LN_SQRT_2PI, NAN,
                                  _stirling, gamma)


def _negative_integer(xp, x):
    return (x < 0) & (xp.floor(x) == x)


def lbeta(xp, a, b):
    """log |beta(a, b)|; for a, b > 0 as R's lbeta, elsewhere lgamma(a) +
    lgamma(b) - lgamma(a + b), inf where a or b is 0, NaN where one is a
    negative integer or -inf."""
    p, q = xp.minimum(a, b), xp.maximum(a, b)
    positive = p > 0
    pb = xp.where(positive & (q < INF), p, 1.0)
    qb = xp.where(positive & (q < INF), q, 1.0)
    total = pb + qb
    ratio = pb / total
    c_p, c_q = xp.where(pb >= 10.0, pb, 10.0), xp.where(qb >= 10.0, qb, 10.0)
    c_total = xp.where(total >= 10.0, total, 10.0)
    both_big = (-0.5 * xp.log(qb) + LN_SQRT_2PI
                + (_stirling(xp, c_p) + _stirling(xp, c_q)
                   - _stirling(xp, c_total))
                + (pb - 0.5) * xp.log(ratio) + qb * xp.log1p(-ratio))
    q_big = (xp.lgamma(pb) + (_stirling(xp, c_q) - _stirling(xp, c_total))
             + pb - pb * xp.log(total) + (qb - 0.5) * xp.log1p(-ratio))
    neither = xp.lgamma(pb) + xp.lgamma(qb) - xp.lgamma(total)
    out = xp.where(pb >= 10.0, both_big, xp.where(qb >= 10.0, q_big, neither))
    out = xp.where(positive & (q == INF), -INF, out)
    general = xp.lgamma(a) + xp.lgamma(b) - xp.lgamma(a + b)
    general = xp.where((a == 0) | (b == 0), INF, general)
    general = xp.where(_negative_integer(xp, a) | _negative_integer(xp, b),
                       NAN, general)
    out = xp.where(positive, out, general)
    return xp.where(xp.isnan(a) | xp.isnan(b), NAN, out)


def _gamma_sign(xp, x):
    """The sign of gamma(x): 1 for x >= 0, (-1)^ceil(-x) below."""
    f = xp.floor(x)
    odd = (f - 2.0 * xp.floor(f * 0.5)) != 0
    return xp.where((x < 0) & odd, -1.0, 1.0)


def beta(xp, a, b):
    """beta(a, b); for a, b > 0 as R's beta, elsewhere the sign of the
    gammas times exp(lbeta) (inf where a or b is 0)."""
    p = xp.minimum(a, b)
    positive = p > 0
    total = a + b
    small = positive & (total < GAMMA_OVERFLOW)
    ab = xp.where(small, a, 1.0)
    bb = xp.where(small, b, 1.0)
    products = gamma(xp, ab) * (gamma(xp, bb) / gamma(xp, ab + bb))
    sign = _gamma_sign(xp, a) * _gamma_sign(xp, b) * _gamma_sign(xp, total)
    out = xp.where(small, products, sign * xp.exp(lbeta(xp, a, b)))
    return xp.where(xp.isnan(a) | xp.isnan(b), NAN, out)


def _whole(xp, n):
    """R's R_IS_INT: n within 1e-7 (relative beyond 1) of a whole number."""
    return xp.abs(n - xp.round(n)) <= 1e-7 * xp.maximum(1.0, xp.abs(n))


def _log_fast_choose(xp, n, k):
    return -xp.log1p(n) - lbeta(xp, n - k + 1.0, k + 1.0)


def lchoose(xp, n, k):
    """log |choose(n, k)| as R's lchoose() (k rounded to a whole number)."""
    k = xp.round(k)
    m = xp.where(n < 0, k - n - 1.0, n)   # |choose(n, k)| = choose(k-n-1, k)
    whole = _whole(xp, m)
    m = xp.where(whole, xp.round(m), m)
    out = _log_fast_choose(xp, m, k)
    near = xp.where(m - k == 0, 0.0, xp.log(xp.where(m > 0, m, 1.0)))
    out = xp.where(whole & (m < k), -INF,
                   xp.where(whole & (m - k < 2), near, out))
    out = xp.where(k < 2, xp.where(k < 0, -INF, xp.where(
        k == 0, 0.0, xp.log(xp.abs(n)))), out)
    out = xp.where((k == INF) & (n >= 0) & (n < INF), -INF, out)  # (R's)
    return xp.where(xp.isnan(n) | xp.isnan(k), NAN, out)


def _choose_product(xp, n, k, whole):
    """R's product n (n - 1) ... (n - k + 1) / k! for k < 30, whole-number
    results rounded where n is whole; 0 for k < 0, 1 for k = 0."""
    r = n
    for j in range(2, 30):
        r = xp.where(j <= k, r * ((n - (j - 1.0)) / j), r)
    r = xp.where(whole, xp.round(r), r)
    return xp.where(k < 0, 0.0, xp.where(k == 0, 1.0, r))


def choose(xp, n, k):
    """choose(n, k) as R's choose() (k rounded to a whole number)."""
    k = xp.round(k)
    whole = _whole(xp, n)
    symmetric = whole & (n >= 0) & (n - k < k)
    small = _choose_product(xp, n, xp.where(symmetric, xp.round(n - k), k),
                            whole)
    m = xp.where(n < 0, k - n - 1.0, n)   # choose(n, k) = (-1)^k choose(m, k)
    m_whole = _whole(xp, m)
    mr = xp.where(m_whole, xp.round(m), m)
    by_logs = xp.exp(_log_fast_choose(xp, mr, k))
    near = _choose_product(xp, mr, mr - k, m_whole)
    large_whole = xp.where(mr < k, 0.0, xp.where(
        mr - k < 30, near, xp.round(by_logs)))
    large_frac = xp.where(m < k - 1.0, _gamma_sign(xp, m - k + 1.0), 1.0) \
        * by_logs
    large = xp.where(m_whole, large_whole, large_frac)
    odd = (k - 2.0 * xp.floor(k * 0.5)) != 0
    large = xp.where((n < 0) & odd, -large, large)
    out = xp.where(k < 30, small, large)
    out = xp.where((k == INF) & (n >= 0) & (n < INF), 0.0, out)  # (R's)
    return xp.where(xp.isnan(n) | xp.isnan(k), NAN, out)
