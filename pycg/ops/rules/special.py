"""VJP rules of the special functions in special.py: the gamma family
differentiates into the next polygamma, beta and the binomial coefficients
into differences of digammas. The binomial coefficients' k is rounded, so
its gradient is zero."""
from pycg.ops import creation as C
from pycg.ops import elementwise as E
from pycg.ops import special as P
from pycg.core.recorder import defvjp


def _zero_k(g, ans, n, k):
    return C.zeros_like(k)


def _beta_slope(a, b, which):
    """d/da (or d/db) of lbeta(a, b)."""
    return P.digamma(a if which == 0 else b) - P.digamma(a + b)


def _choose_slope(n, k):
    """d/dn log |choose(n, k)| for a whole k: digamma(n + 1) - digamma(n -
    k + 1), the sum of 1 / (n - j) for j < k; written through -n where n is
    negative (the same sum, finite at the negative whole n), 0 for k <= 0."""
    k = E.round(k)
    negative = E.less(n, 0)
    up = E.where(negative, 0.5, n)
    down = E.where(negative, -n, 0.5)
    slope = E.where(negative, P.digamma(down) - P.digamma(down + k),
                    P.digamma(up + 1) - P.digamma(up - k + 1))
    return E.where(E.less_equal(k, 0), 0.0, slope)


def _choose(g, ans, n, k):
    # where choose is 0 at a whole n in [0, k), its derivative (the product
    # of the other factors) is (-1)^(k-1-n) / (k choose(k - 1, n))
    k = E.round(k)
    zero = E.logical_and(E.logical_and(E.equal(E.round(n), n),
                                       E.greater_equal(n, 0)), E.less(n, k))
    kk = E.where(zero, k, 1.0)
    nn = E.where(zero, n, 0.0)
    odd = E.not_equal(E.mod(kk - 1 - nn, 2), 0)
    at_zero = E.where(odd, -1.0, 1.0) / (kk * P.choose(kk - 1, nn))
    return g * E.where(zero, at_zero, ans * _choose_slope(n, k))


# ---- the gamma family ---------------------------------------------------------
defvjp("lgamma", lambda g, ans, x: g * P.digamma(x))
defvjp("digamma", lambda g, ans, x: g * P.polygamma(1, x))
defvjp("polygamma", lambda g, ans, x, n: g * P.polygamma(n + 1, x))
defvjp("gamma", lambda g, ans, x: g * ans * P.digamma(x))


# ---- beta and the binomial coefficients (broadcasting undone by the loop) -----
defvjp("lbeta", lambda g, ans, a, b: g * _beta_slope(a, b, 0),
       lambda g, ans, a, b: g * _beta_slope(a, b, 1), broadcast=True)
defvjp("beta", lambda g, ans, a, b: g * ans * _beta_slope(a, b, 0),
       lambda g, ans, a, b: g * ans * _beta_slope(a, b, 1), broadcast=True)
defvjp("choose", _choose, _zero_k, broadcast=True)
defvjp("lchoose", lambda g, ans, n, k: g * _choose_slope(n, k), _zero_k,
       broadcast=True)
